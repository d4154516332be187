package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/fixtures/gen/synth"
	"github.com/mgtriage/mgtriage/report"
)

// TestEveryArchiveFormatGivesTheSameReport runs the whole pipeline on the
// bundled sample as a folder and as every archive format (and a zip holding a
// tar.gz, as case uploads often are) and requires the same pods and findings.
func TestEveryArchiveFormatGivesTheSameReport(t *testing.T) {
	analyze := func(in string) *report.Report {
		out := filepath.Join(t.TempDir(), "out")
		if code, _, stderr := run(t, in, "-o", out, "--format", "json"); code != 0 {
			t.Fatalf("%s: exit %d: %s", in, code, stderr)
		}
		return readReport(t, out)
	}
	want := analyze(sampleGather)
	if len(want.Findings) == 0 || len(want.Pods) == 0 {
		t.Fatal("the sample gives no pods or findings")
	}
	dir := t.TempDir()
	upload := filepath.Join(dir, "case-01234567")
	os.MkdirAll(upload, 0o755)
	if err := synth.WriteArchive(sampleGather, filepath.Join(upload, "must-gather.tar.gz"), synth.Formats[".tar.gz"]); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{"zip of a tar.gz": filepath.Join(dir, "upload.zip")}
	if err := synth.WriteArchive(upload, inputs["zip of a tar.gz"], synth.Formats[".zip"]); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{".tar", ".tar.gz", ".tar.xz", ".tar.zst", ".tar.bz2", ".zip"} {
		p := filepath.Join(dir, "gather"+suffix)
		if err := synth.WriteArchive(sampleGather, p, synth.Formats[suffix]); err != nil {
			t.Fatal(err)
		}
		inputs[suffix] = p
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			got := analyze(in)
			if diff := cmp.Diff(want.Pods, got.Pods); diff != "" {
				t.Errorf("pods differ from the folder (-folder +%s):\n%s", name, diff)
			}
			if diff := cmp.Diff(want.Findings, got.Findings); diff != "" {
				t.Errorf("findings differ from the folder (-folder +%s):\n%s", name, diff)
			}
		})
	}
}
