// Package sosreport reads what a node sosreport (`sos report` on RHCOS or
// RHEL) says of its node's container runtime and of itself: the crio
// plugin's crictl tables and inspect files (crictl.go) become pods of the
// sosreport's host, marked as the runtime's view; the Kubernetes version
// comes from kubectl/oc/kubelet version output; the run's start and end
// from sos_reports/manifest.json. Its journals, kubectl JSON lists, host
// name and date files are read by the load as any gather's.
package sosreport

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// sosRuntime collects the crio plugin files of one sosreport until the
// sosreport's date is known.
type sosRuntime struct {
	podsTable, psTable    []byte
	podsPath, psPath      string
	psIsAll               bool
	inspect               map[string]model.RuntimeContainer // by full container ID
	inspectp              map[string]model.RuntimeSandbox   // by full sandbox ID
	manifestStart, manEnd time.Time
	// manifestEpoch is the earliest start of a command the manifest
	// records (epoch seconds: UTC); dates is what the date files say.
	manifestEpoch time.Time
	dates         dateFacts
	// clk is the settled clock (Settle); zero when the sosreport holds no date.
	clk Clock
	// run is what the manifest records of the run; nil without one.
	run         *model.SosRun
	kubeVersion string
	versionRank int
	machine     model.MachineFacts // of its host (machine.go)
	// date is the sosreport's date file, the "now" of crictl's relative
	// CREATED (the crio plugin runs within seconds of it).
	date time.Time
	// nodeTable is the get-nodes table (the -o wide one when both are
	// there), read when the date is known; described are the nodes of
	// describe output, by name.
	nodeTable     []byte
	nodeTablePath string
	nodeTableWide bool
	described     map[string]model.Node
}

// Kind says what a member of a sosreport that this package reads holds,
// judged by its path.
type Kind int

const (
	// Other is a member this package does not read.
	Other Kind = iota
	// CrictlPods is sos_commands/crio/crictl_pods.
	CrictlPods
	// CrictlPs is sos_commands/crio/crictl_ps or crictl_ps_-a.
	CrictlPs
	// CrictlInspect is sos_commands/crio/.../crictl_inspect_<container ID>.
	CrictlInspect
	// CrictlInspectp is sos_commands/crio/.../crictl_inspectp_<sandbox ID>.
	CrictlInspectp
	// Version is kubectl, oc, kubelet or hyperkube version output of the
	// kubernetes, openshift, openshift_ovn or microshift plugin.
	Version
	// Manifest is sos_reports/manifest.json.
	Manifest
	// NodeTable is `kubectl get nodes` or `oc get nodes` output (plain or
	// -o wide) of the kubernetes or openshift plugin.
	NodeTable
	// NodeDescribe is `kubectl describe node NAME` or `oc describe nodes
	// NAME` output of the kubernetes or openshift plugin.
	NodeDescribe
	// Machine is a file that tells the sosreport's host apart from other
	// machines: machine-id, boot ID, system UUID (machine.go).
	Machine
)

// pathRules are tried in order on a member's path; the first submatch is
// the sosreport's folder.
var pathRules = []struct {
	kind Kind
	re   *regexp.Regexp
}{
	{CrictlPods, regexp.MustCompile(`^(.*/)?sos_commands/crio/crictl_pods$`)},
	{CrictlPs, regexp.MustCompile(`^(.*/)?sos_commands/crio/crictl_ps(?:_-a)?$`)},
	{CrictlInspect, regexp.MustCompile(`^(.*/)?sos_commands/crio/(?:[^/]+/)*crictl_inspect_([0-9a-f]{6,64})$`)},
	{CrictlInspectp, regexp.MustCompile(`^(.*/)?sos_commands/crio/(?:[^/]+/)*crictl_inspectp_([0-9a-f]{6,64})$`)},
	{Version, regexp.MustCompile(`^(.*/)?sos_commands/(?:kubernetes|openshift|openshift_ovn|microshift)/(?:[^/]+/)*(?:kubectl|oc|kubelet|hyperkube)_[^/]*version[^/]*$`)},
	{Manifest, regexp.MustCompile(`^(.*/)?sos_reports/manifest\.json$`)},
	{NodeTable, regexp.MustCompile(`^(.*/)?sos_commands/(?:kubernetes|openshift)/(?:[^/]+/)*(?:kubectl|oc)_[^/]*get_+nodes(?:_+-o_+wide)?$`)},
	{NodeDescribe, regexp.MustCompile(`^(.*/)?sos_commands/(?:kubernetes|openshift)/(?:[^/]+/)*(?:kubectl|oc)_[^/]*describe_+nodes?_+[^/]+$`)},
}

