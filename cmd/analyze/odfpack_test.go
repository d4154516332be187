package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/rules"
	"sigs.k8s.io/yaml"
)

// odfPack is the example pack of the repository: OpenShift Data Foundation,
// written in YAML and CEL only, not embedded in the binary.
const odfPack = "../../rules/packs/odf"

// packRuleIDs reads the rule ids of every rules/*.yaml of the pack at dir.
func packRuleIDs(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "rules", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule files in %s: %v", dir, err)
	}
	var ids []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Rules []struct {
				ID string `json:"id"`
			} `json:"rules"`
		}
		if err := yaml.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, r := range doc.Rules {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// TestODFPackTests: the ODF pack's own tests (each rule fires with its words
// on its failing gather, and stays quiet on the healthy gather and its near
// misses) pass under `rules test`.
func TestODFPackTests(t *testing.T) {
	code, out, stderr := run(t, "rules", "test", odfPack)
	if code != 0 || !strings.Contains(out, " passed, 0 failed") || strings.Contains(out, "FAIL") {
		t.Fatalf("rules test %s: exit %d\n%s%s", odfPack, code, out, stderr)
	}
	for _, id := range packRuleIDs(t, odfPack) {
		if !strings.Contains(out, "ok   "+id+" fires on ") || !strings.Contains(out, "ok   "+id+" quiet on ") {
			t.Errorf("rule %s lacks a fire or a quiet test:\n%s", id, out)
		}
	}
}

// TestODFPackBrokenRuleFails: a copy of the ODF pack whose OSD rule reads a
// health check Ceph never reports fails `rules test` (exit 1) on its fire
// test, and only there.
func TestODFPackBrokenRuleFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "odf")
	copyTree(t, odfPack, dir)
	p := filepath.Join(dir, "rules", "odf.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(b), `"OSD_DOWN" in c.status.ceph.details)`, `"OSD_GONE" in c.status.ceph.details)`, 1)
	if broken == string(b) {
		t.Fatal("the OSD rule's where: no longer reads OSD_DOWN; update this test")
	}
	if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, "rules", "test", dir)
	if code != exitFindings || !strings.Contains(out, "FAIL odf-osd-down-crashloop fires on tests/osd-down\n     did not fire") ||
		strings.Count(out, "FAIL ") != 1 {
		t.Errorf("a broken rule: exit %d\n%s", code, out)
	}
}

// TestODFPackSigned: the ODF pack packed with `rules pack` and signed with
// minisign loads under --trust and its rule fires on its failing gather.
func TestODFPackSigned(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "odf-0.1.0.tar.gz")
	if code, out, stderr := run(t, "rules", "pack", odfPack, "-o", archive); code != 0 {
		t.Fatalf("rules pack: exit %d\n%s%s", code, out, stderr)
	}
	priv, pub := testKey(t, filepath.Join(dir, "keys"), "odf-team")
	signFile(t, priv, archive, archive+".minisig")
	out := filepath.Join(dir, "out")
	code, _, stderr := run(t, filepath.Join(odfPack, "tests", "osd-down"), "--rules", archive, "--trust", pub, "-o", out, "--format", "json")
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatalf("exit %d, no report.json: %s", code, stderr)
	}
	if strings.Contains(stderr, "not signed") || !strings.Contains(string(data), `"ruleId": "odf-osd-down-crashloop"`) {
		t.Errorf("signed pack under --trust: exit %d\n%s", code, stderr)
	}
}

// TestODFPackNotBuiltIn: the example pack lives beside the table and is not
// embedded: the built-in table holds none of its rules.
func TestODFPackNotBuiltIn(t *testing.T) {
	ids := packRuleIDs(t, odfPack)
	for _, r := range rules.Builtin().Rules {
		if slices.Contains(ids, r.ID) {
			t.Errorf("the built-in table holds the pack's rule %s", r.ID)
		}
	}
}

// TestODFPackQuietOnCorpus: with the ODF pack, no gather of the shared corpus
// gets a finding of the pack, and no gather problem names one of its rules (a
// where: that stopped with an error). Skipped under -short and when the
// corpus is absent.
func TestODFPackQuietOnCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus gathers: not in -short")
	}
	entries, err := os.ReadDir(corpusRoot)
	if err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	ids := packRuleIDs(t, odfPack)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			in := filepath.Join(corpusRoot, e.Name())
			code, _, stderr := run(t, in, "--rules", odfPack, "-o", out, "--format", "json")
			if code == exitInput && strings.Contains(stderr, "--split") {
				// Parts that are not one cluster: one report per part.
				code, _, stderr = run(t, in, "--split", "--rules", odfPack, "-o", out, "--format", "json")
			}
			reports, _ := filepath.Glob(filepath.Join(out, "report.json"))
			parts, _ := filepath.Glob(filepath.Join(out, "*", "report.json"))
			reports = append(reports, parts...)
			if len(reports) == 0 {
				t.Fatalf("exit %d, no report.json: %s", code, stderr)
			}
			for _, r := range reports {
				checkQuiet(t, r, ids)
			}
		})
	}
}

