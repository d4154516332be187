package main

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

const metalCorpus = "../../../shared/corpus/mg-metal-ocp49"

// nodeIdentities reads the node YAMLs of a gather and returns every node
// name, short name, hostname label and address in them.
func nodeIdentities(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") || filepath.Base(filepath.Dir(p)) != "nodes" ||
			!strings.HasSuffix(filepath.ToSlash(filepath.Dir(p)), "cluster-scoped-resources/core/nodes") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var n corev1.Node
		if err := yaml.Unmarshal(b, &n); err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		ids := []string{n.Name, n.Labels["kubernetes.io/hostname"]}
		for _, a := range n.Status.Addresses {
			ids = append(ids, a.Address)
			if ip, err := netip.ParseAddr(a.Address); err == nil {
				ids = append(ids, ip.String())
			}
		}
		for _, id := range ids {
			if short, _, ok := strings.Cut(id, "."); ok && len(short) >= 3 {
				if _, err := netip.ParseAddr(id); err != nil {
					ids = append(ids, short)
				}
			}
		}
		for _, id := range ids {
			if id != "" {
				seen[strings.ToLower(id)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for id := range seen {
		out = append(out, id)
	}
	return out
}

// TestRedactCorpus runs --redact on the bare-metal corpus gather: no node
// host name or address from its node YAMLs is left in any report.
func TestRedactCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus gather: not in -short")
	}
	if _, err := os.Stat(metalCorpus); err != nil {
		t.Skipf("corpus gather %s absent", metalCorpus)
	}
	ids := nodeIdentities(t, metalCorpus)
	if len(ids) < 12 {
		t.Fatalf("found only %v in the node YAMLs", ids)
	}
	out := filepath.Join(t.TempDir(), "out")
	mapFile := filepath.Join(t.TempDir(), "map.json")
	if code, _, stderr := run(t, metalCorpus, "-o", out, "--redact", "--redact-map", mapFile); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"report.md", "report.html", "report.json"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ToLower(string(b))
		for _, id := range ids {
			if i := strings.Index(text, id); i >= 0 {
				t.Errorf("%s still holds %q: …%s…", f, id, text[max(0, i-60):min(len(text), i+len(id)+60)])
			}
		}
		if !strings.Contains(text, "host-1") {
			t.Errorf("%s has no host placeholder", f)
		}
	}
	fi, err := os.Stat(mapFile)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("redact map has mode %v, want 0600", fi.Mode().Perm())
	}
	var mapping map[string]string
	b, _ := os.ReadFile(mapFile)
	if err := json.Unmarshal(b, &mapping); err != nil {
		t.Fatal(err)
	}
	// Every node name is in the reports, so in the map; addresses only
	// where a report held them.
	for _, id := range ids {
		if _, err := netip.ParseAddr(id); err == nil || !strings.Contains(id, ".") {
			continue
		}
		if _, ok := mapping[id]; !ok {
			t.Errorf("redact map lacks %q", id)
		}
	}
}

