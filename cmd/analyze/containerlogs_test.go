package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGzippedContainerLogsSameReport: the bundled sample and a copy of it
// whose container logs of at least minBytes were gzipped as NAME.gz (what
// must-gather's REDUCE_LOGS=compress_logs does to the logs of 10 MB and more)
// give the same report: findings, pods (with their log tails), nodes,
// timelines, problems, what to ask for, the summary and the coverage. The
// only difference allowed is that a cited log is the file that exists,
// current.log.gz for current.log: the gzipped report's ".log.gz" is read as
// ".log" before comparing. The gather's own facts (its path, file count and
// bytes) differ by construction and are not compared.
func TestGzippedContainerLogsSameReport(t *testing.T) {
	plain := analyzeJSON(t, sampleGather)
	if !bytes.Contains(plain, []byte(`/logs/previous.log"`)) {
		t.Fatal("no finding or log tail of the sample cites a container log: the test would prove nothing")
	}
	for _, tc := range []struct {
		name     string
		minBytes int64
	}{{"all", 0}, {"over 1 KiB", 1024}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), filepath.Base(sampleGather))
			copyTree(t, sampleGather, dir)
			gzipLogs(t, dir, tc.minBytes)
			gz := analyzeJSON(t, dir)
			if !bytes.Contains(gz, []byte(`.log.gz"`)) {
				t.Fatal("the report cites no gzipped log")
			}
			gz = bytes.ReplaceAll(gz, []byte(".log.gz"), []byte(".log"))
			want, got := reportParts(t, plain), reportParts(t, gz)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("report (-plain +gzipped):\n%s", d)
			}
		})
	}
}

// analyzeJSON runs analyze on input and returns its report.json.
func analyzeJSON(t *testing.T, input string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, input, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// reportParts are the parts of a report.json that do not name the input.
func reportParts(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{"coverage": r["gather"].(map[string]any)["coverage"]}
	for _, k := range []string{"summary", "findings", "pods", "nodes", "timelines", "problems", "ask"} {
		out[k] = r[k]
	}
	return out
}

// gzipLogs replaces every container log under dir of at least minBytes
// bytes by its gzipped copy NAME.gz.
func gzipLogs(t *testing.T, dir string, minBytes int64) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") || !strings.Contains(filepath.ToSlash(p), "/logs/") {
			return err
		}
		if info, err := d.Info(); err != nil || info.Size() < minBytes {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(p+".gz", buf.Bytes(), 0o644); err != nil {
			return err
		}
		n++
		return os.Remove(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no container log gzipped")
	}
}
