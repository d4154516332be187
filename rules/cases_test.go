package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// A rule case file, testdata/cases/<rule-id>.yaml, holds gathers on which the
// rule must fire ("fires") and gathers on which it must not ("quiet"). Each
// case is a small gather built in memory at the fixed time caseNow
// (2026-11-20T09:12:33Z):
//
//	fires:
//	  - name: what the case shows
//	    pods: ["<Pod YAML>", ...]         # namespace defaults to shop, uid to uid-<name>
//	    runtimePods: ["<Pod YAML>", ...]  # pods known only from a node's container runtime (crictl in a sosreport)
//	    nodes: ["<Node YAML>", ...]
//	    events: ["<Event YAML>", ...]     # involvedObject {kind: Pod, name: p} ties an event to pod p
//	    logs:                             # previous.log lines of a container: "<pod>/<container>"
//	      web-1/app: ["line", ...]
//	    currentLogs: {web-1/app: [...]}   # current.log lines
//	    podLog:                           # kubelet lines tied to a pod (collapsed groups)
//	      web-1: [{class: probe, container: app, text: "...", count: 3}]
//	    hostLog:                          # node-level kubelet lines by node name; a host with no node
//	      worker-0: [{class: pleg, text: "...", count: 5, ago: 2m}]   # of the case is a journal-only node
//	    kubeletLogNodes: [worker-0]       # nodes whose kubelet journal the gather holds (default: every node named)
//	    objects: ["<any object YAML>"]     # the object store: ConfigMaps, PVCs, DaemonSets, ...; its kind counts as gathered
//	    gathered: [configmaps/shop]       # kinds gathered with no object ("resource.group[/namespace]")
//	    alerts: [{Name: X, State: firing, Severity: critical, Labels: {...}, Message: ..., ActiveAt: ...}]
//	    etcd: {Endpoints: 3, Unhealthy: [...], Alarms: [...], Sources: [{Path: etcd_info/endpoint_health.json}]}
//	    install: [{root: log-bundle-1/, resources: [pods.json], empty: [pods.json], mastersListed: -1,
//	               steps: [{stage: api-wait, host: bootstrap, unit: bootkube, source: {Path: ..., Line: 3}, count: 4, text: "..."}]}]
//	quiet: [...]                          # same form
type ruleCases struct {
	Fires []gatherCase `json:"fires"`
	Quiet []gatherCase `json:"quiet"`
}

type gatherCase struct {
	Name            string               `json:"name"`
	Pods            []string             `json:"pods"`
	RuntimePods     []string             `json:"runtimePods"`
	Nodes           []string             `json:"nodes"`
	Events          []string             `json:"events"`
	Logs            map[string][]string  `json:"logs"`
	CurrentLogs     map[string][]string  `json:"currentLogs"`
	PodLog          map[string][]logCase `json:"podLog"`
	HostLog         map[string][]logCase `json:"hostLog"`
	KubeletLogNodes []string             `json:"kubeletLogNodes"`
	Operators       []model.Operator     `json:"operators"`
	Version         string               `json:"clusterVersion"`
	// Distribution is model.Gather.Distribution ("Kubernetes" for a plain
	// Kubernetes gather); empty is OpenShift.
	Distribution string        `json:"distribution"`
	Objects      []string      `json:"objects"`
	Gathered     []string      `json:"gathered"`
	Alerts       []model.Alert `json:"alerts"`
	// HintHas are words the fired rule's hint or remediation must hold (the
	// deciding object and value); HintLacks, words its hint must not (a cause
	// the evidence rules out). Fires cases only, case-insensitive.
	HintHas   []string          `json:"hintHas"`
	HintLacks []string          `json:"hintLacks"`
	Etcd      *model.EtcdHealth `json:"etcd"`
	// Install holds install log bundles (steps, resources, containers).
	Install []*model.InstallBundle `json:"install"`
	// Asked decodes objects of kinds with no Go type (custom resources) as
	// a run whose rules look them up by name does (model.Unstructured).
	Asked bool `json:"asked"`
}

type logCase struct {
	Class     string `json:"class"`
	Container string `json:"container"`
	Severity  string `json:"severity"`
	Text      string `json:"text"`
	Count     int    `json:"count"`
	Ago       string `json:"ago"` // how long before caseNow the last line was (default 1m)
}

var caseNow = time.Date(2026, 11, 20, 9, 12, 33, 0, time.UTC)

