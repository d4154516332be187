package rules

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
)

var updateCEL = flag.Bool("update-cel", false, "rewrite testdata/cel/functions.golden from the CEL environment")

// celTable returns the built-in table with the rule file text added (as a
// user's --rules file), failing on any load error.
func celTable(t *testing.T, text string) *Table {
	t.Helper()
	tbl := Builtin()
	p := filepath.Join(t.TempDir(), "pack.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if errs := tbl.Override(p); len(errs) > 0 {
		t.Fatal(errs)
	}
	return tbl
}

// celCase reads one gather case written as YAML (the form of
// testdata/cases), objects of custom kinds decoded as a run asking for them.
func celCase(t *testing.T, text string) *model.Gather {
	t.Helper()
	var gc gatherCase
	if err := yaml.UnmarshalStrict([]byte(text), &gc); err != nil {
		t.Fatal(err)
	}
	gc.Asked = true
	return gc.build(t)
}

// handlerRuleFile holds a rule written only in YAML and CEL: it fires on a
// crash-looping virt-handler pod when a running virtual machine instance (a
// kind the built-in table never decodes) is placed on the pod's node; its
// let: names them in the hint.
const handlerRuleFile = "../fixtures/celrule/rules/cnv.yaml"

func handlerRule(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(handlerRuleFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const handlerPod = `
      - |
        metadata: {name: virt-handler-x7k2p, namespace: openshift-cnv, labels: {kubevirt.io: virt-handler}}
        spec: {nodeName: worker-1, containers: [{name: virt-handler, image: "registry.example.com/cnv/virt-handler:4.18"}]}
        status:
          phase: Running
          containerStatuses:
          - {name: virt-handler, image: "registry.example.com/cnv/virt-handler:4.18", ready: false, restartCount: 9,
             state: {waiting: {reason: CrashLoopBackOff, message: "back-off 5m0s restarting failed container"}},
             lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2026-11-20T09:01:00Z", finishedAt: "2026-11-20T09:01:09Z"}}}
`

func vmi(name, node, phase string) string {
	return `
      - |
        apiVersion: kubevirt.io/v1
        kind: VirtualMachineInstance
        metadata: {name: ` + name + `, namespace: shop}
        status: {nodeName: ` + node + `, phase: ` + phase + `}
`
}

func TestWhere(t *testing.T) {
	tbl := celTable(t, handlerRule(t))
	cases := []struct {
		name, gather string
		fires        bool
		hintHas      string
	}{
		{"a running VM on the handler's node", "pods:" + handlerPod + "objects:" + vmi("db-vm", "worker-1", "Running") + vmi("web-vm", "worker-2", "Running"), true, "shop/db-vm"},
		{"the running VM is on another node", "pods:" + handlerPod + "objects:" + vmi("web-vm", "worker-2", "Running"), false, ""},
		{"the VM on the node is stopped", "pods:" + handlerPod + "objects:" + vmi("db-vm", "worker-1", "Succeeded"), false, ""},
		{"no VMs gathered at all", "pods:" + handlerPod, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := celCase(t, tc.gather)
			var got *Finding
			for _, f := range Evaluate(tbl, g) {
				if f.Rule.ID == "cnv-handler-down-under-vms" {
					got = &f
				}
			}
			if (got != nil) != tc.fires {
				t.Fatalf("fired = %v, want %v", got != nil, tc.fires)
			}
			if got != nil && (!strings.Contains(got.Hint, tc.hintHas) || strings.Contains(got.Hint, "web-vm")) {
				t.Errorf("hint %q: want %q (the let: value) and not the VM of another node", got.Hint, tc.hintHas)
			}
			if got != nil {
				// The VM the hint names is cited; the one the search
				// listed on another node is not.
				var objs []string
				for _, e := range got.Evidence {
					if e.Kind == EvidenceObject {
						objs = append(objs, e.Text)
					}
				}
				if !slices.ContainsFunc(objs, func(s string) bool { return strings.Contains(s, "/shop/db-vm: named by the rule's let:") }) ||
					slices.ContainsFunc(objs, func(s string) bool { return strings.Contains(s, "web-vm") }) {
					t.Errorf("object evidence %q: want the VM the hint names, db-vm, and not web-vm", objs)
				}
			}
			if len(g.Problems) > 0 {
				t.Errorf("gather problems: %v", g.Problems)
			}
		})
	}
}

// TestWhereLookupCoverage: lookup tells found, absent and not gathered
// apart, and absent() holds only for a gathered list without the object.
func TestWhereLookupCoverage(t *testing.T) {
	const rule = `schemaVersion: 1
rules:
  - id: cel-coverage
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: absent(lookup("configmaps", subject.namespace, "handler-config")) && vars.Reason == "CrashLoopBackOff" && vars.Decided == ""
    let:
      cov: lookup("configmaps", subject.namespace, "handler-config").coverage
    hint: "{{.Pod}}: {{.cov}}"
    remediation: [x]
`
	tbl := celTable(t, rule)
	for _, tc := range []struct {
		name, gather string
		fires        bool
	}{
		{"configmaps gathered, the one named is not there", "gathered: [configmaps/openshift-cnv]\npods:" + handlerPod, true},
		{"configmaps never gathered", "pods:" + handlerPod, false},
		{"the ConfigMap is there", "pods:" + handlerPod + "objects:\n      - |\n        apiVersion: v1\n        kind: ConfigMap\n        metadata: {name: handler-config, namespace: openshift-cnv}\n        data: {k: v}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := celCase(t, tc.gather)
			fired := false
			for _, f := range Evaluate(tbl, g) {
				if f.Rule.ID == "cel-coverage" {
					fired = true
					if !strings.Contains(f.Hint, ": absent") {
						t.Errorf("hint %q lacks the lookup's coverage", f.Hint)
					}
				}
			}
			if fired != tc.fires {
				t.Errorf("fired = %v, want %v", fired, tc.fires)
			}
		})
	}
}