// kindLabels name what the members of each Kind hold, in report order
// (model.Coverage.Used).
var kindLabels = []load.Label[Kind]{
	{Kind: CrictlPods, Text: "runtime pod tables (crictl pods)"},
	{Kind: CrictlPs, Text: "runtime container tables (crictl ps)"},
	{Kind: CrictlInspect, Text: "runtime container inspect JSON"},
	{Kind: CrictlInspectp, Text: "runtime sandbox inspect JSON"},
	{Kind: Version, Text: "Kubernetes version output"},
	{Kind: Manifest, Text: "sosreport manifests"},
	{Kind: NodeTable, Text: "node tables (kubectl/oc get nodes)"},
	{Kind: NodeDescribe, Text: "node descriptions (kubectl/oc describe node)"},
	{Kind: Machine, Text: "host machine facts (machine-id, boot ID, system UUID)"},
}

// Member is what a member of a sosreport holds, and the sosreport's folder
// ("" or ending in "/").
type Member struct {
	Kind Kind
	Root string
	// Rule is the index of the machine-fact rule of a Machine member (machine.go).
	Rule int
}

// Classify returns what the member at p holds; Kind is Other for the
// members this package does not read.
func Classify(p string) Member {
	if root, rule, ok := classifyMachine(p); ok {
		return Member{Kind: Machine, Root: root, Rule: rule}
	}
	if !strings.Contains(p, "sos_commands/") && !strings.Contains(p, "sos_reports/") {
		return Member{}
	}
	for _, r := range pathRules {
		if m := r.re.FindStringSubmatch(p); m != nil {
			return Member{Kind: r.kind, Root: m[1]}
		}
	}
	return Member{}
}

// Reader reads the sosreports of one load. It is not safe for concurrent
// use: the load's sequential pass calls Read and Count, and finish the rest.
type Reader struct {
	load             load.Load
	sos              map[string]*sosRuntime // sosreport folder → its crio plugin files, versions, manifest
	load.Tally[Kind]                        // the members read, by kind (Count, Used)
}

// NewReader returns the reader of the sosreports of l.
func NewReader(l load.Load) *Reader {
	return &Reader{load: l, sos: map[string]*sosRuntime{}, Tally: load.NewTally(kindLabels)}
}

func (r *Reader) sosFor(dir string) *sosRuntime {
	s := r.sos[dir]
	if s == nil {
		s = &sosRuntime{inspect: map[string]model.RuntimeContainer{}, inspectp: map[string]model.RuntimeSandbox{}}
		r.sos[dir] = s
	}
	return s
}

// maxInspectFiles bounds the crictl inspect files kept per sosreport.
const maxInspectFiles = 20_000

// Read keeps data, the member p of the sosreport in folder dir (the
// member's folder as the load keys folders: "." for the input itself, else
// without the trailing "/"), until Settle and Pods join them.
func (r *Reader) Read(p, dir string, m Member, data []byte) error {
	s := r.sosFor(dir)
	switch m.Kind {
	case CrictlPods:
		s.podsTable, s.podsPath = data, p
	case CrictlPs:
		// crictl ps -a lists exited containers too; plain crictl ps only
		// stands in when -a is missing.
		all := strings.HasSuffix(p, "_-a")
		if !s.psIsAll {
			s.psTable, s.psPath, s.psIsAll = data, p, all
		}
	case CrictlInspect:
		rc, err := ParseCrictlInspect(data, p)
		if err != nil {
			return err
		}
		if len(s.inspect) < maxInspectFiles {
			s.inspect[rc.ID] = rc
		}
	case CrictlInspectp:
		sb, err := ParseCrictlInspectp(data, p)
		if err != nil {
			return err
		}
		if len(s.inspectp) < maxInspectFiles {
			s.inspectp[sb.ID] = sb
		}
	case Version:
		if v, rank := parseKubeVersionOutput(data); v != "" && (s.kubeVersion == "" || rank < s.versionRank) {
			s.kubeVersion, s.versionRank = v, rank
		}
	case Manifest:
		m, err := parseSosManifest(data, p)
		if err != nil {
			return err
		}
		s.manifestStart, s.manEnd, s.manifestEpoch, s.run = m.start, m.end, m.epoch, &m.run
	case NodeTable:
		wide := strings.Contains(p, "wide")
		if s.nodeTable == nil || (wide && !s.nodeTableWide) {
			s.nodeTable, s.nodeTablePath, s.nodeTableWide = data, p, wide
		}
	case NodeDescribe:
		n, err := ParseNodeDescribe(data, p)
		if err != nil {
			return err
		}
		if s.described == nil {
			s.described = map[string]model.Node{}
		}
		if _, dup := s.described[n.Object.Name]; !dup && len(s.described) < maxNodeDescribe {
			s.described[n.Object.Name] = n
		}
	case Machine:
		machineRules[m.Rule].read(data, &s.machine)
	}
	return nil
}

