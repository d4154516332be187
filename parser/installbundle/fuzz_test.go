package installbundle

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

// recordLoad is testLoad that counts a container log's lines and records
// the documents handed back to it.
type recordLoad struct {
	testLoad
	mu     sync.Mutex
	handed []handed
}

type handed struct {
	path string
	o    load.Objects
}

func (l *recordLoad) ReadTail(r io.Reader, c *model.ContainerLog) error {
	return l.ScanLines(r, func(int, []byte) { c.Lines++ })
}

func (l *recordLoad) ReadObjects(path string, o load.Objects, _ []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.handed = append(l.handed, handed{path, o})
	return nil
}

// fixtureBundle is the project's own install log bundle fixture.
const fixtureBundle = "../../fixtures/bundles/install-log-bundle/log-bundle-20261120085830"

// FuzzRead reads arbitrary bytes as the member of an install log bundle at
// a path of either layout (bootstrap/ and control-plane/<host>/), as the
// load does: Root and Note on every member, then the Reader's own read of
// the member's Kind, then DateSteps and Settle. No panic, and what the
// bundle holds stays inside the input and consistent: its root leads the
// path, every step cites the member at a line it has, on the member's host,
// a container log and a host only from the member's own folder, a resource
// recorded by its name, the documents handed back named for the member.
func FuzzRead(f *testing.F) {
	seed := func(rel, fallback string) []byte {
		if b, err := os.ReadFile(filepath.Join(fixtureBundle, rel)); err == nil && len(b) < 32<<10 {
			return b
		}
		return []byte(fallback)
	}
	const cp = "log-bundle-20261120085830/control-plane/172.16.1.11/"
	journal := "Nov 20 08:36:40 bootstrap.ocp4.example.com bootkube.sh[2816]: Error: unable to connect to the server: dial tcp 192.168.111.5:6443: connect: connection refused\n"
	criLog := "2026-11-20T08:40:01.000000000+00:00 stderr F E1120 08:40:01.000000       1 server.go:42] failed to reach etcd at https://192.168.111.20:2379\n"
	inspect := `{"status":{"id":"5d2c8e1f0a9b","metadata":{"name":"etcd"},"state":"CONTAINER_EXITED","createdAt":"2026-11-20T08:40:00.123456789Z","finishedAt":"2026-11-20T08:56:02Z","exitCode":1}}`
	for _, s := range []struct {
		p    string
		data []byte
	}{
		{"log-bundle-20261120085830/bootstrap/journals/bootkube.log", seed("bootstrap/journals/bootkube.log", journal)},
		{"log-bundle-20261120085830/bootstrap/journals/release-image.log", seed("bootstrap/journals/release-image.log", "Nov 20 08:30:12 h release-image-download.sh[1]: Pull failed. Retrying\n")},
		{"log-bundle-20261120085830/bootstrap/containers/etcd-5d2c8e1f0a9b7c6d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d.log", []byte(criLog)},
		{"log-bundle-20261120085830/bootstrap/containers/etcd-5d2c8e1f0a9b7c6d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d.inspect", []byte(inspect)},
		{"log-bundle-20261120085830/resources/pods.json", seed("resources/pods.json", `{"apiVersion":"v1","items":[],"kind":"List"}`)},
		{"log-bundle-20261120085830/resources/masters.list", []byte("master-0.ocp4.example.com\nmaster-1.ocp4.example.com\n")},
		{"log-bundle-20261120085830/resources/csr.json", []byte("")},
		{"log-bundle-20261120085830/gather.log", seed("gather.log", "Gathering bootstrap systemd summary ...\n")},
		{"log-bundle-20261120085830/failed-units.txt", seed("failed-units.txt", "bootkube.service loaded failed failed Bootstrap a Kubernetes cluster\n")},
		{cp + "journals/machine-config-daemon-firstboot.log", []byte("Nov 20 08:44:10 master-0 machine-config-daemon[1802]: waiting for the Kubernetes API\n")},
		{cp + "journals/kubelet.log", []byte("Nov 20 08:44:10 master-0 kubenswrapper[2101]: E1120 08:44:10.1 2101 kubelet_node_status.go:96] \"Unable to register node with API server\"\n")},
		{cp + "containers/etcd-0123456789ab.log", []byte(criLog)},
		// The two members of issue 29: a control plane host's inspect file
		// and a log named without a container ID.
		{"log-bundle/control-plane/172.16.1.11/containers/x.inspect", []byte(inspect)},
		{"log-bundle/control-plane/172.16.1.11/containers/x.log", []byte(criLog)},
		{"control-plane//containers/-000000000000.log", []byte("\n")},
	} {
		f.Add(s.p, s.data)
	}
	fix := func(t time.Time) time.Time {
		if t.Year() == 1 {
			return t.AddDate(2025, 0, 0)
		}
		return t
	}
	f.Fuzz(func(t *testing.T, p string, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		l := &recordLoad{}
		r := NewReader(l)
		root, ok := Root(p)
		if !ok {
			return
		}
		if !strings.HasPrefix(p, root) || root != "" && !strings.HasSuffix(root, "/") {
			t.Fatalf("Root(%q) = %q", p, root)
		}
		r.Note(root, p)
		m := Classify(p)
		if m.Kind != Other && (!strings.HasPrefix(p, m.Root) || m.Root != "" && !strings.HasSuffix(m.Root, "/")) {
			t.Fatalf("Classify(%q) = %+v: the root does not lead the path", p, m)
		}
		if m.Node != "" && !strings.Contains(p, "control-plane/"+m.Node+"/") {
			t.Fatalf("Classify(%q): host %q is not a folder of the path", p, m.Node)
		}
		lines := strings.Count(string(data), "\n") + 1
		switch m.Kind {
		case Text:
			_ = r.ReadText(p, m, strings.NewReader(string(data)))
		case ContainerLog:
			_ = r.ReadContainerLog(p, m, strings.NewReader(string(data)))
		case Resource:
			_ = r.ReadResource(p, m, data)
		case Inspect:
			r.ReadInspect(data)
		}
		if m.Kind != Other && m.Kind != Journal {
			r.Count(m.Kind)
			if u := r.Used(); len(u) != 1 || u[0].Files != 1 {
				t.Fatalf("Used after one %v member = %+v", m.Kind, u)
			}
		}
		if latest := r.Latest(); !latest.IsZero() && (latest.Year() <= 1970 || latest.Location() != time.UTC) {
			t.Fatalf("Latest = %s", latest)
		}
		r.DateSteps(fix)
		host := "bootstrap"
		if m.Node != "" {
			host = m.Node
		}
		for _, ib := range r.Settle() {
			if !strings.HasPrefix(p, ib.Root) {
				t.Fatalf("bundle %q is not a folder of %q", ib.Root, p)
			}
			for _, h := range ib.Masters {
				if !strings.HasPrefix(p, ib.Root+"control-plane/"+h+"/") {
					t.Fatalf("master %q of bundle %q: not the folder of %q", h, ib.Root, p)
				}
			}
			counted := 0
			for _, s := range ib.Steps {
				counted += s.Count
				if s.Source.Path != p || s.Source.Line < 1 || s.Source.Line > lines || s.Count < 1 || counted > lines || s.Unit != m.Unit {
					t.Fatalf("step %+v of the %d lines of %q", s, lines, p)
				}
				if m.Node != "" && s.Host != m.Node || s.Host == "" {
					t.Fatalf("step of host %q in a member of host %q", s.Host, m.Node)
				}
				if !s.First.IsZero() && s.First.Year() == 1 {
					t.Fatalf("step without a year after DateSteps: %s", s.First)
				}
			}
			for _, c := range ib.Containers {
				if m.Kind != ContainerLog || c.Host != host || c.Name != m.Container || c.Log.Path() != p || c.Log.Lines > lines {
					t.Fatalf("container %+v (%d lines) from %+v", c, c.Log.Lines, m)
				}
			}
			if m.Kind == Resource && ib.Root == m.Root {
				if len(ib.Resources) != 1 || ib.Resources[0] != m.Name || len(ib.Empty) > 1 {
					t.Fatalf("resources %v, empty %v after reading %s", ib.Resources, ib.Empty, m.Name)
				}
				if (ib.MastersListed >= 0) != (m.Name == "masters.list") {
					t.Fatalf("masters listed %d after reading %s", ib.MastersListed, m.Name)
				}
			}
		}
		for _, h := range l.handed {
			if h.path != p || h.o.Root != m.Root || m.Kind != Resource {
				t.Fatalf("handed back %+v from member %q (%+v)", h, p, m)
			}
		}
	})
}
