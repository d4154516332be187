package model

import (
	"strings"
	"time"
)

// Distributions of Gather.Distribution.
const (
	DistributionOpenShift  = "OpenShift"
	DistributionKubernetes = "Kubernetes"
)

// Layout kinds.
const (
	LayoutMustGather = "must-gather"      // an image folder of `oc adm must-gather`
	LayoutInspect    = "inspect"          // `oc adm inspect` output (also the inspect.local.* fallback of a must-gather)
	LayoutSosreport  = "sosreport"        // a node sosreport: kubernetes plugin output, the crio plugin's runtime view, journals
	LayoutNamespace  = "namespace folder" // a single namespaces/<ns> folder given as the input
)

// Layout is one gather found in the input.
type Layout struct {
	// Root is the folder, relative to the input, that holds the gather ("" for the input itself).
	Root string
	Kind string
	// Image is the must-gather image (from the folder name and its version file).
	Image string
	// Node is the host name of a sosreport.
	Node string
	Pods int
	// Sos is what a sosreport's sos_reports/manifest.json records of its
	// run; nil for other layouts and for a sosreport without a manifest.
	Sos *SosRun
	// Clock is the sosreport's clock: its date in UTC and the host's
	// zone, from its own date files and manifest; nil for other layouts
	// and for a sosreport without a date.
	Clock *SosClock
}

// SosRun is what a sosreport's manifest (sos_reports/manifest.json) records
// of the run: the sos version, the plugins that ran, how many commands they
// ran, and the commands and plugins that did not finish well.
type SosRun struct {
	Source  Source // the manifest
	Version string // sos's version ("4.7.2")
	// Plugins are the plugins that ran, sorted.
	Plugins []string
	// Commands is how many commands the plugins ran.
	Commands int
	// Failed are the commands that returned non-zero or whose output sos
	// truncated at its size limit, in manifest order (bounded).
	Failed []SosCommand
	// TimedOutPlugins are the plugins that hit their timeout (sos stopped
	// them, so the files they had yet to collect are missing), sorted.
	TimedOutPlugins []string
}

// SosCommand is one command of a sosreport's manifest.
type SosCommand struct {
	Plugin string
	// Exec is the command line as sos ran it (bounded).
	Exec string
	// File is where its output is in the sosreport ("" when none was
	// written: the command was not found or not runnable).
	File string
	// ReturnCode is the command's exit code: 124 when sos's timeout
	// stopped it, 126 not runnable, 127 not found.
	ReturnCode int
	// Truncated: sos kept only the tail of the output (its size limit;
	// the tail is under sos_strings/, a link stands in sos_commands/).
	Truncated bool
}

// SosClock is a sosreport's clock when it was taken: the instant (UTC),
// the host's offset from UTC then, and where the offset comes from (a
// timedatectl zone, the local and UTC date files, the manifest); Zone is
// the IANA zone name when timedatectl gives one. OffsetKnown is false when
// nothing in the sosreport tells the offset: its wall-clock times (journal
// lines) are then taken as UTC.
type SosClock struct {
	UTC         time.Time
	Offset      time.Duration
	OffsetKnown bool
	Zone        string
	From        string
}

// Health is what a support engineer checks first about a gather itself.
type Health struct {
	// MustGatherErrors are error lines of must-gather.logs (bounded).
	MustGatherErrors []string
	// NamespacesWithoutPods are namespace folders with no core/pods.yaml
	// although the gather shows that the namespace runs pods: workload
	// controllers (Deployments, DaemonSets, StatefulSets, ReplicaSets, Jobs,
	// ReplicationControllers), events about pods or pod log folders.
	NamespacesWithoutPods []string
	// NamespacesWithoutWorkloads are namespace folders with no core/pods.yaml
	// and nothing that would run pods (kube-public, kube-node-lease, default,
	// operator-only namespaces): normally empty, not a gap of the gather.
	NamespacesWithoutWorkloads []string
	// PodsWithoutLogs are pods with started containers but no container log in the gather.
	PodsWithoutLogs []string
	// NodesWithoutLogs are nodes with no kubelet journal in the gather.
	NodesWithoutLogs []string
	// SosCommands say which commands of a sosreport timed out, were not
	// found, failed or had their output truncated, and which plugins hit
	// their timeout, from its manifest (model.SosRun), one sentence each.
	SosCommands []string
}

// CitedPath returns the function that turns a path of the gather (relative
// to the input, as Source holds it) into the path reports and answers cite:
// with a single gather root it drops that root (the image folder of a
// must-gather); with several, paths stay whole so they remain unambiguous.
func CitedPath(roots []string) func(string) string {
	if len(roots) != 1 || roots[0] == "" {
		return func(p string) string { return p }
	}
	root := roots[0]
	return func(p string) string { return strings.TrimPrefix(p, root) }
}