// Nodes returns the Node objects the sosreports' kubernetes and openshift
// plugins print as text, sorted by name: per sosreport, a node's describe
// output wins over its get-nodes row; across sosreports, the first by
// folder wins. The load adds those of which it has no node from a JSON or
// YAML list. Settle must have run (a table's AGE is taken back from the
// sosreport's date).
func (r *Reader) Nodes() []*model.Node {
	byName := map[string]*model.Node{}
	for _, dir := range model.SortedKeys(r.sos) {
		s := r.sos[dir]
		var rows []model.Node
		if s.nodeTable != nil {
			var err error
			rows, err = ParseNodeTable(s.nodeTable, s.nodeTablePath, s.date)
			if err != nil {
				r.load.Problem(s.nodeTablePath, err.Error())
			}
		}
		for _, n := range rows {
			if d, ok := s.described[n.Object.Name]; ok {
				n = d
			}
			if byName[n.Object.Name] == nil {
				byName[n.Object.Name] = &n
			}
		}
		for _, name := range model.SortedKeys(s.described) {
			if byName[name] == nil {
				n := s.described[name]
				byName[name] = &n
			}
		}
	}
	out := make([]*model.Node, 0, len(byName))
	for _, name := range model.SortedKeys(byName) {
		out = append(out, byName[name])
	}
	return out
}

var (
	gitVersionRe   = regexp.MustCompile(`GitVersion:"(v\d+\.\d+\.\d+[^"]{0,80})"`)
	plainVersionRe = regexp.MustCompile(`^(?:Server Version|Kubernetes Version|Kubernetes|Client Version):?\s+(v\d+\.\d+\.\d+\S{0,80})`)
)

// parseKubeVersionOutput reads the Kubernetes version from `kubectl version`,
// `oc version` or `kubelet --version` output. The server's version wins over
// the kubelet's, which wins over the client's: rank 0, 1, 2.
func parseKubeVersionOutput(data []byte) (string, int) {
	best, rank := "", 99
	for _, line := range strings.Split(nodelog.Text(data), "\n") {
		line = strings.TrimSpace(line)
		r := 99
		switch {
		case strings.HasPrefix(line, "Server Version"), strings.HasPrefix(line, "Kubernetes Version"):
			r = 0
		case strings.HasPrefix(line, "Kubernetes v"):
			r = 1
		case strings.HasPrefix(line, "Client Version"):
			r = 2
		default:
			continue
		}
		v := ""
		if m := gitVersionRe.FindStringSubmatch(line); m != nil {
			v = m[1]
		} else if m := plainVersionRe.FindStringSubmatch(line); m != nil {
			v = m[1]
		}
		if v != "" && r < rank {
			best, rank = v, r
		}
	}
	return best, rank
}

// ReadDate keeps what the date file p of the sosreport in folder dir says
// (timedatectl, `date`, `date --utc`; parseDateFile), and returns the
// sosreport's date in UTC as far as its date files tell it so far, for the
// load's gather times until Settle; false when its date files tell none
// yet. The error says why p holds no date (empty, not a date): the gather
// problem of p. The load calls it holding its lock.
func (r *Reader) ReadDate(dir, p string, data []byte) (time.Time, bool, error) {
	f, why, ok := parseDateFile(data, p, !strings.Contains(path.Base(p), "utc"))
	if !ok {
		return time.Time{}, false, errors.New(why)
	}
	s := r.sosFor(dir)
	s.dates.merge(f)
	c, _ := s.clock()
	return c.UTC, !c.UTC.IsZero(), nil
}

