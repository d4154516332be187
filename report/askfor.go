package report

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/rules"
)

// Ask is one command that collects evidence the input lacks and a finding
// or a gather health check needs: what to ask the customer for.
type Ask struct {
	// Command is one POSIX shell command line; every name from the gather
	// in it is quoted (shellQuote).
	Command string `json:"command"`
	// On is where it runs: "" where oc (kubectl on a cluster that is not
	// OpenShift) is logged in to the cluster, else "node NAME": on that
	// node, as root.
	On string `json:"on,omitempty"`
	// Why says what evidence it collects and what that evidence decides.
	Why string `json:"why"`
	// Blocks lists what waits on it: "finding:RULE:SUBJECT" for a finding
	// (its rule id and first object, as in findings[].objects) and
	// "health:CHECK" for a gather health list (nodesWithoutLogs,
	// podsWithoutLogs, namespacesWithoutPods).
	Blocks []string `json:"blocks"`
	// Docs is the documentation page of the command.
	Docs string `json:"docs" redact:"keep"`
}

// askTool is one command the asks use, with the flags they pass to it and
// the documentation page that describes both (askTools).
type askTool struct {
	argv  []string // the command and its subcommands
	flags []string // every flag an ask passes to it
	docs  string
}

// askTools is the one table of the commands and flags an ask may use, each
// with the page that documents it; askFor uses nothing else (TestAskCommands).
var askTools = []askTool{
	{[]string{"oc", "adm", "must-gather"}, []string{"--"}, "https://docs.openshift.com/container-platform/latest/support/gathering-cluster-data.html"},
	{[]string{"oc", "adm", "inspect"}, nil, "https://docs.redhat.com/en/documentation/openshift_container_platform/4.11/html/cli_tools/cli-administrator-commands"},
	{[]string{"oc", "adm", "node-logs"}, []string{"-u"}, "https://docs.redhat.com/en/documentation/openshift_container_platform/4.11/html/cli_tools/cli-administrator-commands"},
	{[]string{"oc", "logs"}, []string{"-n", "-c", "--previous", "--all-containers"}, "https://docs.redhat.com/en/documentation/openshift_container_platform/4.11/html/cli_tools/cli-developer-commands"},
	{[]string{"oc", "get"}, []string{"-n", "-A", "-o"}, "https://docs.redhat.com/en/documentation/openshift_container_platform/4.11/html/cli_tools/cli-developer-commands"},
	{[]string{"oc", "describe"}, []string{"-n"}, "https://docs.redhat.com/en/documentation/openshift_container_platform/4.11/html/cli_tools/cli-developer-commands"},
	{[]string{"kubectl", "logs"}, []string{"-n", "-c", "--previous", "--all-containers"}, "https://kubernetes.io/docs/reference/kubectl/generated/kubectl_logs/"},
	{[]string{"kubectl", "get"}, []string{"-n", "-A", "-o"}, "https://kubernetes.io/docs/reference/kubectl/generated/kubectl_get/"},
	{[]string{"kubectl", "describe"}, []string{"-n"}, "https://kubernetes.io/docs/reference/kubectl/generated/kubectl_describe/"},
	{[]string{"journalctl"}, []string{"-u", "--no-pager"}, "https://www.freedesktop.org/software/systemd/man/latest/journalctl.html"},
	{[]string{"sos", "report"}, []string{"--batch", "-o"}, "https://manpages.ubuntu.com/manpages/jammy/man1/sos-report.1.html"},
}

// askToolOf returns the askTools entry whose command argv starts with (the
// longest), and false when none does.
func askToolOf(argv []string) (askTool, bool) {
	var best askTool
	found := false
	for _, t := range askTools {
		if len(argv) >= len(t.argv) && strings.Join(argv[:len(t.argv)], " ") == strings.Join(t.argv, " ") && len(t.argv) > len(best.argv) {
			best, found = t, true
		}
	}
	return best, found
}

// askCommand is a command an ask runs: its words, unquoted, and the node it
// runs on ("" for a workstation logged in to the cluster).
type askCommand struct {
	argv []string
	node string
}

