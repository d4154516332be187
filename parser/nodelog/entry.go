package nodelog

import (
	"bytes"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Unit names the component that wrote a line, from its journal identifier.
type Unit string

// Units the analysis reads.
const (
	UnitKubelet Unit = "kubelet"
	UnitCRIO    Unit = "crio"
	UnitKernel  Unit = "kernel"
	UnitOther   Unit = "other"
)

// UnitOf maps a journal identifier (the syslog identifier journalctl
// prints before "[pid]:") to a Unit. The kubelet writes as
// "kubenswrapper" on newer OpenShift releases, "hyperkube" on older ones,
// "kubelet" from a package; as "kubelet.daemon" from the kubelet snap of
// Charmed Kubernetes (unit snap.kubelet.daemon); as
// "microk8s.daemon-kubelite" in MicroK8s 1.21 and later (one process for
// the kubelet and the control plane) and "microk8s.daemon-kubelet" before;
// as "k3s" in K3s (server and agent units alike: the k3s binary holds the
// kubelet). The lines of the control plane in the one process of kubelite
// and k3s count as the kubelet's: the identifier cannot tell them apart.
func UnitOf(ident []byte) Unit {
	switch string(ident) {
	case "kubenswrapper", "hyperkube", "kubelet",
		"kubelet.daemon", "microk8s.daemon-kubelite", "microk8s.daemon-kubelet", "k3s":
		return UnitKubelet
	case "crio", "conmon":
		return UnitCRIO
	case "kernel":
		return UnitKernel
	}
	return UnitOther
}

// Entry is one parsed node-log line.
type Entry struct {
	Time     time.Time
	Host     string
	Unit     Unit
	Severity byte   // I, W, E, F (klog letters; logfmt levels map onto them); 0 when unknown
	Source   string // klog file:line
	// Message is the line's message: the quoted klog message unquoted, the
	// logfmt msg, or the whole text of an unstructured line.
	Message string
	Fields  []Field

	Class Class
	// Pod is "namespace/name" and PodUID the pod's UID, whichever the line names.
	Pod, PodUID string
	Container   string
	Image       string
	Probe       string // Readiness, Liveness, Startup
	// Detail is the class's own text: the err= cause, the probe output, the
	// killed process of an OOM kill.
	Detail string
}

// Parse parses one journal line fully. ref supplies the year (see
// ParseJournal). It returns false for lines that are not journal entries.
func Parse(line []byte, ref time.Time) (Entry, bool) {
	j, ok := ParseJournal(line, ref)
	if !ok {
		return Entry{}, false
	}
	return FromJournal(j), true
}

// FromJournal parses the message of a journal line according to its unit and
// classifies it.
func FromJournal(j Journal) Entry {
	e := Entry{Time: j.Time, Host: Text(j.Host), Unit: UnitOf(j.Ident)}
	msg := Text(j.Message)
	switch e.Unit {
	case UnitKubelet:
		if k, ok := ParseKlog(msg); ok {
			e.Severity, e.Source = k.Severity, k.Source
			e.Message, e.Fields = splitStructured(k.Text)
		} else {
			e.Message = msg
		}
	case UnitCRIO:
		if strings.HasPrefix(msg, "time=") {
			e.Fields = ParseFields(msg)
			e.Message = Get(e.Fields, "msg")
			e.Severity = levelSeverity(Get(e.Fields, "level"))
		} else if k, ok := ParseKlog(msg); ok { // conmon and older CRI-O write klog
			e.Severity, e.Source, e.Message = k.Severity, k.Source, k.Text
		} else {
			e.Message = msg
		}
	default:
		e.Message = msg
	}
	Classify(&e)
	return e
}

// Text converts a log line (or any bytes) to a string, each run of invalid
// UTF-8 replaced by U+FFFD.
func Text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

func levelSeverity(level string) byte {
	switch strings.ToLower(level) {
	case "debug", "info", "trace":
		return 'I'
	case "warn", "warning":
		return 'W'
	case "error":
		return 'E'
	case "fatal", "panic":
		return 'F'
	}
	return 0
}

// Klog is a klog line split into its header and text:
// `E0914 14:13:43.559597    1985 prober.go:116] text`.
type Klog struct {
	Severity byte
	Source   string // file:line
	Text     string
}

// ParseKlog splits a klog line; false when msg has no klog header.
func ParseKlog(msg string) (Klog, bool) {
	// "I0914 14:13:43.559597 1 a.go:1] " is at least 32 bytes.
	if len(msg) < 24 || strings.IndexByte("IWEF", msg[0]) < 0 {
		return Klog{}, false
	}
	for i := 1; i <= 4; i++ {
		if msg[i] < '0' || msg[i] > '9' {
			return Klog{}, false
		}
	}
	if msg[5] != ' ' || msg[8] != ':' || msg[11] != ':' {
		return Klog{}, false
	}
	end := strings.Index(msg, "] ")
	if end < 0 {
		if !strings.HasSuffix(msg, "]") {
			return Klog{}, false
		}
		end = len(msg) - 1
	}
	src := strings.LastIndexByte(msg[:end], ' ')
	if src < 12 || src+1 >= end {
		return Klog{}, false
	}
	k := Klog{Severity: msg[0], Source: msg[src+1 : end]}
	if end+2 <= len(msg) {
		k.Text = msg[end+2:]
	}
	return k, true
}

// splitStructured separates a structured klog text (`"Probe failed"
// probeType="Readiness" pod="ns/p"`) into its message and fields; an
// unstructured text is returned whole with no fields.
func splitStructured(t string) (string, []Field) {
	if !strings.HasPrefix(t, `"`) {
		return t, nil
	}
	msg, i := readQuoted(t, 0)
	return msg, ParseFields(t[i:])
}

var (
	podNameUIDRe = regexp.MustCompile(`\bpod=([a-z0-9][a-z0-9.-]*)_([a-z0-9][a-z0-9-]*)\(([0-9a-f-]{36})\)`)
	forPodRe     = regexp.MustCompile(`for "([a-z0-9][a-z0-9.-]*)_([a-z0-9][a-z0-9-]*)\(([0-9a-f-]{36})\)"`)
	podQuotedRe  = regexp.MustCompile(`pod \\?"([a-z0-9][a-z0-9.-]*)\\?" \(UID: \\?"([0-9a-f-]{36})\\?"\)`)
	podsListRe   = regexp.MustCompile(`^\[\s*"?([^"/\s\]]+)/([^"\s\]]+)"?`)
	cgroupPodRe  = regexp.MustCompile(`pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12})`)
)

// podFindLiterals are text that podNameUIDRe, forPodRe and podQuotedRe
// (in that order) cannot match without.
var podFindLiterals = [3]string{"pod=", `for "`, "(UID: "}

// findPod fills Pod, PodUID and Container from the fields and the message.
func findPod(e *Entry) {
	if v := Get(e.Fields, "pod"); strings.Contains(v, "/") {
		e.Pod = v
	} else if v := Get(e.Fields, "pods"); v != "" {
		if m := podsListRe.FindStringSubmatch(v); m != nil {
			e.Pod = m[1] + "/" + m[2]
		}
	}
	if v := Get(e.Fields, "podUID"); len(v) == 36 {
		e.PodUID = v
	}
	e.Container = Get(e.Fields, "containerName")
	if e.Pod != "" && e.PodUID != "" {
		return
	}
	whole := e.Message
	if err := Get(e.Fields, "err"); err != "" {
		whole += " " + err
	}
	if !strings.Contains(whole, "pod") {
		return
	}
	// Each expression needs its literal (podFindLiterals): a cheap test
	// first spares most lines the regular expression.
	for i, re := range []*regexp.Regexp{podNameUIDRe, forPodRe} {
		if !strings.Contains(whole, podFindLiterals[i]) {
			continue
		}
		if m := re.FindStringSubmatch(whole); m != nil {
			if e.Pod == "" {
				e.Pod = m[2] + "/" + m[1]
			}
			if e.PodUID == "" {
				e.PodUID = m[3]
			}
			return
		}
	}
	if e.PodUID != "" || !strings.Contains(whole, podFindLiterals[2]) {
		return
	}
	if m := podQuotedRe.FindStringSubmatch(whole); m != nil {
		e.PodUID = m[2]
	}
}

// cgroupPodUID returns the pod UID in a kubepods cgroup path
// (".../kubepods-burstable-pod1a2b..._....slice/crio-...scope"), or "".
func cgroupPodUID(s string) string {
	m := cgroupPodRe.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return strings.ReplaceAll(m[1], "_", "-")
}

// Signature reduces a message to what repeats between its occurrences:
// every run of digits becomes '#', so "back-off 2m40s" and "back-off 5m0s",
// or the same error for two pods with numbered names, share one signature.
func Signature(msg string) string {
	return string(AppendSignature(make([]byte, 0, len(msg)), msg))
}

// IDSignature is Signature that also reduces each run of hexadecimal
// characters holding a digit (a container or sandbox ID, a pod UID, a hash)
// to '#': the lines that repeat one error for new sandboxes and containers,
// differing only in IDs, numbers and times, share one. It is a key for
// folding such lines in a report, not the key the reader groups node-log
// lines by (that is Signature).
func IDSignature(msg string) string {
	b := make([]byte, 0, len(msg))
	for i := 0; i < len(msg); {
		j, digit := i, false
		for j < len(msg) && isHex(msg[j]) {
			digit = digit || (msg[j] >= '0' && msg[j] <= '9')
			j++
		}
		switch {
		case j == i:
			b = append(b, msg[i])
			i++
			continue
		case digit:
			b = append(b, '#')
		default:
			b = append(b, msg[i:j]...)
		}
		i = j
	}
	return string(b)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// AppendSignature appends Signature(msg) to dst and returns it.
func AppendSignature(dst []byte, msg string) []byte {
	prevDigit := false
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c >= '0' && c <= '9' {
			if !prevDigit {
				dst = append(dst, '#')
			}
			prevDigit = true
			continue
		}
		prevDigit = false
		dst = append(dst, c)
	}
	return dst
}
