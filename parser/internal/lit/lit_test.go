package lit

import (
	"strings"
	"testing"
)

// firstReference is what Index.First answers, the slow way: each group in
// order, each literal with strings.Contains.
func firstReference(groups [][]string, s string, limit int) int {
	for g, lits := range groups {
		if g >= limit {
			break
		}
		for _, l := range lits {
			if strings.Contains(s, l) {
				return g
			}
		}
	}
	return -1
}

var testGroups = [][]string{
	{"PLEG is not healthy"},
	{"network is not ready", "NetworkReady=false"},
	{"reate sandbox", "cni plugin", "multus"},
	{"ErrImagePull", "rror pulling image"},
	{"node \"", "not found\" node="},
	{"Error syncing pod"},
	{"ab", "abc"}, // a literal that is a prefix of another
	{"bc"},        // overlapping a literal of an earlier group
}

func TestFirst(t *testing.T) {
	x := New(testGroups)
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", -1},
		{"n", -1},
		{"nothing here", -1},
		{"PLEG is not healthy", 0},
		{"Error syncing pod: failed to \"CreatePodSandbox\": failed to create sandbox", 2},
		{"network is not ready and PLEG is not healthy", 0}, // the earlier group wins wherever it is
		{"Failed to create sandbox: cni plugin not initialized; NetworkReady=false", 1},
		{"Error syncing pod: ErrImagePull", 3},
		{"Error syncing pod", 5},
		{"error syncing pod", -1}, // case matters
		{"xabcx", 6},
		{"xbcx", 7},
		{"ErrImagePul", -1}, // cut one byte short at the end
		{"...rror pulling image", 3},
	} {
		if got := x.First(tc.in); got != tc.want {
			t.Errorf("First(%q) = %d, want %d", tc.in, got, tc.want)
		}
		if ref := firstReference(testGroups, tc.in, len(testGroups)); ref != tc.want {
			t.Errorf("reference(%q) = %d, want %d: the table is wrong", tc.in, ref, tc.want)
		}
	}
}

func TestFirstBelow(t *testing.T) {
	x := New(testGroups)
	s := "Error syncing pod: ErrImagePull; network is not ready"
	for limit, want := range []int{-1, -1, 1, 1, 1, 1, 1, 1, 1, 1} {
		if got := x.FirstBelow(s, limit); got != want {
			t.Errorf("FirstBelow(%q, %d) = %d, want %d", s, limit, got, want)
		}
	}
	if got := x.FirstBelow("Error syncing pod", 5); got != -1 {
		t.Errorf("FirstBelow at the group's own index = %d, want -1", got)
	}
}

func TestNewRejectsShortLiteral(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New accepted a one-byte literal")
		}
	}()
	New([][]string{{"ok"}, {"x"}})
}

// FuzzFirst checks First and FirstBelow against the loop of strings.Contains
// they replace, on the test groups and on literals taken from the input.
func FuzzFirst(f *testing.F) {
	f.Add("Error syncing pod: ErrImagePull", "pod", "Im", 3)
	f.Add("xxabcabx", "ab", "cab", 1)
	f.Add("", "aa", "aaa", 0)
	f.Fuzz(func(t *testing.T, s, l1, l2 string, limit int) {
		if got, want := New(testGroups).First(s), firstReference(testGroups, s, len(testGroups)); got != want {
			t.Fatalf("First(%q) = %d, reference %d", s, got, want)
		}
		if len(l1) < 2 || len(l2) < 2 {
			return
		}
		groups := [][]string{{l1}, {l2, l1 + l2}, {l2[:2]}}
		x := New(groups)
		limit = limit%5 - 1
		if got, want := x.FirstBelow(s, limit), firstReference(groups, s, limit); got != want {
			t.Fatalf("groups %q: FirstBelow(%q, %d) = %d, reference %d", groups, s, limit, got, want)
		}
	})
}

func BenchmarkFirst(b *testing.B) {
	x := New(testGroups)
	line := "I1201 10:11:12.123456    2212 kubelet.go:2099] \"SyncLoop (probe)\" probe=\"readiness\" status=\"\" pod=\"openshift-monitoring/prometheus-k8s-0\""
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		x.First(line)
	}
}

// skipGroups are literals of at least skipMin bytes, which the skip scan
// reads (overlapping ones, one a prefix of another, one inside another).
var skipGroups = [][]string{
	{"panic:", "fatal error:"},
	{"level=error", "level=fatal"},
	{"ERROR", "ERRORS"},
	{"RROR!", "error:"},
	{"rror: x"},
}

func TestFirstSkipping(t *testing.T) {
	x := New(skipGroups)
	if x.skip == nil {
		t.Fatal("the skip scan is off for literals of 5 bytes and more")
	}
	for _, s := range []string{"", "ERRO", "ERROR", "xERROR", "ERRORx", "an ERROR! happened", "mirror: x", "level=fatal",
		"levellevel=error", "ERRORERRORERROR", "rror: x panic:", "no errors here", "RROR!", "RRROR!", "fatal error"} {
		if got, want := x.First(s), firstReference(skipGroups, s, len(skipGroups)); got != want {
			t.Errorf("First(%q) = %d, reference %d", s, got, want)
		}
		for limit := 0; limit <= len(skipGroups); limit++ {
			if got, want := x.FirstBelow(s, limit), firstReference(skipGroups, s, limit); got != want {
				t.Errorf("FirstBelow(%q, %d) = %d, reference %d", s, limit, got, want)
			}
		}
	}
	if New(testGroups).skip != nil {
		t.Error("the skip scan is on with literals of two bytes")
	}
}

func FuzzFirstSkipping(f *testing.F) {
	f.Add("level=error", "rror:", "x level=errorrror: y", 3)
	f.Add("abcd", "bcde", "abcde", 2)
	f.Fuzz(func(t *testing.T, l1, l2, s string, limit int) {
		if len(l1) < skipMin || len(l2) < skipMin {
			return
		}
		groups := [][]string{{l1}, {l2, l1 + l2}, {l2[1:] + l1[:1]}}
		if len(groups[2][0]) < skipMin {
			return
		}
		x := New(groups)
		limit = limit%5 - 1
		if got, want := x.FirstBelow(s, limit), firstReference(groups, s, limit); got != want {
			t.Fatalf("groups %q: FirstBelow(%q, %d) = %d, reference %d", groups, s, limit, got, want)
		}
	})
}
