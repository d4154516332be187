package parser

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser/insights"
	"github.com/mgtriage/mgtriage/parser/installbundle"
	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/sosreport"
	"github.com/mgtriage/mgtriage/parser/supportbundle"
)

// TestVisitTurnsAPanicIntoAProblem: a reader's panic on one member (here a
// builder whose table of roots is gone) becomes a gather problem naming the
// member, and the pass goes on to the next member.
func TestVisitTurnsAPanicIntoAProblem(t *testing.T) {
	b := newBuilder("in")
	b.roots = nil // writing to it panics
	const p = "must-gather.local.1/quay-io-img/namespaces/shop/core/pods.yaml"
	if err := b.visit(Member{Path: p}); err != nil {
		t.Fatalf("visit = %v, want nil (the pass goes on)", err)
	}
	probs := b.problemList()
	if len(probs) != 1 || probs[0].Path != p || !strings.Contains(probs[0].Error, "mgtriage failed while reading this file") ||
		!strings.Contains(probs[0].Error, "member classification reader: panic: assignment to entry in nil map") {
		t.Fatalf("problems = %+v, want one naming %s and the step", probs, p)
	}
}

// panicLoad is a load.Load whose line scanner and object reader panic: what
// a bug of a format's reader met on a member's bytes looks like to the pass.
type panicLoad struct{ load.Load }

func (panicLoad) ScanLines(io.Reader, func(int, []byte)) error   { panic("scanner broke") }
func (panicLoad) ReadObjects(string, load.Objects, []byte) error { panic("objects broke") }

// TestReaderPanicNamesFileAndReader: a panic inside each format's reader,
// on the pass's goroutine (streamed members) or on a decode worker (whole
// members), becomes one problem that names the member and the reader, and
// the members after it are still read.
func TestReaderPanicNamesFileAndReader(t *testing.T) {
	for _, tc := range []struct {
		name, path, data, reader string
		breakIt                  func(b *builder)
	}{
		{"install bundle text (streamed)", "log-bundle-1/control-plane/172.16.1.11/journals/bootkube.log", "Nov 20 08:30:12 h bootkube.sh[1]: x\n", "installbundle",
			func(b *builder) { b.install = installbundle.NewReader(panicLoad{b}) }},
		{"install bundle resource (worker)", "log-bundle-1/resources/pods.json", `{"items":[]}`, "installbundle",
			func(b *builder) { b.install = installbundle.NewReader(panicLoad{b}) }},
		{"insights cluster operator (worker)", "insights/config/clusteroperator/dns.json", `{"metadata":{"name":"dns"}}`, "insights",
			func(b *builder) { b.insights = insights.NewReader(panicLoad{b}) }},
		{"support bundle events (worker)", "sb/cluster-resources/events/shop.json", `{"items":[]}`, "supportbundle",
			func(b *builder) { b.bundle = supportbundle.NewReader(panicLoad{b}) }},
		{"sosreport crictl inspect (reader's own)", "sos/sos_commands/crio/containers/crictl_inspect_0123456789ab", "{}", "sosreport",
			func(b *builder) { b.sos = nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder("in")
			tc.breakIt(b)
			b.startWorkers(1)
			for _, p := range []string{tc.path, "sos/sos_commands/host/hostname"} {
				data := []byte(tc.data)
				if p != tc.path {
					data = []byte("worker-0\n")
				}
				m := Member{Path: p, Size: int64(len(data)), Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
				if err := b.visit(m); err != nil {
					t.Fatalf("visit(%s) = %v, want nil (the pass goes on)", p, err)
				}
			}
			b.stopWorkers()
			probs := b.problemList()
			if len(probs) != 1 || probs[0].Path != tc.path || !strings.Contains(probs[0].Error, tc.reader+" reader: panic: ") {
				t.Fatalf("problems = %+v, want one naming %s and the %s reader", probs, tc.path, tc.reader)
			}
			if b.hostnames["sos"] != "worker-0" {
				t.Errorf("the member after the panic was not read: host names %v", b.hostnames)
			}
		})
	}
}

// TestSettlePanicIsAProblem: a panic in a reader's step after the pass
// (guardSettle) becomes a problem naming the reader, and the load goes on.
func TestSettlePanicIsAProblem(t *testing.T) {
	b := newBuilder("/cases/0412/upload.tar.gz")
	ran := false
	b.guardSettle("sosreport", "upload.tar.gz", func() { var r *sosreport.Reader; r.Settle(nil) })
	b.guardSettle("installbundle", "upload.tar.gz", func() { ran = true })
	probs := b.problemList()
	if !ran || len(probs) != 1 || probs[0].Path != "upload.tar.gz" || !strings.Contains(probs[0].Error, "sosreport reader: panic: runtime error") {
		t.Fatalf("ran %v, problems = %+v", ran, probs)
	}
}
