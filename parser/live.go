package parser

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
)

// Live is what a load has read so far of the objects a view shows while the
// pass goes on (the command line's overview on a terminal): the
// ClusterVersion, the Nodes, the ClusterOperators and the Pods, as the
// decode workers meet them. The load writes it (Options.Live) and a view
// reads Overview at its own pace, from another goroutine: every method is
// safe for concurrent use. The zero Live is ready to use.
//
// It is a preview, never an input of the model: the report reads only what
// the load returns, so a run with a Live and one without write the same
// reports. Its STATUS comes from the printer of the release known when the
// pod was read (the ClusterVersion, when read before the pod; else the
// newest), where the report's comes from the release the whole gather
// decides (choosePrinter).
type Live struct {
	mu sync.Mutex
	// current and desired are the first ClusterVersion's versions;
	// printer is the pod printer they imply (newest while upgrading).
	current, desired string
	printer          podstatus.Version
	nodes            map[string]bool // Node name → NotReady: its Ready condition is not True
	operators        map[string]liveOperator
	pods             map[livePodKey]string // → STATUS when not healthy, else ""
	unhealthy        int                   // pods whose value is not ""
	seq              uint64
}

type liveOperator struct{ degraded, unavailable bool }

type livePodKey struct{ namespace, name string }

// maxLiveEntries bounds the nodes, operators and pods a Live keeps (each);
// the ones past it are not counted.
const maxLiveEntries = MaxPods

// LivePod is a pod of an Overview: its namespace, name and the STATUS
// column kubectl prints for it.
type LivePod struct {
	Namespace, Name, Status string
}

// Overview is a copy of what a Live holds at one instant. Names are as the
// gather spells them (hostile: a view cleans them before printing).
type Overview struct {
	// Version is the cluster's version, the newest Completed entry of the
	// ClusterVersion's status.history (else its desired version), and
	// Desired its status.desired.version; both "" until a ClusterVersion
	// is read.
	Version, Desired string
	// Nodes is the number of Node objects read (by name); NotReady how many
	// of them kubectl shows as NotReady (a Ready condition that is not
	// True; a node without one is Unknown), and NotReadyNames the first of
	// those in name order.
	Nodes, NotReady int
	NotReadyNames   []string
	// Operators is the number of ClusterOperators read; Degraded and
	// Unavailable the names, in order, of those whose Degraded condition
	// is True and of those whose Available condition is not True, cut to
	// the first few (DegradedCount and UnavailableCount are the counts).
	Operators                       int
	Degraded, Unavailable           []string
	DegradedCount, UnavailableCount int
	// Pods is the number of pods read (by namespace and name), Unhealthy
	// how many of them are not healthy (podstatus.Columns.Healthy), and
	// UnhealthyPods the first few of those by namespace and name.
	Pods, Unhealthy int
	UnhealthyPods   []LivePod
	// Seq grows with every change to the Live: a view redraws when it
	// differs from the one it last drew.
	Seq uint64
}

// Empty reports whether nothing the overview shows has been read yet.
func (o Overview) Empty() bool {
	return o.Version == "" && o.Desired == "" && o.Nodes == 0 && o.Operators == 0 && o.Pods == 0
}

