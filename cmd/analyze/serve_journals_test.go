package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/report/serve"
	"github.com/mholt/archives"
)

// TestServeHostJournals: the logs tool reads a host's journal by unit or
// syslog identifier from the journal file that holds it, whether or not
// the analysis kept a line of it: CRI-O's lines of one host out of a
// must-gather's service log of every master, a sosreport unit journal
// compressed with xz (read as the one pass read it); without a unit it
// lists the host's journals with their units; a unit no journal holds is
// said; an archive input names the file and says it was read once.
func TestServeHostJournals(t *testing.T) {
	cs := inMemory(t, servedSample(t, sampleGather))
	host := "worker-1.sample.example.com"

	var crio serve.LogsOut
	if e := call(t, cs, "logs", map[string]any{"host": host, "unit": "crio", "limit": 500}, &crio); e != "" {
		t.Fatal(e)
	}
	if crio.Searched != "whole file" || !strings.HasSuffix(crio.Path, "crio_service.log") || crio.Matched == 0 {
		t.Fatalf("crio of %s: searched %q, path %q, matched %d, note %q", host, crio.Searched, crio.Path, crio.Matched, crio.Note)
	}
	for _, it := range crio.Items {
		if !strings.Contains(it.Text, " "+host+" crio[") && !strings.Contains(it.Text, " "+host+" conmon[") {
			t.Errorf("line %d is not %s's CRI-O: %.160s", it.Line, host, it.Text)
		}
	}

	var none serve.LogsOut
	if e := call(t, cs, "logs", map[string]any{"host": host}, &none); e != "" {
		t.Fatal(e)
	}
	var listed []string
	for _, f := range none.Logs {
		if slices.Contains(f.Units, "crio") {
			listed = append(listed, f.Path)
		}
	}
	if len(listed) != 1 || listed[0] != crio.Path {
		t.Errorf("journals listed with unit crio: %v, want [%s] (%+v)", listed, crio.Path, none.Logs)
	}

	var nope serve.LogsOut
	if e := call(t, cs, "logs", map[string]any{"host": host, "unit": "no-such-daemon"}, &nope); e != "" {
		t.Fatal(e)
	}
	if len(nope.Items) != 0 || !strings.Contains(nope.Note, `no journal of this host holds unit "no-such-daemon"`) || len(nope.Logs) == 0 {
		t.Errorf("an unknown unit: %+v", nope)
	}

	// A sosreport whose CRI-O journal is xz-compressed: found by unit and
	// by identifier, decompressed, every line of the file's host.
	sos := filepath.Join(t.TempDir(), "sos")
	copyTree(t, "../../fixtures/sos/rhcos-master-unregistered", sos)
	jp := filepath.Join(sos, "sosreport-localhost-2026-11-20-qzkfmtw", "sos_commands", "crio", "journalctl_--no-pager_--unit_crio")
	plain, err := os.ReadFile(jp)
	if err != nil {
		t.Fatal(err)
	}
	var xz bytes.Buffer
	w, err := archives.Xz{}.OpenWriter(&xz)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(plain)
	w.Close()
	if err := os.Remove(jp); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jp+".xz", xz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	wantLines := strings.Count(string(plain), " crio[")
	scs := inMemory(t, servedSample(t, sos))
	for _, unit := range []string{"crio", "CRIO"} {
		var got serve.LogsOut
		if e := call(t, scs, "logs", map[string]any{"host": "localhost", "unit": unit, "pattern": ` crio\[`, "limit": 1000}, &got); e != "" {
			t.Fatal(e)
		}
		if unit == "crio" && (got.Searched != "whole file" || got.Matched != wantLines || got.Matched == 0) {
			t.Errorf("unit %s of the xz journal: searched %q, path %q, matched %d of %d lines, want %d", unit, got.Searched, got.Path, got.Matched, got.Lines, wantLines)
		}
		if unit == "CRIO" && got.Matched == 0 {
			t.Errorf("the identifier in another case found nothing: %+v", got)
		}
	}

	// An archive is read once: the file is named, with what was kept.
	acs := inMemory(t, servedSample(t, tarGz(t, sampleGather)))
	var arch serve.LogsOut
	if e := call(t, acs, "logs", map[string]any{"host": host, "unit": "crio"}, &arch); e != "" {
		t.Fatal(e)
	}
	if arch.Searched != "kept lines" || !strings.HasSuffix(arch.Path, "crio_service.log") || arch.Note == "" {
		t.Errorf("crio of an archive: %+v", arch)
	}
}

// TestServeCountsAndLimits: events says how many Event objects matched and
// how many times they happened (the sum of their counts, which byReason
// adds up), and a negative limit is refused by every paged tool.
func TestServeCountsAndLimits(t *testing.T) {
	cs := inMemory(t, servedSample(t, sampleGather))
	var ev serve.EventsOut
	if e := call(t, cs, "events", map[string]any{"type": "Warning"}, &ev); e != "" {
		t.Fatal(e)
	}
	sum := 0
	for _, r := range ev.ByReason {
		sum += r.Count
	}
	if ev.Matched == 0 || ev.Occurrences != sum || ev.Occurrences < ev.Matched {
		t.Errorf("matched %d, occurrences %d, byReason adds to %d", ev.Matched, ev.Occurrences, sum)
	}
	for _, q := range []struct {
		tool string
		args map[string]any
	}{
		{"events", map[string]any{"limit": -3}},
		{"findings", map[string]any{"limit": -1}},
		{"logs", map[string]any{"host": "worker-1.sample.example.com", "limit": -3}},
	} {
		if e := call(t, cs, q.tool, q.args, nil); !strings.Contains(e, "give a count of at least 1") {
			t.Errorf("%s %v: %q, want the limit refused", q.tool, q.args, e)
		}
	}
}
