package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// loadReport reads testdata/report.json, a hand-made report full of hostile strings.
func loadReport(t testing.TB) *Report {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// render runs one writer on the test report.
func render(t testing.TB, write func(*bytes.Buffer, *Report) error) string {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, loadReport(t)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	tests := []struct {
		file  string
		write Writer
	}{
		{"report.md", MarkdownWriter(MarkdownOptions{})},
		{"report.html", WriteHTML},
		{"report.txt", TerminalWriter(TerminalOptions{})},
		{"report-color.txt", TerminalWriter(TerminalOptions{Color: true, MaxFindings: 2, Reports: []string{"report.json"}})},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			write := func(b *bytes.Buffer, r *Report) error { return tt.write(b, r) }
			got := render(t, write)
			if again := render(t, write); again != got {
				t.Fatalf("two renders of the same report differ")
			}
			path := filepath.Join("testdata", "golden", tt.file)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./report -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s differs from the golden file (-want +got):\n%s", tt.file, diff)
			}
		})
	}
}