// TestWhereRuntimeErrors: an expression that stops (a missing key, the cost
// limit) does not fire, does not stop the analysis, and becomes one gather
// problem naming the rule; Explain records the where step.
func TestWhereRuntimeErrors(t *testing.T) {
	defer func(v uint64) { celCostLimit = v }(celCostLimit)
	celCostLimit = 200
	const rules = `schemaVersion: 1
rules:
  - id: cel-missing-key
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: subject.labels["no-such-label"] == "x"
    hint: "{{.Pod}}"
    remediation: [x]
  - id: cel-too-costly
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: "[1,2,3,4,5,6,7,8,9,10].all(i, [1,2,3,4,5,6,7,8,9,10].all(j, [1,2,3].all(k, i * j * k > 0)))"
    hint: "{{.Pod}}"
    remediation: [x]
`
	tbl := celTable(t, rules)
	g := celCase(t, "pods:"+handlerPod)
	findings := Evaluate(tbl, g)
	for _, f := range findings {
		if strings.HasPrefix(f.Rule.ID, "cel-") {
			t.Errorf("rule %s fired although its where: stopped", f.Rule.ID)
		}
	}
	if len(findings) == 0 {
		t.Error("the analysis stopped: no built-in finding either")
	}
	var msgs []string
	for _, p := range g.Problems {
		msgs = append(msgs, p.Error)
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"rule cel-missing-key", "no such key", "rule cel-too-costly", "cost limit", "the rule did not fire there"} {
		if !strings.Contains(joined, want) {
			t.Errorf("gather problems lack %q:\n%s", want, joined)
		}
	}
	Evaluate(tbl, g)
	if len(g.Problems) != len(msgs) {
		t.Errorf("a second evaluation added problems: %d, then %d", len(msgs), len(g.Problems))
	}
	ex, err := Explain(tbl, g, "cel-too-costly", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Subjects) == 0 || ex.Subjects[0].Step != StepWhere || !strings.Contains(ex.Subjects[0].Why, "cost limit") {
		t.Errorf("explain: %+v, want step %s naming the cost limit", ex.Subjects, StepWhere)
	}
}

// TestWhereExplainFalse: a where: that gives false is the deciding step.
func TestWhereExplainFalse(t *testing.T) {
	tbl := celTable(t, handlerRule(t))
	g := celCase(t, "pods:"+handlerPod+"objects:"+vmi("web-vm", "worker-2", "Running"))
	ex, err := Explain(tbl, g, "cnv-handler-down-under-vms", "openshift-cnv/virt-handler-x7k2p")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Subjects) != 1 || ex.Subjects[0].Step != StepWhere || ex.Subjects[0].Why != "the where: expression gave false" {
		t.Errorf("explain: %+v", ex.Subjects)
	}
	if diff := cmp.Diff([]StepCount{{Step: StepWhere, Count: 1}}, ex.Steps); diff != "" {
		t.Errorf("step counts (-want +got):\n%s", diff)
	}
}

