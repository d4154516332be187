package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateDigests = flag.Bool("update-digests", false, "rewrite testdata/corpus-digests.txt from this build")

const (
	corpusRoot  = "../../../shared/corpus"
	digestsFile = "testdata/corpus-digests.txt"
)

// TestCorpusDigests analyses every gather of the shared corpus and compares a
// SHA-256 of the pods and findings of its report.json with the digest stored
// in testdata/corpus-digests.txt, so that an optimisation of the reader cannot
// change what the report says. Only digests live in the repository, never
// corpus text. Skipped under -short and when the corpus is absent.
func TestCorpusDigests(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus gathers: not in -short")
	}
	entries, err := os.ReadDir(corpusRoot)
	if err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	want := readDigests(t)
	got := map[string]string{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			got[name] = reportDigest(t, filepath.Join(corpusRoot, name))
			if *updateDigests {
				return
			}
			w, ok := want[name]
			switch {
			case !ok:
				t.Errorf("%s: no stored digest (run go test -run TestCorpusDigests -update-digests on the commit before the change)", name)
			case w != got[name]:
				t.Errorf("%s: pods and findings differ from the stored digest\n got %s\nwant %s", name, got[name], w)
			}
		})
	}
	if *updateDigests {
		writeDigests(t, got)
	}
}

// reportDigest runs the analyzer on dir and returns the hex SHA-256 of the
// report's "pods" and "findings" JSON, or "exit N" when no report is written.
func reportDigest(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, dir, "-o", out, "--format", "json")
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		return fmt.Sprintf("exit-%d", code)
	}
	if code != 0 {
		t.Logf("exit %d: %s", code, stderr)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	h.Write(doc["pods"])
	h.Write([]byte{'\n'})
	h.Write(doc["findings"])
	return hex.EncodeToString(h.Sum(nil))
}

func readDigests(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, err := os.Open(digestsFile)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if name, sum, ok := strings.Cut(line, " "); ok {
			out[name] = strings.TrimSpace(sum)
		}
	}
	return out
}

func writeDigests(t *testing.T, digests map[string]string) {
	t.Helper()
	names := make([]string, 0, len(digests))
	for n := range digests {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("# SHA-256 of report.json's pods and findings per gather of ../shared/corpus (TestCorpusDigests).\n")
	for _, n := range names {
		fmt.Fprintf(&b, "%s %s\n", n, digests[n])
	}
	if err := os.WriteFile(digestsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
