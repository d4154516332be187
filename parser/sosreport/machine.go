package sosreport

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// The files of a node sosreport that tell its host apart from every other
// machine (model.MachineFacts), by the sos plugin that collects each:
//
//   - etc/machine-id (systemd plugin): the machine ID the kubelet reports
//     as status.nodeInfo.machineID;
//   - sos_commands/host/hostnamectl_status (host plugin): "Machine ID:" and
//     "Boot ID:" lines;
//   - proc/sys/kernel/random/boot_id (kernel plugin): the boot ID
//     (status.nodeInfo.bootID);
//   - sys/class/dmi/id/product_uuid and sos_commands/hardware/dmidecode
//     (hardware plugin; "UUID:" of the "System Information" block): the
//     system UUID (status.nodeInfo.systemUUID).
var machineRules = []struct {
	re   *regexp.Regexp
	read func(data []byte, m *model.MachineFacts)
}{
	{regexp.MustCompile(`^(.*/)?etc/machine-id$`), func(d []byte, m *model.MachineFacts) { m.MachineID = firstID(d) }},
	{regexp.MustCompile(`^(.*/)?proc/sys/kernel/random/boot_id$`), func(d []byte, m *model.MachineFacts) { m.BootID = firstID(d) }},
	{regexp.MustCompile(`^(.*/)?sys/class/dmi/id/product_uuid$`), func(d []byte, m *model.MachineFacts) { m.SystemUUID = firstID(d) }},
	{regexp.MustCompile(`^(.*/)?sos_commands/host/hostnamectl(?:_status)?$`), readHostnamectl},
	{regexp.MustCompile(`^(.*/)?sos_commands/hardware/dmidecode$`), readDmidecode},
}

// classifyMachine returns the sosreport folder of a machine-fact file and
// the rule that reads it; ok is false for any other path.
func classifyMachine(p string) (root string, rule int, ok bool) {
	if !strings.HasSuffix(p, "machine-id") && !strings.HasSuffix(p, "boot_id") && !strings.HasSuffix(p, "product_uuid") &&
		!strings.Contains(p, "sos_commands/host/hostnamectl") && !strings.HasSuffix(p, "sos_commands/hardware/dmidecode") {
		return "", 0, false
	}
	for i, r := range machineRules {
		if m := r.re.FindStringSubmatch(p); m != nil {
			return m[1], i, true
		}
	}
	return "", 0, false
}

// maxIDLen bounds an identifier read from a machine-fact file.
const maxIDLen = 64

// firstID returns the first line of data when it is an identifier (hex
// digits and dashes, at most maxIDLen bytes), else "".
func firstID(data []byte) string {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return idOrEmpty(string(line))
}

func idOrEmpty(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxIDLen {
		return ""
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == '-') {
			return ""
		}
	}
	return s
}

// readHostnamectl reads `hostnamectl status` ("  Machine ID: 0c8f…",
// "     Boot ID: 7d1e…").
func readHostnamectl(data []byte, m *model.MachineFacts) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for n := 0; sc.Scan() && n < 200; n++ {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Machine ID":
			if id := idOrEmpty(v); id != "" && m.MachineID == "" {
				m.MachineID = id
			}
		case "Boot ID":
			if id := idOrEmpty(v); id != "" && m.BootID == "" {
				m.BootID = id
			}
		}
	}
}

// readDmidecode reads the "UUID:" line of dmidecode's "System Information"
// block (type 1); other blocks' UUIDs are not the system's.
func readDmidecode(data []byte, m *model.MachineFacts) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	inSystem := false
	for sc.Scan() {
		line := sc.Text()
		if line != "" && line[0] != '\t' && line[0] != ' ' {
			inSystem = strings.TrimSpace(line) == "System Information"
			continue
		}
		if !inSystem {
			continue
		}
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && k == "UUID" {
			if id := idOrEmpty(v); id != "" && m.SystemUUID == "" {
				m.SystemUUID = id
			}
			return
		}
	}
}

// Machine returns the machine facts of the host of the sosreport in folder
// dir (the load's folder key), normalised (model.NormalMachineFacts); the
// zero value when it holds none.
func (r *Reader) Machine(dir string) model.MachineFacts {
	if s := r.sos[dir]; s != nil {
		return model.NormalMachineFacts(s.machine)
	}
	return model.MachineFacts{}
}

// KubeVersion returns the Kubernetes version the cluster of the sosreport
// in folder dir runs, as it printed it: the API server's (kubectl or oc
// version's "Server Version") or the kubelet's; "" when it printed neither
// (a client's version says nothing of the cluster).
func (r *Reader) KubeVersion(dir string) string {
	if s := r.sos[dir]; s != nil && s.versionRank <= 1 {
		return s.kubeVersion
	}
	return ""
}