// TestWhereLoadErrors: CEL problems point at file:line:column (the line of
// the expression's text in the rule file, CEL's column inside it).
func TestWhereLoadErrors(t *testing.T) {
	const text = `schemaVersion: 1
rules:
  - id: cel-syntax
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: subject.name == == "x"
    hint: H
    remediation: [x]
  - id: cel-block
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: |
      subject.name == "x" &&
        nosuchfn(subject.name)
    hint: H
    remediation: [x]
  - id: cel-kind-not-literal
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: "found(lookup(subject.namespace, 'a', 'b'))"
    hint: H
    remediation: [x]
  - id: cel-not-bool
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: subject.name + "x"
    let:
      Bad: "1"
      ok: subject.name +
    hint: "{{.ok}}"
    remediation: [x]
`
	p := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range Validate(p) {
		msg := strings.TrimPrefix(e.Error(), p)
		msg, _, _ = strings.Cut(msg, "\n") // CEL adds the line and a caret
		if len(msg) > 110 {
			msg = msg[:110]
		}
		got = append(got, msg)
	}
	want := []string{
		// CEL places a call at its parenthesis and a field at its dot.
		`:9:28: rule cel-syntax: where: Syntax error: extraneous input '==' expecting {'[', '{', '(', '.', '-', '!', 't`,
		`:20:17: rule cel-block: where: undeclared reference to 'nosuchfn'`,
		`:29:33: rule cel-kind-not-literal: where: the kind lookup reads must be a string literal ("cephclusters.ceph.r`,
		`:38:12: rule cel-not-bool: where must be true or false; this expression gives string`,
		`:40: rule cel-not-bool: let name "Bad" must start with a lower-case letter and hold letters and digits only (t`,
		`:41:25: rule cel-not-bool: let.ok: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', `,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestWhereNeeds: the kinds a where: or let: looks up by name are in the
// table's declaration of needs; Secrets and ConfigMaps never are.
func TestWhereNeeds(t *testing.T) {
	tbl := celTable(t, handlerRule(t)+`  - id: cel-needs
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: found(lookup("cephclusters.ceph.rook.io", "openshift-storage", "ocs-storagecluster-cephcluster")) && absent(lookup("secrets", "", "x"))
    hint: H
    remediation: [x]
`)
	decode := tbl.Needs().Decode
	for _, k := range []model.Kind{{Group: "kubevirt.io", Resource: "virtualmachineinstances"}, {Group: "ceph.rook.io", Resource: "cephclusters"}} {
		if !slices.Contains(decode, k) {
			t.Errorf("Needs().Decode lacks %s: %v", k, decode)
		}
	}
	if slices.Contains(decode, model.Secrets) {
		t.Errorf("Needs().Decode asks for Secrets")
	}
	if slices.Contains(Builtin().Needs().Decode, model.Kind{Group: "kubevirt.io", Resource: "virtualmachineinstances"}) {
		t.Errorf("the built-in table declares a kind only the user rule reads")
	}
}

// TestCELFunctions pins the environment's function list (names and
// overloads, sorted): a change of cel-go or of the environment shows here.
// -update-cel rewrites the golden file.
func TestCELFunctions(t *testing.T) {
	got := strings.Join(celFunctions(), "\n") + "\n"
	p := filepath.Join("testdata", "cel", "functions.golden")
	if *updateCEL {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update-cel to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("CEL functions (-golden +now):\n%s", diff)
	}
	for _, own := range []string{"lookup: ", "lookupAll: ", "found: ", "absent: "} {
		if !strings.Contains(got, "\n"+own) {
			t.Errorf("the list lacks %s", own)
		}
	}
}

// TestWhereThroughParser: the fixture's rule fires on a gather read from
// disk whose VirtualMachineInstances the parser decodes because the table
// declares their kind, and stays quiet when the VM runs on another node.
func TestWhereThroughParser(t *testing.T) {
	tbl := celTable(t, handlerRule(t))
	needs := tbl.Needs()
	for _, tc := range []struct {
		dir   string
		fires bool
	}{{"fires", true}, {"quiet", false}} {
		t.Run(tc.dir, func(t *testing.T) {
			g, err := parser.LoadWith(context.Background(), filepath.Join("..", "fixtures", "celrule", tc.dir), parser.Options{Needs: &needs})
			if err != nil {
				t.Fatal(err)
			}
			o, cov := g.Objects.Get(model.Kind{Group: "kubevirt.io", Resource: "virtualmachineinstances"}, "shop", "db-vm")
			if u, ok := o.Typed.(*model.Unstructured); cov != model.Found || !ok {
				t.Fatalf("db-vm: coverage %s, typed %T: want found and decoded", cov, o.Typed)
			} else if meta := u.Content["metadata"].(map[string]any); meta["annotations"] != nil {
				t.Errorf("annotations kept: %v", meta)
			}
			var got *Finding
			for _, f := range Evaluate(tbl, g) {
				if f.Rule.ID == "cnv-handler-down-under-vms" {
					got = &f
				}
			}
			if (got != nil) != tc.fires {
				t.Fatalf("fired = %v, want %v (problems: %v)", got != nil, tc.fires, g.Problems)
			}
			if got != nil {
				want := "virt-handler virt-handler-x7k2p on worker-1 crash-loops while virtual machines run there: shop/db-vm."
				if got.Hint != want {
					t.Errorf("hint:\n got %q\nwant %q", got.Hint, want)
				}
			}
		})
	}
}

// TestWhereNodeSubjectAndSelector: a node rule reads the node's labels and
// conditions; lookupAll selects pods by label; a let: gives a number.
func TestWhereNodeSubjectAndSelector(t *testing.T) {
	const rule = `schemaVersion: 1
rules:
  - id: cel-node
    version: 1
    severity: low
    category: node
    title: T
    match: {matcher: nodeCondition, params: {type: Ready, statuses: ["False", Unknown]}}
    where: |
      "node-role.kubernetes.io/worker" in subject.labels &&
        subject.conditions.exists(c, c.type == "Ready" && c.reason == "KubeletNotReady") &&
        lookupAll("pods", "openshift-cnv", "kubevirt.io=virt-handler").items.exists(p, p.spec.nodeName == subject.name)
    let:
      handlers: size(lookupAll("pods", "*", "kubevirt.io in (virt-handler)").items)
    hint: "{{.Node}} ({{.handlers}} handlers)"
    remediation: [x]
`
	tbl := celTable(t, rule)
	node := func(name, role string) string {
		return `
      - |
        metadata: {name: ` + name + `, labels: {node-role.kubernetes.io/` + role + `: ""}}
        status: {conditions: [{type: Ready, status: "False", reason: KubeletNotReady, message: "PLEG is not healthy"}]}
`
	}
	for _, tc := range []struct {
		name, gather string
		fires        bool
	}{
		{"a worker with a handler", "pods:" + handlerPod + "nodes:" + node("worker-1", "worker"), true},
		{"a master with a handler", "pods:" + handlerPod + "nodes:" + node("worker-1", "master"), false},
		{"a worker without one", "pods:" + handlerPod + "nodes:" + node("worker-2", "worker"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := celCase(t, tc.gather)
			var hint string
			for _, f := range Evaluate(tbl, g) {
				if f.Rule.ID == "cel-node" {
					hint = f.Hint
				}
			}
			if (hint != "") != tc.fires {
				t.Fatalf("fired = %v, want %v (problems %v)", hint != "", tc.fires, g.Problems)
			}
			if tc.fires && hint != "worker-1 (1 handlers)" {
				t.Errorf("hint %q", hint)
			}
		})
	}
}

// TestWhereProblemWords: the gather problem of an expression that stopped
// names the rule, its file:line, the expression and the subject.
func TestWhereProblemWords(t *testing.T) {
	tbl := celTable(t, `schemaVersion: 1
rules:
  - id: cel-let-fails
    version: 1
    severity: low
    category: workload
    title: T
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    where: "true"
    let:
      owner: subject.labels.app
    hint: "{{.owner}}"
    remediation: [x]
`)
	g := celCase(t, "pods:"+handlerPod)
	Evaluate(tbl, g)
	if len(g.Problems) != 1 {
		t.Fatalf("problems: %v", g.Problems)
	}
	got := strings.TrimPrefix(g.Problems[0].Error, "rule cel-let-fails (")
	got = got[strings.Index(got, ".yaml"):]
	want := ".yaml:11): let.owner stopped on openshift-cnv/virt-handler-x7k2p: no such key: app; the finding has the value empty"
	if got != want {
		t.Errorf("problem:\n got %q\nwant %q", got, want)
	}
}

// TestWhereRuleTakesNotEveryObject: a user rule with a where: placed in a
// built-in group is a condition like a cause: no warning that it takes the
// group's objects, and it shadows no later rule.
func TestWhereRuleTakesNotEveryObject(t *testing.T) {
	p := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(p, []byte(`schemaVersion: 1
rules:
  - id: site-pending-where
    version: 1
    severity: high
    title: Pending
    category: scheduling
    group: scheduling
    match: {matcher: podUnschedulable}
    where: subject.namespace == "shop"
    hint: "x"
    remediation: ["y"]
  - id: site-pending-later
    version: 1
    severity: high
    title: Pending too
    category: scheduling
    group: scheduling
    match: {matcher: podUnschedulable}
    where: subject.namespace == "web"
    hint: "x"
    remediation: ["y"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if ws := Warnings(p); len(ws) > 0 {
		t.Errorf("warnings: %v", ws)
	}
}