// Overview returns a copy of what l holds, each list of names cut to its
// first few (at most few) in order. It is safe for a nil l (the zero
// Overview).
func (l *Live) Overview(few int) Overview {
	if l == nil {
		return Overview{}
	}
	l.mu.Lock()
	o := Overview{Version: l.current, Desired: l.desired, Nodes: len(l.nodes), Operators: len(l.operators),
		Pods: len(l.pods), Unhealthy: l.unhealthy, Seq: l.seq}
	var notReady, degraded, unavailable []string
	for name, bad := range l.nodes {
		if bad {
			notReady = append(notReady, name)
		}
	}
	for name, op := range l.operators {
		if op.degraded {
			degraded = append(degraded, name)
		}
		if op.unavailable {
			unavailable = append(unavailable, name)
		}
	}
	pods := make([]LivePod, 0, l.unhealthy)
	for k, status := range l.pods {
		if status != "" {
			pods = append(pods, LivePod{Namespace: k.namespace, Name: k.name, Status: status})
		}
	}
	l.mu.Unlock()
	o.NotReady, o.DegradedCount, o.UnavailableCount = len(notReady), len(degraded), len(unavailable)
	o.NotReadyNames, o.Degraded, o.Unavailable = firstNames(notReady, few), firstNames(degraded, few), firstNames(unavailable, few)
	sort.Slice(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	o.UnhealthyPods = pods[:min(len(pods), max(few, 0))]
	return o
}

func firstNames(names []string, few int) []string {
	sort.Strings(names)
	return names[:min(len(names), max(few, 0))]
}

// addClusterVersion records the first ClusterVersion that names a version.
func (l *Live) addClusterVersion(cv *openshift.ClusterVersion) {
	if l == nil {
		return
	}
	current := cv.CurrentVersion()
	if current == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.current != "" {
		return
	}
	l.current, l.desired = current, cv.Status.Desired.Version
	if !cv.Upgrading() {
		l.printer = kubeVersionOfOpenShift(current)
	}
	l.seq++
}

// addNode records whether a Node is NotReady.
func (l *Live) addNode(n *corev1.Node) {
	if l == nil || n.Name == "" {
		return
	}
	notReady := false // kubectl's STATUS: Unknown without a Ready condition
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			notReady = c.Status != corev1.ConditionTrue
			break
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, known := l.nodes[n.Name]; !known && len(l.nodes) >= maxLiveEntries {
		return
	}
	if l.nodes == nil {
		l.nodes = map[string]bool{}
	}
	l.nodes[n.Name] = notReady
	l.seq++
}

// addOperators records ClusterOperators, by the conditions operatorSummary
// read: Degraded True, Available not True.
func (l *Live) addOperators(ops []model.Operator) {
	if l == nil || len(ops) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.operators == nil {
		l.operators = map[string]liveOperator{}
	}
	for _, op := range ops {
		if _, known := l.operators[op.Name]; !known && len(l.operators) >= maxLiveEntries {
			continue
		}
		l.operators[op.Name] = liveOperator{degraded: op.Degraded == "True", unavailable: op.Available != "True"}
	}
	l.seq++
}

// addPods records pods: healthy or not, and the STATUS of those that are not.
// Its cost on the decode workers is a look at each pod's container
// statuses (plainlyRunning); only the pods that fail that look have their
// columns computed, outside l's lock.
func (l *Live) addPods(pods []*model.Pod) {
	if l == nil || len(pods) == 0 {
		return
	}
	l.mu.Lock()
	printer := l.printer
	l.mu.Unlock()
	statuses := make([]string, len(pods))
	for i, p := range pods {
		if !plainlyRunning(&p.Object) {
			if c := podstatus.Compute(&p.Object, time.Time{}, printer); !c.Healthy() {
				statuses[i] = c.Status
				if statuses[i] == "" { // no phase, no reason: kubectl prints nothing
					statuses[i] = "(no status)"
				}
			}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pods == nil {
		l.pods = map[livePodKey]string{}
	}
	for i, p := range pods {
		k := livePodKey{p.Object.Namespace, p.Object.Name}
		old, known := l.pods[k]
		if !known && len(l.pods) >= maxLiveEntries {
			continue
		}
		if old != "" {
			l.unhealthy--
		}
		if statuses[i] != "" {
			l.unhealthy++
		}
		l.pods[k] = statuses[i]
	}
	l.seq++
}

// plainlyRunning reports whether a pod is one that every printer release
// shows as Running with every container ready, which podstatus's Healthy
// calls healthy: phase Running, no status reason, not being deleted, not
// scheduling-gated, no restartable (sidecar) init container, each init
// container terminated with exit code 0, each container running, ready and
// neither waiting nor terminated. A pod it says no to may still be healthy
// (podstatus.Compute decides); it never says yes to one that is not
// (TestPlainlyRunningIsHealthy).
func plainlyRunning(p *corev1.Pod) bool {
	if p.Status.Phase != corev1.PodRunning || p.Status.Reason != "" || p.DeletionTimestamp != nil ||
		len(p.Spec.Containers) == 0 || len(p.Status.ContainerStatuses) != len(p.Spec.Containers) ||
		len(p.Status.InitContainerStatuses) != len(p.Spec.InitContainers) {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Reason == corev1.PodReasonSchedulingGated {
			return false
		}
	}
	for i := range p.Spec.InitContainers {
		if podstatus.IsSidecar(&p.Spec.InitContainers[i]) {
			return false
		}
	}
	for _, st := range p.Status.InitContainerStatuses {
		if t := st.State.Terminated; t == nil || t.ExitCode != 0 {
			return false
		}
	}
	for _, st := range p.Status.ContainerStatuses {
		if !st.Ready || st.State.Running == nil || st.State.Waiting != nil || st.State.Terminated != nil {
			return false
		}
	}
	return true
}

// String is the pod's "namespace/name" ("name" without a namespace).
func (p LivePod) String() string {
	return strings.TrimPrefix(p.Namespace+"/"+p.Name, "/")
}
