package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

// TestServeJournalsHostileShapes: a journal whose path names its node is
// read whole for that node though its lines say "localhost" (a host not yet
// named when it booted); a journal naming more hosts than are listed is
// searched for a host it does not list, never said to lack it; and
// answers that read a folder's files again wait for one of
// serve.MaxRereadFiles slots.
func TestServeJournalsHostileShapes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "odf")
	copyTree(t, "../../fixtures/journals/mg-odf-ceph-journals", dir)
	var jp string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "journal_worker-0.ocp4.example.com.gz") {
			jp = p
		}
		return nil
	})
	if jp == "" {
		t.Fatal("no worker-0 journal in the fixture")
	}
	zr, err := os.Open(jp)
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(zr)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(gz)
	zr.Close()
	if err != nil {
		t.Fatal(err)
	}
	local := strings.ReplaceAll(string(plain), " worker-0.ocp4.example.com ", " localhost ")
	local = strings.ReplaceAll(local, " worker-0 ", " localhost ")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(local))
	zw.Close()
	if err := os.WriteFile(jp, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// A service log naming 100 hosts, one line each, beside it.
	root := filepath.Dir(filepath.Dir(filepath.Dir(jp)))
	var many strings.Builder
	for i := range 100 {
		fmt.Fprintf(&many, "Nov 20 06:%02d:%02d.000000 host%03d.example.com NetworkManager[812]: <info>  device (ens3): state change %d\n", i/60, i%60, i, i)
	}
	writeFiles(t, filepath.Join(root, "host_service_logs", "masters"), map[string]string{"NetworkManager_service.log": many.String()})

	srv := servedSample(t, dir)
	cs := inMemory(t, srv)
	var kub serve.LogsOut
	if e := call(t, cs, "logs", map[string]any{"host": "worker-0.ocp4.example.com", "unit": "kubelet", "limit": 1000}, &kub); e != "" {
		t.Fatal(e)
	}
	want := 0
	for _, l := range strings.Split(local, "\n") {
		if strings.Contains(l, " localhost ") && (strings.Contains(l, " kubenswrapper[") || strings.Contains(l, " kubelet[")) {
			want++
		}
	}
	if kub.Searched != "whole file" || want == 0 || kub.Matched < want {
		t.Errorf("worker-0's kubelet from its own journal (lines say localhost): searched %q, matched %d, want at least %d (%s)", kub.Searched, kub.Matched, want, kub.Note)
	}

	var far serve.LogsOut
	if e := call(t, cs, "logs", map[string]any{"host": "host099.example.com", "unit": "NetworkManager"}, &far); e != "" {
		t.Fatalf("a host past the listed ones: %s", e)
	}
	if far.Matched != 1 || len(far.Items) != 1 || !strings.Contains(far.Items[0].Text, "host099.example.com") {
		t.Errorf("host099's line: %+v", far)
	}

	// Every slot taken: the next answer that may read again waits, and
	// ends with its context.
	for range serve.MaxRereadFiles {
		if _, err := srv.LogsContext(context.Background(), serve.LogsIn{Host: "worker-0.ocp4.example.com", Unit: "kubelet", Limit: 1}); err != nil {
			t.Fatal(err)
		}
	}
	release := srv.HoldRereadSlots(t.Context())
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := srv.LogsContext(ctx, serve.LogsIn{Host: "worker-0.ocp4.example.com", Unit: "kubelet", Limit: 1}); err == nil {
		t.Error("an answer read again while every slot was taken")
	}
	release()
	if _, err := srv.LogsContext(context.Background(), serve.LogsIn{Host: "worker-0.ocp4.example.com", Unit: "kubelet", Limit: 1}); err != nil {
		t.Errorf("after the slots were released: %v", err)
	}
}