// sosPlugins are the sos report plugins the asks name, per flavour: the
// node's journal (logs), its container runtime's state and logs (crio on
// RHCOS), and the container logs under /var/log/containers (container_log).
var (
	sosOpenShiftNode  = []string{"logs", "crio", "container_log"}
	sosKubernetesNode = []string{"logs", "kubernetes", "container_log"}
)

// askFlavour is what gapCommand needs to know of the cluster and the upload.
type askFlavour struct {
	// openshift: oc; else kubectl, journalctl and sos.
	openshift bool
	// sosUpload: the upload holds a node sosreport, so the customer can
	// run sos report on the other nodes as well.
	sosUpload bool
	// notReady reports whether a node is not Ready (or has no Node object).
	notReady func(node string) bool
}

// gapCommand is the command that collects g: with oc on OpenShift, else with
// kubectl, journalctl and sos. A node journal comes from oc adm node-logs,
// or from a sos report on the node when the node is not Ready (oc adm
// node-logs goes through its kubelet); on another cluster from journalctl
// on the node, or a sos report on it when the upload holds sosreports
// (the kubelet's unit name varies by distribution; sos knows it). ok is
// false when a name in g cannot be put in a command (askName) or g is of
// no kind it knows.
func gapCommand(g model.Gap, fl askFlavour) (askCommand, bool) {
	openshift := fl.openshift
	cli := "kubectl"
	if openshift {
		cli = "oc"
	}
	sos := func(node string) askCommand {
		plugins := sosKubernetesNode
		if openshift {
			plugins = sosOpenShiftNode
		}
		return askCommand{argv: []string{"sos", "report", "--batch", "-o", strings.Join(plugins, ",")}, node: node}
	}
	switch g.What {
	case model.GapObjects:
		if g.Kind.Resource == "" || !askName(g.Kind.String()) || g.Namespace != "" && !askName(g.Namespace) {
			return askCommand{}, false
		}
		verb, out := "get", []string{"-o", "yaml"}
		if g.Kind == model.Secrets {
			verb, out = "describe", nil // key names and sizes, never the values
		}
		argv := []string{cli, verb, g.Kind.String()}
		switch {
		case g.Namespace != "":
			argv = append(argv, "-n", g.Namespace)
		case !clusterScoped(g.Kind):
			argv = append(argv, "-A")
		}
		return askCommand{argv: append(argv, out...)}, true
	case model.GapNamespace:
		if !askName(g.Namespace) {
			return askCommand{}, false
		}
		if openshift {
			return askCommand{argv: []string{"oc", "adm", "inspect", "ns/" + g.Namespace}}, true
		}
		return askCommand{argv: []string{"kubectl", "get", "pods,events", "-n", g.Namespace, "-o", "yaml"}}, true
	case model.GapNodeJournal:
		if !askName(g.Node) || !askName(g.Unit) {
			return askCommand{}, false
		}
		switch {
		case !openshift && fl.sosUpload:
			return sos(g.Node), true
		case !openshift:
			return askCommand{argv: []string{"journalctl", "-u", g.Unit, "--no-pager"}, node: g.Node}, true
		case fl.notReady(g.Node):
			return sos(g.Node), true
		}
		return askCommand{argv: []string{"oc", "adm", "node-logs", g.Node, "-u", g.Unit}}, true
	case model.GapContainerLog, model.GapPodLogs:
		if !askName(g.Namespace) || !askName(g.Pod) || g.What == model.GapContainerLog && !askName(g.Container) {
			return askCommand{}, false
		}
		argv := []string{cli, "logs", "-n", g.Namespace, g.Pod}
		if g.What == model.GapPodLogs {
			argv = append(argv, "--all-containers")
		} else {
			argv = append(argv, "-c", g.Container)
			if g.Previous {
				argv = append(argv, "--previous")
			}
		}
		return askCommand{argv: argv}, true
	case model.GapNetworkLogs:
		if !openshift {
			return askCommand{}, false
		}
		return askCommand{argv: []string{"oc", "adm", "must-gather", "--", "/usr/bin/gather_network_logs"}}, true
	}
	return askCommand{}, false
}