func TestRedactFlags(t *testing.T) {
	code, _, stderr := run(t, tinyGather(t), "-o", t.TempDir(), "--redact-map", filepath.Join(t.TempDir(), "m.json"))
	if code != exitUsage || !strings.Contains(stderr, "--redact-map needs --redact") {
		t.Errorf("--redact-map alone: exit %d, %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := run(t, tinyGather(t), "-o", out, "--redact")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readReport(t, out)
	if r.Pods[0].Node != "host-1" || strings.Contains(stdout, "worker-0") {
		t.Errorf("node not redacted: %q, stdout:\n%s", r.Pods[0].Node, stdout)
	}
}

// clusterValues reads, independently of the redactor, what names the cluster
// in a gather's own objects: the Infrastructure's infrastructureName (and the
// cluster name before its 5-character suffix), its API server URLs' hosts,
// the DNS config's baseDomain, the ClusterVersion's clusterID, and every
// node's name and address. Values are lower-case.
func clusterValues(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	addValue := func(v string) {
		// Insights anonymises some values to runs of "x": nothing to find.
		if v = strings.ToLower(strings.TrimSpace(v)); v != "" && strings.Trim(v, "x-") != "" {
			seen[v] = true
		}
	}
	host := func(u string) string {
		_, rest, _ := strings.Cut(u, "://")
		h, _, _ := strings.Cut(rest, "/")
		if i := strings.LastIndexByte(h, ':'); i > 0 {
			h = h[:i]
		}
		return h
	}
	field := func(m map[string]any, path ...string) string {
		var cur any = m
		for _, p := range path {
			mm, ok := cur.(map[string]any)
			if !ok {
				return ""
			}
			cur = mm[p]
		}
		s, _ := cur.(string)
		return s
	}
	config := regexp.MustCompile(`cluster-scoped-resources/(config\.openshift\.io/(infrastructures|dnses|clusterversions)|core/nodes)(\.yaml|/[^/]+\.yaml)$`)
	// An Insights Operator archive keeps the same objects as JSON, without
	// their kind: config/infrastructure.json, config/version.json,
	// config/node/<name>.json.
	insights := map[*regexp.Regexp]string{
		regexp.MustCompile(`(^|/)config/infrastructure\.json$`): "Infrastructure",
		regexp.MustCompile(`(^|/)config/version\.json$`):        "ClusterVersion",
		regexp.MustCompile(`(^|/)config/node/[^/]+\.json$`):     "Node",
	}
	insightsKind := func(p string) string {
		for re, kind := range insights {
			if re.MatchString(p) {
				return kind
			}
		}
		return ""
	}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		slash := filepath.ToSlash(p)
		if err == nil && !d.IsDir() && d.Name() == "hostname" {
			// A sosreport's host name, beside its sos_commands/.
			if _, serr := os.Stat(filepath.Join(filepath.Dir(p), "sos_commands")); serr == nil {
				b, _ := os.ReadFile(p)
				addValue(string(b))
			}
			return nil
		}
		if err != nil || d.IsDir() || !config.MatchString(slash) && insightsKind(slash) == "" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var doc map[string]any
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return nil // a broken copy: the analyzer reports it; nothing to list
		}
		objs := []map[string]any{doc}
		if items, ok := doc["items"].([]any); ok {
			objs = objs[:0]
			for _, it := range items {
				if m, ok := it.(map[string]any); ok {
					objs = append(objs, m)
				}
			}
		}
		for _, o := range objs {
			kind := field(o, "kind")
			if kind == "" {
				kind = insightsKind(slash)
			}
			switch kind {
			case "Infrastructure":
				infra := field(o, "status", "infrastructureName")
				addValue(infra)
				if i := strings.LastIndexByte(infra, '-'); i > 0 && len(infra)-i-1 == 5 {
					addValue(infra[:i])
				}
				addValue(host(field(o, "status", "apiServerURL")))
				addValue(host(field(o, "status", "apiServerInternalURI")))
			case "DNS":
				addValue(field(o, "spec", "baseDomain"))
			case "ClusterVersion":
				addValue(field(o, "spec", "clusterID"))
			case "Node":
				addValue(field(o, "metadata", "name"))
				if st, ok := o["status"].(map[string]any); ok {
					addrs, _ := st["addresses"].([]any)
					for _, a := range addrs {
						if am, ok := a.(map[string]any); ok {
							addValue(field(am, "address"))
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for v := range seen {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// TestRedactCorpusClusterValues runs --redact on every corpus gather and
// checks that none of the values its own objects name the cluster by (see
// clusterValues), nor the input path, is left in report.md, report.html,
// report.json or on stdout.
func TestRedactCorpusClusterValues(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus gathers: not in -short")
	}
	entries, err := os.ReadDir(corpusRoot)
	if err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	checked := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		in := filepath.Join(corpusRoot, e.Name())
		values := clusterValues(t, in)
		if len(values) == 0 {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			abs, _ := filepath.Abs(in)
			values = append(values, strings.ToLower(in), strings.ToLower(abs))
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := run(t, in, "-o", out, "--redact")
			if code != exitOK {
				t.Skipf("not analysable here (exit %d): %s", code, stderr)
			}
			checked++
			texts := map[string]string{"stdout": stdout}
			for _, f := range []string{"report.md", "report.html", "report.json"} {
				b, err := os.ReadFile(filepath.Join(out, f))
				must(t, err)
				texts[f] = string(b)
			}
			for name, text := range texts {
				low := strings.ToLower(text)
				for _, v := range values {
					if i := strings.Index(low, v); i >= 0 {
						t.Errorf("%s still holds %q: …%s…", name, v, low[max(0, i-60):min(len(low), i+len(v)+60)])
					}
				}
			}
			t.Logf("%d values checked: %s", len(values), strings.Join(values, ", "))
		})
	}
	if checked == 0 {
		t.Skip("no corpus gather with cluster objects")
	}
}