// build turns a case into a gather the way the parser would have built it.
func (gc gatherCase) build(t *testing.T) *model.Gather {
	t.Helper()
	g := &model.Gather{CollectedAt: caseNow, ClusterVersion: gc.Version, NodeLog: map[string][]*model.LogGroup{}, Operators: gc.Operators,
		Alerts: gc.Alerts, Etcd: gc.Etcd, Installs: gc.Install}
	if g.ClusterVersion == "" {
		g.ClusterVersion = "4.18.12"
	}
	g.Distribution = gc.Distribution
	byName := map[string]*model.Pod{}
	docs := append(append([]string{}, gc.Pods...), gc.RuntimePods...)
	for i, doc := range docs {
		var obj corev1.Pod
		if err := yaml.UnmarshalStrict([]byte(doc), &obj); err != nil {
			t.Fatalf("case %q pod %d: %v", gc.Name, i, err)
		}
		if obj.Namespace == "" {
			obj.Namespace = "shop"
		}
		if obj.UID == "" {
			obj.UID = types.UID("uid-" + obj.Name)
		}
		p := &model.Pod{Object: obj, Source: model.Source{Path: "namespaces/" + obj.Namespace + "/core/pods.yaml", Line: 10 * (i + 1)}}
		p.Columns = podstatus.Compute(&p.Object, caseNow, podstatus.Version{})
		p.Stage = podstatus.StartupStage(&p.Object)
		p.Containers = podstatus.Containers(&p.Object)
		if i >= len(gc.Pods) {
			p.Runtime = &model.RuntimeView{Node: obj.Spec.NodeName}
			p.Source.Path = "sos_commands/crio/crictl_pods"
		}
		g.Pods = append(g.Pods, p)
		byName[obj.Name] = p
	}
	for i, doc := range gc.Nodes {
		var obj corev1.Node
		if err := yaml.UnmarshalStrict([]byte(doc), &obj); err != nil {
			t.Fatalf("case %q node %d: %v", gc.Name, i, err)
		}
		g.Nodes = append(g.Nodes, &model.Node{Object: obj, Source: model.Source{Path: "cluster-scoped-resources/core/nodes/" + obj.Name + ".yaml", Line: 1}})
	}
	for i, doc := range gc.Events {
		var obj corev1.Event
		if err := yaml.UnmarshalStrict([]byte(doc), &obj); err != nil {
			t.Fatalf("case %q event %d: %v", gc.Name, i, err)
		}
		if obj.InvolvedObject.Namespace == "" {
			obj.InvolvedObject.Namespace = "shop"
		}
		e := &model.Event{Object: parser.EventObjectOf(&obj), Source: model.Source{Path: "namespaces/shop/core/events.yaml", Line: 100 + 10*i}, At: model.StampOf(caseNow.Add(-time.Minute))}
		g.Events = append(g.Events, e)
		if p := byName[obj.InvolvedObject.Name]; p != nil && (obj.InvolvedObject.Kind == "Pod" || obj.InvolvedObject.Kind == "") {
			p.Events = append(p.Events, e)
		}
	}
	addLogs := func(m map[string][]string, previous bool) {
		for key, lines := range m {
			podName, container, ok := strings.Cut(key, "/")
			p := byName[podName]
			if !ok || p == nil {
				t.Fatalf("case %q: log key %q names no pod/container of the case", gc.Name, key)
			}
			l := &model.ContainerLog{Container: container, Previous: previous}
			l.SetPath(fmt.Sprintf("namespaces/%s/pods/%s/%s/%s/logs/%s.log", p.Object.Namespace, podName, container, container, map[bool]string{true: "previous", false: "current"}[previous]), nil)
			var tail []model.LogLine
			for i, s := range lines {
				ll := model.LogLine{Line: i + 1, Text: s}
				// A line may start with its CRI time, as in a gathered log.
				if stamp, rest, ok := strings.Cut(s, " "); ok {
					if at, err := time.Parse(time.RFC3339Nano, stamp); err == nil {
						ll.Time, ll.Text = at, rest
					}
				}
				tail = append(tail, ll)
			}
			l.SetKept(tail, nil)
			l.Lines = len(lines)
			p.Logs = append(p.Logs, l)
		}
	}
	addLogs(gc.Logs, true)
	addLogs(gc.CurrentLogs, false)
	hosts := map[string]bool{}
	for podName, groups := range gc.PodLog {
		p := byName[podName]
		if p == nil {
			t.Fatalf("case %q: podLog names no pod %q", gc.Name, podName)
		}
		for i, lc := range groups {
			p.NodeLog = append(p.NodeLog, lc.group(t, gc.Name, p.Object.Spec.NodeName, i))
		}
		hosts[p.Object.Spec.NodeName] = true
	}
	for node, groups := range gc.HostLog {
		for i, lc := range groups {
			g.NodeLog[node] = append(g.NodeLog[node], lc.group(t, gc.Name, node, i))
		}
		hosts[node] = true
	}
	// Hosts with journal lines and no Node object: as model.Gather.JournalNodes.
	named := map[string]bool{}
	for _, n := range g.Nodes {
		named[model.HostKey(n.Object.Name)] = true
	}
	for _, node := range sortedHosts(gc.HostLog) {
		if !named[model.HostKey(node)] {
			n := &model.Node{JournalOnly: true, Source: g.NodeLog[node][0].Source}
			n.Object.Name = node
			g.JournalNodes = append(g.JournalNodes, n)
		}
	}
	g.Objects = gc.buildStore(t, g)
	if gc.KubeletLogNodes != nil {
		g.KubeletLogNodes = gc.KubeletLogNodes
	} else {
		for _, p := range g.Pods {
			hosts[p.Object.Spec.NodeName] = true
		}
		for _, n := range g.Nodes {
			hosts[n.Object.Name] = true
		}
		for h := range hosts {
			if h != "" {
				g.KubeletLogNodes = append(g.KubeletLogNodes, h)
			}
		}
		sort.Strings(g.KubeletLogNodes)
	}
	g.Freeze() // the edges, as the parser builds them
	return g
}