// clusterScoped lists the kinds a gap may name that are not namespaced.
func clusterScoped(k model.Kind) bool {
	switch k {
	case model.Nodes, model.Namespaces, model.PersistentVolumes, model.StorageClasses, model.CSINodes,
		model.CertificateSigningRequests, model.ClusterRoleBindings, model.ClusterRoles,
		model.KubeletConfigs, model.MachineConfigPools, model.MachineConfigs, model.ContainerRuntimeConfigs:
		return true
	}
	return false
}

// askName reports whether a name from the gather may go into a command: not
// empty, at most 253 bytes (a DNS subdomain), not starting with "-" (it would
// read as a flag), and only printable characters (no line break, control,
// bidirectional control or other hidden character that would make the
// pasted line differ from the one shown). Quoting does the rest.
func askName(s string) bool {
	if s == "" || len(s) > 253 || s[0] == '-' || cleanLine(s) != s {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) || isHiddenControl(r) {
			return false
		}
	}
	return true
}

// shellQuote quotes s for a POSIX shell: as it is when it holds only
// characters no shell reads specially, else in single quotes, a single
// quote inside closed, escaped and reopened, so that ";", "$(…)",
// backticks or spaces in a name stay part of the one argument.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellLine is argv as one shell command line.
func shellLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// gapText names what g lacks, for an ask's reason.
func gapText(g model.Gap) string {
	switch g.What {
	case model.GapObjects:
		switch {
		case g.Namespace != "":
			return "the " + g.Kind.String() + " of namespace " + g.Namespace
		case clusterScoped(g.Kind):
			return "the " + g.Kind.String()
		}
		return "the " + g.Kind.String() + " of every namespace"
	case model.GapNamespace:
		return "the pods and events of namespace " + g.Namespace
	case model.GapNodeJournal:
		return "the " + g.Unit + " journal of node " + g.Node
	case model.GapContainerLog:
		run := "log"
		if g.Previous {
			run = "previous log"
		}
		return "the " + run + " of container " + g.Container
	case model.GapPodLogs:
		return "the container logs of the pod"
	case model.GapNetworkLogs:
		return "the cluster network's logs and databases (not in a default must-gather)"
	}
	return string(g.What)
}

// askBlock is one finding or health check an ask unblocks: its handle
// (Ask.Blocks), how the reason names it, and its rank (the finding's
// severity rank; health checks after every finding).
type askBlock struct {
	handle, text string
	rank         int
}

// Health check handles of Ask.Blocks.
const (
	askHealthNodes      = "health:nodesWithoutLogs"
	askHealthPods       = "health:podsWithoutLogs"
	askHealthNamespaces = "health:namespacesWithoutPods"
)

