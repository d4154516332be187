// Package insights reads an Insights Operator archive (insights-*.tar.gz)
// into the model. It claims the archive's members by path (Root,
// ObjectRoot, Classify, ClassifyConditional): most are documents the load
// reads as a must-gather's (a pod, a container log, a node and its journal,
// the ClusterVersion and Infrastructure, the objects of its config/
// folders); the members in the archive's own form, its one-object
// ClusterOperator files, the Reader hands back to the load as a common
// document (load.ClusterOperator) and counts for the coverage.
//
// The archive's events/<ns>.json (the trimmed form
// {"namespace","lastTimestamp","reason","message","type"}) lie where pod
// captures keep theirs: the pod captures' marker claims them (package
// supportbundle), and the load's reader of event lists reads either form.
// No path under an archive reaches Classify as an event list: its markers
// all lie under config/, which the events/ of a capture exclude.
//
// An archive holds only some objects of a kind: config/pod/<ns>/<pod>.json
// lists only pods that are not healthy, and config/<folder>/ only the
// objects a gatherer picked. Member.Filtered names the kind a member lists
// only some objects of, so that a name not found proves nothing.
package insights

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

// Layout is the layout kind (model.Layout.Kind) of an Insights archive.
const Layout = "insights archive"

// Kind says what a member of an Insights archive holds, judged by its path.
type Kind int

const (
	// Other is a member the analysis does not read.
	Other Kind = iota
	// Pod is config/pod/<ns>/<pod>.json: read as a must-gather's pod file.
	Pod
	// ContainerLog is config/pod/<ns>/logs/<pod>/<container>_current.log,
	// _previous.log, or errors.log and messages.log (the lines of all the
	// pod's containers that matched the operator's filter: Container ""),
	// or a conditional gatherer's log (ClassifyConditional).
	ContainerLog
	// NodeLog is config/node/logs/<node>.log: read as the node's journal.
	NodeLog
	// Node is config/node/<node>.json.
	Node
	// ClusterVersion is config/version.json.
	ClusterVersion
	// Infrastructure is config/infrastructure.json.
	Infrastructure
	// Object is config/<folder>/[<ns>/]<name>.json of a folder in
	// objectDirs: one object for the object store, of Member.Object's kind.
	Object
	// ClusterOperator is config/clusteroperator/<name>.json, one
	// ClusterOperator, which the Reader reads.
	ClusterOperator
)

// ClusterOperatorLabel is what the ClusterOperator files the Reader reads
// hold (model.FileCount.What).
const ClusterOperatorLabel = "ClusterOperator files"

// kindLabels name what the members of each Kind the Reader reads hold, in
// report order (model.Coverage.Used).
var kindLabels = []load.Label[Kind]{
	{Kind: ClusterOperator, Text: ClusterOperatorLabel},
}

// Member is what a member of an Insights archive holds and the path parts
// that locate it: Root is the archive's folder ("" or ending in "/"); the
// other fields are set where the kind has them (Name is a node's,
// ClusterOperator's or object's name).
type Member struct {
	Kind                            Kind
	Root, Namespace, Pod, Container string
	Previous                        bool // a container's _previous.log
	Node, Name                      string
	// Object is an Object member's kind.
	Object model.Kind
	// Filtered is the kind of which the member lists only some objects
	// (Resource "" when it lists all it names).
	Filtered model.Kind
}

// markers recognise an archive by one of its members (a path element of
// p); whole markers are the member's whole path from the archive's folder.
var markers = []struct {
	marker string
	whole  bool
}{
	{"config/pod/", false},
	{"config/node/", false},
	{"config/clusteroperator/", false},
	{"config/version.json", true},
	{"config/id", true},
	{"insights-operator/gathers.json", true},
}

// objectDirs maps the folders of an archive's config/ to the kind they
// hold; namespaced kinds sit one folder deeper (<ns>/<name>.json).
var objectDirs = map[string]struct {
	kind       model.Kind
	namespaced bool
}{
	"machineconfigpools":         {model.MachineConfigPools, false},
	"kubeletconfigs":             {model.KubeletConfigs, false},
	"certificatesigningrequests": {model.CertificateSigningRequests, false},
	"persistentvolumes":          {model.PersistentVolumes, false},
	"storage/storageclasses":     {model.StorageClasses, false},
	"machineconfigs":             {model.Kind{Group: "machineconfiguration.openshift.io", Resource: "machineconfigs"}, false},
	"containerruntimeconfigs":    {model.Kind{Group: "machineconfiguration.openshift.io", Resource: "containerruntimeconfigs"}, false},
	"securitycontextconstraint":  {model.Kind{Group: "security.openshift.io", Resource: "securitycontextconstraints"}, false},
	"pdbs":                       {model.Kind{Group: "policy", Resource: "poddisruptionbudgets"}, true},
	"machines":                   {model.Kind{Group: "machine.openshift.io", Resource: "machines"}, true},
}