func sortedHosts(m map[string][]logCase) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// buildStore indexes the case's pods, nodes and objects as the parser would.
func (gc gatherCase) buildStore(t *testing.T, g *model.Gather) *model.Store {
	t.Helper()
	s := model.New()
	namespaces := map[string]bool{}
	for _, p := range g.Pods {
		s.Add(&model.Object{Kind: model.Pods, Namespace: p.Object.Namespace, Name: p.Object.Name, UID: string(p.Object.UID), Labels: p.Object.Labels, Source: p.Source, Typed: &p.Object})
		namespaces[p.Object.Namespace] = true
	}
	for ns := range namespaces {
		s.MarkGathered(model.Pods, ns)
	}
	for _, n := range g.Nodes {
		s.Add(&model.Object{Kind: model.Nodes, Name: n.Object.Name, Labels: n.Object.Labels, Source: n.Source, Typed: &n.Object})
		s.MarkGathered(model.Nodes, "")
	}
	for i, doc := range gc.Objects {
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil || head.Kind == "" {
			t.Fatalf("case %q object %d: no apiVersion/kind (%v)", gc.Name, i, err)
		}
		group, _, _ := strings.Cut(head.APIVersion, "/")
		if !strings.Contains(head.APIVersion, "/") {
			group = ""
		}
		k := model.Kind{Group: group, Resource: resourceOf(head.Kind)}
		decode := parser.DecodeStoreObject
		if gc.Asked {
			decode = parser.DecodeStoreObjectAsked
		}
		o, err := decode(k, []byte(doc))
		if err != nil {
			t.Fatalf("case %q object %d: %v", gc.Name, i, err)
		}
		o.Source = model.Source{Path: "objects/" + k.String() + ".yaml", Line: 1 + 100*i}
		s.Add(o)
		s.MarkGathered(k, o.Namespace)
	}
	for _, gk := range gc.Gathered {
		kind, ns, _ := strings.Cut(gk, "/")
		s.MarkGathered(model.ParseKind(kind), ns)
	}
	s.Freeze()
	return s
}

// resourceOf is the plural resource name of a kind (ConfigMap → configmaps).
func resourceOf(kind string) string {
	r := strings.ToLower(kind)
	switch {
	case kind == "NetworkAttachmentDefinition":
		return model.NetworkAttachmentDefinitions.Resource // as must-gather folders name it
	case strings.HasSuffix(r, "ss"):
		return r + "es" // StorageClass → storageclasses
	case strings.HasSuffix(r, "s"):
		return r
	case strings.HasSuffix(r, "y"):
		return r[:len(r)-1] + "ies"
	}
	return r + "s"
}