// askFor turns every gap that blocks a finding of r (findings[i] made
// r.Findings[i]) or a gather health check of h into the command that fills
// it (gapCommand), one ask per command, the commands that unblock the most
// severe finding first, then those that unblock more, then by command.
// A sandbox or network-not-ready finding whose cause no signature decided
// also asks for the network logs of an OpenShift must-gather that has none.
func askFor(r *Report, findings []rules.Finding, h model.Health) []Ask {
	openshift := r.Gather.Distribution == "OpenShift"
	notReady := map[string]bool{}
	for _, n := range r.Nodes {
		notReady[n.Name] = n.Ready != "True" || n.NoObject
	}
	fl := askFlavour{openshift: openshift, notReady: func(n string) bool { return notReady[n] }}
	for _, l := range r.Gather.Layouts {
		fl.sosUpload = fl.sosUpload || l.Kind == model.LayoutSosreport
	}
	type entry struct {
		ask   Ask
		whats []string
		rank  int
		seen  map[string]bool
	}
	byCmd := map[string]*entry{}
	var order []*entry
	add := func(g model.Gap, b askBlock) {
		c, ok := gapCommand(g, fl)
		if !ok {
			return
		}
		line := shellLine(c.argv)
		key := c.node + "\x00" + line
		e := byCmd[key]
		if e == nil {
			tool, _ := askToolOf(c.argv)
			e = &entry{ask: Ask{Command: line, Docs: tool.docs}, rank: b.rank, seen: map[string]bool{}}
			if c.node != "" {
				e.ask.On = "node " + c.node
			}
			byCmd[key] = e
			order = append(order, e)
		}
		if what := gapText(g); !e.seen["w\x00"+what] {
			e.seen["w\x00"+what] = true
			e.whats = append(e.whats, what)
		}
		if !e.seen["b\x00"+b.handle] {
			e.seen["b\x00"+b.handle] = true
			e.ask.Blocks = append(e.ask.Blocks, b.handle)
			if e.ask.Why == "" || b.rank < e.rank {
				e.rank = b.rank
				e.ask.Why = b.text // the most severe, completed below
			}
		}
	}
	network := openshift && hasMustGather(r) && !networkLogsGathered(r.Gather.Coverage)
	for i, f := range findings {
		if i >= len(r.Findings) {
			break
		}
		rf := r.Findings[i]
		b := findingBlock(rf)
		for _, g := range f.Gaps {
			add(g, b)
		}
		if network && (rf.Category == "sandbox" || rf.RuleID == "node-network-not-ready") && (rf.Signature == nil || !rf.Signature.Decided) {
			add(model.Gap{What: model.GapNetworkLogs}, b)
		}
	}
	health := len(Severities) + 1
	for _, n := range listed(h.NodesWithoutLogs) {
		add(model.Gap{What: model.GapNodeJournal, Node: n, Unit: "kubelet"}, askBlock{askHealthNodes, "the gather health check: nodes without kubelet logs", health})
	}
	for _, p := range listed(h.PodsWithoutLogs) {
		if ns, name, ok := strings.Cut(p, "/"); ok {
			add(model.Gap{What: model.GapPodLogs, Namespace: ns, Pod: name}, askBlock{askHealthPods, "the gather health check: pods without logs", health})
		}
	}
	for _, ns := range listed(h.NamespacesWithoutPods) {
		add(model.Gap{What: model.GapNamespace, Namespace: path.Base(ns)}, askBlock{askHealthNamespaces, "the gather health check: namespaces without pods.yaml", health})
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if len(a.ask.Blocks) != len(b.ask.Blocks) {
			return len(a.ask.Blocks) > len(b.ask.Blocks)
		}
		if a.ask.Command != b.ask.Command {
			return a.ask.Command < b.ask.Command
		}
		return a.ask.On < b.ask.On
	})
	out := make([]Ask, 0, len(order))
	for _, e := range order {
		a := e.ask
		what := e.whats[0]
		if len(e.whats) > 1 {
			what += fmt.Sprintf(" (and %d more)", len(e.whats)-1)
		}
		a.Why = what + ", for " + a.Why
		if len(a.Blocks) > 1 {
			a.Why += fmt.Sprintf(" (and %d more)", len(a.Blocks)-1)
		}
		out = append(out, a)
	}
	return out
}

// findingBlock is how an ask names finding f.
func findingBlock(f Finding) askBlock {
	subject := ""
	if len(f.Objects) > 0 {
		o := f.Objects[0]
		subject = o.Name
		if o.Namespace != "" {
			subject = o.Namespace + "/" + o.Name
		}
		if !strings.HasPrefix(o.Kind, "Pod") {
			subject = strings.ToLower(o.Kind) + "/" + subject
		}
	}
	return askBlock{
		handle: "finding:" + f.RuleID + ":" + subject,
		text:   fmt.Sprintf("%s finding %s on %s", f.Severity, f.RuleID, subject),
		rank:   SeverityRank(f.Severity),
	}
}

// listed drops the closing "… and N more" entry of a bounded health list.
func listed(l []string) []string {
	if n := len(l); n > 0 && strings.HasPrefix(l[n-1], "… and ") {
		return l[:n-1]
	}
	return l
}

func hasMustGather(r *Report) bool {
	for _, l := range r.Gather.Layouts {
		if l.Kind == model.LayoutMustGather {
			return true
		}
	}
	return false
}

// networkLogsGathered reports whether the input holds a network_logs/
// folder (written by gather_network_logs), which no reader uses.
func networkLogsGathered(c Coverage) bool {
	for _, l := range [][]FileCount{c.Used, c.Unused} {
		for _, f := range l {
			if strings.HasSuffix(f.What, "network_logs/") {
				return true
			}
		}
	}
	return false
}
