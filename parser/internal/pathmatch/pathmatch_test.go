package pathmatch

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		re   string
		want []string
	}{
		{`^(.*/)?namespaces/([^/]+)/core/pods\.(?:yaml|json)$`, []string{"namespaces/", "/core/pods."}},
		{`^(.*/)?(?:sos_commands/host/)?hostname$`, []string{"hostname"}},
		{`(?i)kubelet`, nil},
		{`a|b`, nil},
		{`^x(y)z$`, []string{"x", "y", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.re, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, RequiredLiterals(regexp.MustCompile(tt.re))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// segmentSet is a Set of every tail segmentTails knows, behind rootPrefix.
func segmentSet(t testing.TB) *Set {
	var res []*regexp.Regexp
	for src := range segmentTails {
		res = append(res, regexp.MustCompile(rootPrefix+src))
	}
	s := New(res...)
	for i := range s.Len() {
		if _, segs := s.HasTail(i); !segs {
			t.Fatalf("%s: no segment matcher", s.Pattern(i))
		}
	}
	return s
}

// SameMatches fails t when s.Match differs from the pattern on p for any
// pattern of s.
func sameMatches(t *testing.T, s *Set, p string) {
	t.Helper()
	for i := range s.Len() {
		if d := cmp.Diff(s.Pattern(i).FindStringSubmatch(p), s.Match(i, p)); d != "" {
			t.Errorf("%q, pattern %s: Match differs from the pattern (-want +got):\n%s", p, s.Pattern(i), d)
		}
	}
}

// TestSegmentsSameAsPattern checks the segment matchers against their
// patterns on paths with repeated and nested anchors and segment edge cases.
func TestSegmentsSameAsPattern(t *testing.T) {
	s := segmentSet(t)
	for _, p := range []string{
		"must-gather.local.1/img/namespaces/shop/core/pods.yaml",
		"a/namespaces/namespaces/core/pods.yaml",
		"img/namespaces/shop/pods/a-1/a-1.yaml",
		"img/namespaces/shop/pods/a-1/c/c/logs/previous.insecure.log",
		"x/namespaces/a/pods/namespaces/b/pods/p/p.yaml",
		"img/cluster-scoped-resources/core/nodes/n1.yaml",
		"cluster-scoped-resources/cluster-scoped-resources/core/nodes.yaml",
		"img/namespaces/shop/apps/deployments.yaml", "img/namespaces/shop/apps/deployments/web.yaml",
		"img/cluster-scoped-resources/machineconfiguration.openshift.io/kubeletconfigs/x.yaml",
		"namespaces/a/.yaml", "namespaces/a/b.yaml.json", "namespaces//b.yaml", "namespaces/a/b/.json",
		"namespaces/a/pods/p/c/c/logs/current.insecure.log", "namespaces/a/pods/p/c/c/logs/previous.log.log",
		"namespaces/a/pods/p/c//logs/current.log", "namespaces/a/pods/p/c/c/logs/", "namespaces/a/pods/p/p.yaml/",
		"cluster-scoped-resources/x/y.yaml", "cluster-scoped-resources/x/y/z.json", "cluster-scoped-resources/x/y/z/w.yaml",
		"namespaces/a\n/b\xff/c.yaml", "", "/", "//",
		// A line break in the root, which rootPrefix's `.` does not match (found by FuzzSegments).
		"\n/namespaces/p/s.yaml", "a\nb/x/namespaces/p/core/pods.yaml", "namespaces/a\n/namespaces/b/core/pods.yaml",
		// Gzipped and rotated container logs, and near misses.
		"namespaces/a/pods/p/c/c/logs/current.log.gz", "namespaces/a/pods/p/c/c/logs/previous.insecure.log.gz",
		"namespaces/a/pods/p/c/c/logs/current.log.gz.gz", "namespaces/a/pods/p/c/c/logs/current.gz", "namespaces/a/pods/p/c/c/logs/current.log.bak",
		"namespaces/a/pods/p/c/c/logs/rotated/0.log.20211027-082023", "namespaces/a/pods/p/c/c/logs/rotated/3.log.20211027-082023.gz",
		"namespaces/a/pods/p/c/c/logs/rotated/12.log.x\ny", "namespaces/a/pods/p/c/c/logs/rotated/0.log.", "namespaces/a/pods/p/c/c/logs/rotated/0.log",
		"namespaces/a/pods/p/c/c/logs/rotated/x.log.1", "namespaces/a/pods/p/c/c/logs/rotated/.log.1", "namespaces/a/pods/p/c/c/logs/rotated/notes.txt",
		"namespaces/a/pods/p/c/c/logs/rotated/0.log.1/x", "namespaces/a/pods/p/c/c/logs/rotated/", "namespaces/a/pods/p/c/c/logs/0.log.1",
	} {
		sameMatches(t, s, p)
	}
}

func FuzzSegments(f *testing.F) {
	s := segmentSet(f)
	f.Add("must-gather.local.1/img/namespaces/shop/core/pods.yaml")
	f.Add("a/namespaces/namespaces/pods/p/c/c/logs/current.log")
	f.Add("img/namespaces/a/pods/p/c/c/logs/rotated/3.log.20211027-082023.gz")
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > 4096 {
			return
		}
		sameMatches(t, s, p)
	})
}