func (lc logCase) group(t *testing.T, name, node string, i int) *model.LogGroup {
	if !containsClass(lc.Class) {
		t.Fatalf("case %q: unknown node-log class %q", name, lc.Class)
	}
	ago := time.Minute
	if lc.Ago != "" {
		d, err := time.ParseDuration(lc.Ago)
		if err != nil {
			t.Fatalf("case %q: ago %q: %v", name, lc.Ago, err)
		}
		ago = d
	}
	count := lc.Count
	if count == 0 {
		count = 1
	}
	sev := byte('E')
	if lc.Severity != "" {
		sev = lc.Severity[0]
	}
	return &model.LogGroup{Source: model.Source{Path: "host_service_logs/masters/kubelet_service.log", Line: 1000 + i}, Node: node, Unit: nodelog.UnitKubelet,
		Severity: sev, Class: nodelog.Class(lc.Class), First: caseNow.Add(-ago - time.Hour), Last: caseNow.Add(-ago), Count: count,
		Text: lc.Text, Container: lc.Container, Detail: lc.Text}
}

func containsClass(c string) bool {
	for _, k := range nodelog.Classes {
		if string(k) == c {
			return true
		}
	}
	return false
}

// firedRules lists the ids of every rule that fired in fs, on a subject or as
// a correlated member.
func firedRules(fs []Finding) map[string]bool {
	ids := map[string]bool{}
	for _, f := range fs {
		ids[f.Rule.ID] = true
		for _, id := range f.AlsoMatched {
			ids[id] = true
		}
		for _, m := range f.Also {
			ids[m.RuleID] = true
		}
	}
	return ids
}

// readCases reads a case file (testdata/cases/<rule>.yaml or
// testdata/signatures/<id>.yaml) strictly; a file that is absent or does not
// decode fails the test.
func readCases(t *testing.T, path string) ruleCases {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rc ruleCases
	if err := yaml.UnmarshalStrict(data, &rc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rc
}

// eachCaseFile runs run on every case file of testdata/<dir> (cases or
// signatures) as a subtest named for its id, after checking that the file
// has a fires case and a quiet case; it returns the ids it found.
func eachCaseFile(t *testing.T, dir string, run func(t *testing.T, id string, rc ruleCases)) map[string]bool {
	files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
	have := map[string]bool{}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".yaml")
		have[id] = true
		t.Run(id, func(t *testing.T) {
			rc := readCases(t, f)
			if len(rc.Fires) == 0 || len(rc.Quiet) == 0 {
				t.Fatalf("%s needs at least one fires case and one quiet case", f)
			}
			run(t, id, rc)
		})
	}
	return have
}

// TestRuleCases runs every case file, and fails when a built-in rule ships
// without a case that fires it and a case that must not.
func TestRuleCases(t *testing.T) {
	table := Builtin()
	have := eachCaseFile(t, "cases", func(t *testing.T, id string, rc ruleCases) {
		for _, c := range rc.Fires {
			findings := Evaluate(table, c.build(t))
			if got := firedRules(findings); !got[id] {
				t.Errorf("fires case %q: rule %s did not fire (fired: %v)", c.Name, id, keys(got))
				continue
			}
			for _, f := range findings {
				if f.Rule.ID != id {
					continue
				}
				words := strings.ToLower(f.Hint + "\n" + strings.Join(f.Remediation, "\n"))
				for _, want := range c.HintHas {
					if !strings.Contains(words, strings.ToLower(want)) {
						t.Errorf("fires case %q: the finding's hint and remediation lack %q:\n%s\n%s", c.Name, want, f.Hint, strings.Join(f.Remediation, "\n"))
					}
				}
				for _, bad := range c.HintLacks {
					if strings.Contains(strings.ToLower(f.Hint), strings.ToLower(bad)) {
						t.Errorf("fires case %q: the finding states %q, which the case rules out:\n%s", c.Name, bad, f.Hint)
					}
				}
			}
		}
		for _, c := range rc.Quiet {
			if got := firedRules(Evaluate(table, c.build(t))); got[id] {
				t.Errorf("quiet case %q: rule %s fired", c.Name, id)
			}
		}
	})
	var missing []string
	for _, r := range table.Rules {
		if !have[r.ID] {
			missing = append(missing, r.ID)
		}
	}
	if len(missing) > 0 {
		t.Errorf("rules without testdata/cases/<id>.yaml (a fires and a quiet case each): %s", strings.Join(missing, ", "))
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