// Settle applies what each sosreport says of itself: it returns the
// Kubernetes version the first sosreport (by folder) printed, "" when none,
// settles each sosreport's Clock from its own date files and manifest, and
// sets each one's gather times by folder into timestamps: the manifest's
// start and end in UTC, else the date. A sosreport without a date keeps its
// manifest's times as written. The load calls it before the gather time is
// settled.
func (r *Reader) Settle(timestamps map[string][]time.Time) (kubeVersion string) {
	for _, dir := range model.SortedKeys(r.sos) {
		s := r.sos[dir]
		if s.kubeVersion != "" && kubeVersion == "" {
			kubeVersion = s.kubeVersion
		}
		ran := !s.manifestStart.IsZero() && !s.manEnd.Before(s.manifestStart)
		c, ok := s.clock()
		if c.ZoneProblem != "" {
			r.load.Problem(c.ZoneFile, c.ZoneProblem)
		}
		switch {
		case ok && ran:
			s.clk, s.date = c, c.UTC
			off, known, _ := s.manifestOffset()
			if !known {
				off = c.Offset
			}
			timestamps[dir] = []time.Time{s.manifestStart.Add(-off), s.manEnd.Add(-off)}
		case ok:
			s.clk, s.date = c, c.UTC
			timestamps[dir] = []time.Time{c.UTC}
		case ran:
			timestamps[dir] = []time.Time{s.manifestStart, s.manEnd}
		}
	}
	return kubeVersion
}

// Facts returns what the sosreport in folder dir says of its run (its
// manifest) and of its clock, for its Layout; nil for what it does not say.
// Settle must have run.
func (r *Reader) Facts(dir string) (*model.SosRun, *model.SosClock) {
	s := r.sos[dir]
	if s == nil {
		return nil, nil
	}
	var clk *model.SosClock
	if c := s.clk; !c.UTC.IsZero() {
		clk = &model.SosClock{UTC: c.UTC, Offset: c.Offset, OffsetKnown: c.Known, From: c.From}
		if c.Location != nil {
			clk.Zone = c.Location.String()
		}
	}
	return s.run, clk
}

// Clock returns the settled clock of the sosreport in folder dir (the
// load's folder key); false when dir is not a sosreport with a date.
// Settle must have run.
func (r *Reader) Clock(dir string) (Clock, bool) {
	s := r.sos[dir]
	if s == nil || s.clk.UTC.IsZero() {
		return Clock{}, false
	}
	return s.clk, true
}

// Pods turns the runtime view of each sosreport into pods of its host
// (hostnames: folder → host name), skipping pods the gather already holds
// from the API (same UID, or same namespace and name). Settle must have run.
func (r *Reader) Pods(have []*model.Pod, hostnames map[string]string) []*model.Pod {
	known := map[string]bool{}
	for _, p := range have {
		known[p.Key()] = true
		if p.Object.UID != "" {
			known["uid:"+string(p.Object.UID)] = true
		}
	}
	var out []*model.Pod
	for _, dir := range model.SortedKeys(r.sos) {
		s := r.sos[dir]
		for _, p := range s.pods(r.load, hostnames[dir], s.date) {
			if known[p.Key()] || (p.Object.UID != "" && known["uid:"+string(p.Object.UID)]) {
				continue
			}
			known[p.Key()] = true
			out = append(out, p)
		}
	}
	return out
}

