package main

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
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