var (
	podRe       = regexp.MustCompile(`^(.*/)?config/pod/([^/]+)/([^/]+)\.json$`)
	podLogRe    = regexp.MustCompile(`^(.*/)?config/pod/([^/]+)/logs/([^/]+)/([^/]+)\.log$`)
	condLogRe   = regexp.MustCompile(`^(.*/)?conditional/namespaces/([^/]+)/pods/([^/]+)/containers/([^/]+)/logs/[^/]+\.log$`)
	nodeRe      = regexp.MustCompile(`^(.*/)?config/node/([^/]+)\.json$`)
	nodeLogRe   = regexp.MustCompile(`^(.*/)?config/node/logs/([^/]+)\.log$`)
	operatorRe  = regexp.MustCompile(`^(.*/)?config/clusteroperator/([^/]+)\.json$`)
	versionRe   = regexp.MustCompile(`^(.*/)?config/(version|infrastructure)\.json$`)
	objectRe    = regexp.MustCompile(`^(.*/)?config/(.+)/([^/]+)\.json$`)
	logSuffixRe = regexp.MustCompile(`^(.+)_(current|previous)$`)
)

// Root returns the folder of the archive whose marker member p is (a
// config/pod/, config/node/ or config/clusteroperator/ member, config/id,
// config/version.json, insights-operator/gathers.json); false when p is
// none. The load decides whether the folder lies inside another gather.
func Root(p string) (string, bool) {
	for _, m := range markers {
		i := load.MarkerIndex(p, m.marker)
		if i < 0 || m.whole && len(p) != i+len(m.marker) {
			continue
		}
		return p[:i], true
	}
	return "", false
}

// ObjectRoot returns the folder of the archive p belongs to when p is one
// of the other config/ files it reads: an object of a folder in objectDirs,
// config/version.json or config/infrastructure.json. The load tries it
// after the other formats' roots: their markers win a path both claim.
func ObjectRoot(p string) (string, bool) {
	i := load.MarkerIndex(p, "config/")
	if i < 0 {
		return "", false
	}
	if m := objectRe.FindStringSubmatch(p[i:]); m != nil && objectDir(m[2]) {
		return p[:i], true
	}
	if versionRe.MatchString(p[i:]) {
		return p[:i], true
	}
	return "", false
}

// objectDir reports whether dir (below config/) holds objects the reader
// maps (see objectDirs), with or without a namespace folder.
func objectDir(dir string) bool {
	if _, ok := objectDirs[dir]; ok {
		return true
	}
	if i := strings.LastIndex(dir, "/"); i > 0 {
		d, ok := objectDirs[dir[:i]]
		return ok && d.namespaced
	}
	return false
}

// Classify returns what a member of an archive holds; Kind is Other for
// members the analysis does not read.
func Classify(p string) Member {
	if m := podRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: Pod, Root: m[1], Namespace: m[2], Pod: m[3], Filtered: model.Pods}
	}
	if m := podLogRe.FindStringSubmatch(p); m != nil {
		c := Member{Kind: ContainerLog, Root: m[1], Namespace: m[2], Pod: m[3]}
		if s := logSuffixRe.FindStringSubmatch(m[4]); s != nil {
			c.Container, c.Previous = s[1], s[2] == "previous"
		}
		return c
	}
	if m := nodeLogRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: NodeLog, Root: m[1], Node: m[2]}
	}
	if m := nodeRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: Node, Root: m[1], Node: m[2]}
	}
	if m := operatorRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: ClusterOperator, Root: m[1], Name: m[2]}
	}
	if m := versionRe.FindStringSubmatch(p); m != nil {
		if m[2] == "version" {
			return Member{Kind: ClusterVersion, Root: m[1]}
		}
		return Member{Kind: Infrastructure, Root: m[1]}
	}
	if m := objectRe.FindStringSubmatch(p); m != nil {
		dir, ns := m[2], ""
		d, ok := objectDirs[dir]
		if !ok {
			if i := strings.LastIndex(dir, "/"); i > 0 {
				dir, ns = dir[:i], dir[i+1:]
				d, ok = objectDirs[dir]
				ok = ok && d.namespaced
			}
		}
		if ok && (ns != "") == d.namespaced {
			return Member{Kind: Object, Root: m[1], Object: d.kind, Namespace: ns, Name: m[3], Filtered: d.kind}
		}
	}
	return Member{}
}

// ClassifyConditional returns the log of a conditional gatherer
// (conditional/namespaces/<ns>/pods/<pod>/containers/<c>/logs/<name>.log),
// which lies under a namespaces/ folder and so outside Root's claim; Kind
// is Other for any other path. Root is the folder that holds conditional/.
func ClassifyConditional(p string) Member {
	if m := condLogRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: ContainerLog, Root: m[1], Namespace: m[2], Pod: m[3], Container: m[4]}
	}
	return Member{}
}

// ReadsItself reports whether the Reader reads members of kind k (Read);
// the load reads the others as a must-gather's.
func (k Kind) ReadsItself() bool { return k == ClusterOperator }

// Reader reads the members of the Insights archives of one load that the
// load does not read as a must-gather's. Read is safe for concurrent use;
// Count and Used are for the load's sequential pass.
type Reader struct {
	load             load.Load
	load.Tally[Kind] // the members read, by kind (Count, Used)
}

// NewReader returns the reader of the Insights archives of l.
func NewReader(l load.Load) *Reader {
	return &Reader{load: l, Tally: load.NewTally(kindLabels)}
}

// Read reads data, the member at p of kind m.Kind (ReadsItself): one
// ClusterOperator, named for its file when it names itself not. It hands it
// to the load, which records its problems.
func (r *Reader) Read(p string, m Member, data []byte) error {
	switch m.Kind {
	case ClusterOperator:
		return r.load.ReadObjects(p, load.Objects{Content: load.ClusterOperator, Root: m.Root, Name: m.Name}, data)
	}
	return fmt.Errorf("not read by the Insights archive's reader")
}