// pods joins the tables and inspect files of one sosreport into pods.
func (s *sosRuntime) pods(l load.Load, host string, now time.Time) []*model.Pod {
	var sandboxes []model.RuntimeSandbox
	if s.podsTable != nil {
		rows, err := ParseCrictlPods(s.podsTable, s.podsPath, now)
		if err != nil {
			l.Problem(s.podsPath, err.Error())
		}
		sandboxes = rows
	}
	var conts []model.RuntimeContainer
	if s.psTable != nil {
		rows, err := ParseCrictlPs(s.psTable, s.psPath, now)
		if err != nil {
			l.Problem(s.psPath, err.Error())
		}
		conts = rows
	}
	// Inspect JSON names full IDs; the tables print their first 13 digits.
	byPrefix := func(id string) string {
		if len(id) > 13 {
			return id[:13]
		}
		return id
	}
	inspect := map[string]model.RuntimeContainer{}
	for id, rc := range s.inspect {
		inspect[byPrefix(id)] = rc
	}
	used := map[string]bool{}
	for i := range conts {
		if in, ok := inspect[byPrefix(conts[i].ID)]; ok {
			conts[i] = mergeInspect(conts[i], in)
			used[byPrefix(in.ID)] = true
		}
	}
	for _, id := range model.SortedKeys(inspect) {
		if !used[id] {
			conts = append(conts, inspect[id])
		}
	}
	inspectp := map[string]model.RuntimeSandbox{}
	for id, sb := range s.inspectp {
		inspectp[byPrefix(id)] = sb
	}
	pods := map[string]*model.RuntimeView{}
	var order []string
	add := func(sb model.RuntimeSandbox) *model.RuntimeView {
		id := byPrefix(sb.ID)
		if v := pods[id]; v != nil {
			return v
		}
		v := &model.RuntimeView{Node: host, Sandbox: sb}
		pods[id] = v
		order = append(order, id)
		return v
	}
	for _, sb := range sandboxes {
		if in, ok := inspectp[byPrefix(sb.ID)]; ok {
			sb.UID = in.UID
			if !in.Created.IsZero() {
				sb.Created = in.Created
			}
			if sb.Namespace == "" {
				sb.Namespace = in.Namespace
			}
		}
		add(sb)
	}
	for _, id := range model.SortedKeys(inspectp) {
		if pods[id] == nil {
			add(inspectp[id])
		}
	}
	for _, c := range conts {
		v := pods[byPrefix(c.PodID)]
		if v == nil && c.PodName != "" && c.PodNamespace != "" {
			// A container whose sandbox row is gone: a pod of its labels.
			v = add(model.RuntimeSandbox{ID: c.PodID, Name: c.PodName, Namespace: c.PodNamespace, UID: c.PodUID, State: "Unknown", Source: c.Source})
		}
		if v == nil {
			continue
		}
		if v.Sandbox.UID == "" {
			v.Sandbox.UID = c.PodUID
		}
		if v.Sandbox.Namespace == "" {
			v.Sandbox.Namespace = c.PodNamespace
		}
		v.Containers = append(v.Containers, c)
	}
	// The newest sandbox of a pod wins: the kubelet recreates it under the same name.
	latest := map[string]*model.RuntimeView{}
	for _, id := range order {
		v := pods[id]
		key := v.Sandbox.Namespace + "/" + v.Sandbox.Name
		if old := latest[key]; old == nil || v.Sandbox.Attempt > old.Sandbox.Attempt ||
			(v.Sandbox.Attempt == old.Sandbox.Attempt && v.Sandbox.Created.After(old.Sandbox.Created)) {
			if old != nil {
				v.Containers = append(old.Containers, v.Containers...)
			}
			latest[key] = v
		} else {
			old.Containers = append(old.Containers, v.Containers...)
		}
	}
	var out []*model.Pod
	for _, key := range model.SortedKeys(latest) {
		out = append(out, runtimePod(latest[key]))
	}
	return out
}

// mergeInspect completes a table row with its inspect JSON: exact times,
// exit code, reason, message, the pod's labels.
func mergeInspect(row, in model.RuntimeContainer) model.RuntimeContainer {
	out := in
	out.Source = row.Source
	if out.PodID == "" {
		out.PodID = row.PodID
	}
	if out.PodName == "" {
		out.PodName = row.PodName
	}
	if out.Image == "" {
		out.Image = row.Image
	}
	if out.State == "" {
		out.State = row.State
	}
	if out.Created.IsZero() {
		out.Created = row.Created
	}
	return out
}