// checkQuiet fails t when report.json at p holds a finding of one of ids, or
// a gather problem that names one.
func checkQuiet(t *testing.T, p string, ids []string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []struct {
			RuleID string `json:"ruleId"`
		} `json:"findings"`
		Problems json.RawMessage `json:"problems"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, f := range doc.Findings {
		if slices.Contains(ids, f.RuleID) {
			t.Errorf("the ODF pack fires on a corpus gather: %s", f.RuleID)
		}
	}
	for _, id := range ids {
		if strings.Contains(string(doc.Problems), id) {
			t.Errorf("a gather problem names %s: %s", id, doc.Problems)
		}
	}
}

// cnvPackRule is a second product's rule, in the same CEL environment: a
// VirtualMachineInstance of OpenShift Virtualization that is not Running
// while its virt-launcher pod cannot be scheduled.
const cnvPackRule = `schemaVersion: 1
rules:
  - id: cnv-vmi-launcher-unschedulable
    version: 1
    severity: high
    category: scheduling
    title: A virtual machine does not start, its virt-launcher pod cannot be scheduled
    match:
      matcher: podUnschedulable
    where: |
      "kubevirt.io" in subject.labels && subject.labels["kubevirt.io"] == "virt-launcher" &&
        "vm.kubevirt.io/name" in subject.labels &&
        [lookup("virtualmachineinstances.kubevirt.io", subject.namespace, subject.labels["vm.kubevirt.io/name"])].exists(r,
          found(r) && has(r.object.status) && has(r.object.status.phase) && r.object.status.phase != "Running")
    let:
      vmi: >-
        subject.namespace + "/" + subject.labels["vm.kubevirt.io/name"]
      phase: >-
        string(lookup("virtualmachineinstances.kubevirt.io", subject.namespace, subject.labels["vm.kubevirt.io/name"]).object.status.phase)
    hint: "VirtualMachineInstance {{.vmi}} stays {{.phase}}: its virt-launcher pod {{.Pod}} cannot be scheduled ({{.Message}})."
    remediation: ["Give the VM a node it fits: check the nodes' devices.kubevirt.io/kvm capacity and the VM's requests"]
`

// cnvPackSpec is the second pack's pack.yaml.
const cnvPackSpec = `name: cnv-example
version: 0.1.0
mgtriage: ">=0.1.0"
schemaVersion: 1
description: A VirtualMachineInstance not Running while its virt-launcher pod is Pending.
sources:
  - https://kubevirt.io/user-guide/
tests:
  - rule: cnv-vmi-launcher-unschedulable
    fires:
      - gather: tests/scheduling
        contains: ["VirtualMachineInstance shop/db-vm stays Scheduling: its virt-launcher pod virt-launcher-db-vm-x7k2p cannot be scheduled", "Insufficient devices.kubevirt.io/kvm"]
    quiet:
      - tests/running
`

// cnvGather is a small gather with a Pending virt-launcher pod of VMI
// shop/db-vm whose phase is vmiPhase.
func cnvGather(vmiPhase string) map[string]string {
	return map[string]string{
		"timestamp": "2026-11-20 09:30:02.118273645 +0000 UTC m=+0.07\n2026-11-20 09:31:00.000000000 +0000 UTC m=+58.0\n",
		"namespaces/shop/kubevirt.io/virtualmachineinstances.yaml": `---
apiVersion: v1
items:
- apiVersion: kubevirt.io/v1
  kind: VirtualMachineInstance
  metadata:
    name: db-vm
    namespace: shop
    uid: 1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f
  spec:
    domain:
      devices: {}
  status:
    phase: ` + vmiPhase + `
kind: List
metadata:
  resourceVersion: ""
`,
		"namespaces/shop/core/pods.yaml": `---
apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-20T09:20:00Z"
    labels:
      kubevirt.io: virt-launcher
      vm.kubevirt.io/name: db-vm
    name: virt-launcher-db-vm-x7k2p
    namespace: shop
    uid: 6f0c3a2e-1b7d-4c8e-9a5f-2d4e6b8c0a11
  spec:
    containers:
    - image: registry.example.com/cnv/virt-launcher:4.18
      name: compute
  status:
    conditions:
    - lastTransitionTime: "2026-11-20T09:20:00Z"
      message: '0/3 nodes are available: 3 Insufficient devices.kubevirt.io/kvm. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.'
      reason: Unschedulable
      status: "False"
      type: PodScheduled
    phase: Pending
kind: PodList
metadata:
  resourceVersion: ""
`,
	}
}

// TestSecondProductPack: a pack for another product (OpenShift
// Virtualization), written here, works with the same CEL environment: it
// fires where the VMI is not Running and stays quiet where it runs.
func TestSecondProductPack(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cnv-example")
	files := map[string]string{"pack.yaml": cnvPackSpec, "rules/cnv.yaml": cnvPackRule}
	for p, b := range cnvGather("Scheduling") {
		files["tests/scheduling/must-gather.local.1/quay-io-cnv-must-gather/"+p] = b
	}
	for p, b := range cnvGather("Running") {
		files["tests/running/must-gather.local.1/quay-io-cnv-must-gather/"+p] = b
	}
	writeFiles(t, dir, files)
	code, out, stderr := run(t, "rules", "test", dir)
	if code != 0 || !strings.Contains(out, "cnv-example 0.1.0: 2 passed, 0 failed") {
		t.Fatalf("rules test: exit %d\n%s%s", code, out, stderr)
	}
}