// runtimePod builds the pod object a runtime view stands for: metadata,
// spec.nodeName and containerStatuses (state, restart count from the
// attempt, last termination from the previous attempt the runtime still
// holds). Phase and conditions stay empty: the runtime does not know them.
func runtimePod(v *model.RuntimeView) *model.Pod {
	sb := v.Sandbox
	o := corev1.Pod{}
	o.Name, o.Namespace, o.UID = sb.Name, sb.Namespace, types.UID(sb.UID)
	if !sb.Created.IsZero() {
		o.CreationTimestamp = metav1.NewTime(sb.Created)
	}
	o.Spec.NodeName = v.Node
	byName := map[string][]model.RuntimeContainer{}
	for _, c := range v.Containers {
		byName[c.Name] = append(byName[c.Name], c)
	}
	for _, name := range model.SortedKeys(byName) {
		list := byName[name]
		sort.SliceStable(list, func(i, j int) bool {
			if list[i].Attempt != list[j].Attempt {
				return list[i].Attempt < list[j].Attempt
			}
			return list[i].Created.Before(list[j].Created)
		})
		byName[name] = list
		cur := list[len(list)-1]
		o.Spec.Containers = append(o.Spec.Containers, corev1.Container{Name: name, Image: cur.Image})
		st := corev1.ContainerStatus{Name: name, Image: cur.Image, RestartCount: int32(min(cur.Attempt, 1<<30)), ContainerID: "cri-o://" + cur.ID}
		st.State = containerStateOf(cur)
		st.Ready = cur.State == "Running"
		st.Started = &st.Ready
		if len(list) > 1 {
			if prev := list[len(list)-2]; prev.State == "Exited" {
				st.LastTerminationState = containerStateOf(prev)
			}
		}
		o.Status.ContainerStatuses = append(o.Status.ContainerStatuses, st)
	}
	view := *v
	view.Containers = nil
	for _, name := range model.SortedKeys(byName) {
		view.Containers = append(view.Containers, byName[name]...)
	}
	return &model.Pod{Object: o, Source: sb.Source, Runtime: &view}
}

// runtimeState_ is the container state the kubelet would derive from one
// runtime record. An exited container without inspect JSON has an unknown
// exit code: its reason says so rather than inventing one.
func containerStateOf(c model.RuntimeContainer) corev1.ContainerState {
	switch c.State {
	case "Running":
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(nonZero(c.Started, c.Created))}}
	case "Exited":
		t := &corev1.ContainerStateTerminated{Reason: c.Reason, Message: c.Message, StartedAt: metav1.NewTime(c.Started),
			FinishedAt: metav1.NewTime(c.Finished), ContainerID: "cri-o://" + c.ID}
		if c.ExitCode != nil {
			t.ExitCode = *c.ExitCode
			if t.Reason == "" {
				t.Reason = "Error"
				if t.ExitCode == 0 {
					t.Reason = "Completed"
				}
			}
		} else if t.Reason == "" {
			t.Reason = "Exited"
		}
		return corev1.ContainerState{Terminated: t}
	case "Created":
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreated"}}
	}
	return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "Unknown"}}
}

func nonZero(a, b time.Time) time.Time {
	if a.IsZero() {
		return b
	}
	return a
}

// RuntimeColumns states what the runtime view tells in the places of the
// kubectl columns: READY counts running containers, STATUS is the runtime's
// word for the newest attempt of the worst container ("Exited (1)",
// "Running", "NotReady" for a sandbox without running containers), RESTARTS
// the highest attempt, AGE the sandbox's age.
func RuntimeColumns(p *model.Pod, now time.Time) podstatus.Columns {
	var c podstatus.Columns
	status := ""
	worst := -1
	for _, st := range p.Object.Status.ContainerStatuses {
		c.TotalContainers++
		c.RestartCount = max(c.RestartCount, int(st.RestartCount))
		rank, word := 0, "Running"
		switch {
		case st.State.Running != nil:
			c.ReadyContainers++
		case st.State.Terminated != nil:
			t := st.State.Terminated
			rank, word = 1, "Exited"
			if t.Reason != "Exited" && t.Reason != "" {
				word = "Exited (" + t.Reason + ", " + strconv.Itoa(int(t.ExitCode)) + ")"
				if t.ExitCode != 0 || t.Reason == "OOMKilled" {
					rank = 2
				}
			}
		default:
			rank, word = 1, st.State.Waiting.Reason
		}
		if rank > worst {
			worst, status = rank, word
		}
	}
	if status == "" {
		status = "Sandbox " + p.Runtime.Sandbox.State
	}
	c.Status = status
	c.Ready = fmt.Sprintf("%d/%d", c.ReadyContainers, c.TotalContainers)
	c.Restarts = strconv.Itoa(c.RestartCount)
	c.Age = podstatus.Since(p.Object.CreationTimestamp.Time, now)
	return c
}
