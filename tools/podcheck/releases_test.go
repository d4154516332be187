package podcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/mgtriage/mgtriage/parser/podstatus"
)

var releasePods = flag.Int("release-pods", 0, "random pods per release in TestAgainstReleases (0: the -pods count)")

// releaseDirs lists the folders under releases/, one module per boundary
// release of the pod printer ("v121" → 1.21), oldest first.
func releaseDirs(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("releases", "v1*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no release modules under releases/: %v", err)
	}
	sort.Strings(dirs)
	return dirs
}

var releaseDirRe = regexp.MustCompile(`^v1(\d\d)$`)

func releaseOf(t *testing.T, dir string) podstatus.Version {
	m := releaseDirRe.FindStringSubmatch(filepath.Base(dir))
	if m == nil {
		t.Fatalf("%s: release folders are named v1NN", dir)
	}
	minor, _ := strconv.Atoi(m[1])
	return podstatus.Version{Major: 1, Minor: minor}
}

// TestReleaseModules checks that every boundary release of podstatus has a
// module, that each module requires the k8s.io/kubernetes of its folder's
// release, and that all of them run the same main.go.
func TestReleaseModules(t *testing.T) {
	dirs := releaseDirs(t)
	have := map[podstatus.Version]bool{}
	var first []byte
	for _, dir := range dirs {
		v := releaseOf(t, dir)
		have[v] = true
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile(fmt.Sprintf(`(?m)^(require )?\s*k8s\.io/kubernetes v1\.%d\.\d+\s*$`, v.Minor))
		if !want.Match(mod) {
			t.Errorf("%s/go.mod does not require k8s.io/kubernetes v1.%d", dir, v.Minor)
		}
		src, err := os.ReadFile(filepath.Join(dir, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = src
		} else if !bytes.Equal(src, first) {
			t.Errorf("%s/main.go differs from %s/main.go", dir, dirs[0])
		}
	}
	for _, v := range podstatus.PrinterReleases {
		// The newest boundary release is checked by TestAgainstUpstream,
		// whose k8s.io/kubernetes is that release or newer.
		if v == podstatus.PrinterReleases[len(podstatus.PrinterReleases)-1] && !upstreamVersion.Less(v) {
			continue
		}
		if !have[v] {
			t.Errorf("boundary release %s has no module under releases/", v)
		}
	}
}

// TestAgainstReleases runs the upstream printer of every boundary release
// (built from its module under releases/) on random pods and compares it with
// podstatus.Compute at that release. The pods go through JSON, as an API
// server of that release would have stored them: fields it does not know
// (restartable init containers before 1.28) are dropped on its side.
func TestAgainstReleases(t *testing.T) {
	n := *releasePods
	if n == 0 {
		n = *count
	}
	for _, dir := range releaseDirs(t) {
		v := releaseOf(t, dir)
		t.Run(v.String(), func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "printer")
			build := exec.Command("go", "build", "-o", bin, ".")
			build.Dir = dir
			build.Env = append(os.Environ(), "GOWORK=off")
			start := time.Now()
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("building the %s printer: %v\n%s", v, err, out)
			}
			t.Logf("built the %s printer in %s", v, time.Since(start).Round(time.Second))
			comparePrinter(t, bin, v, n)
		})
	}
}

func comparePrinter(t *testing.T, bin string, v podstatus.Version, n int) {
	// Every generated time is Now minus whole seconds and a half: with Now
	// on a half second, each one is a whole second and survives RFC 3339.
	now := time.Unix(time.Now().Unix(), 500_000_000)
	g := NewGenerator(*seed, now)
	pods := make([]*corev1.Pod, n)
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for i := range pods {
		data, err := json.Marshal(g.Pod(i))
		if err != nil {
			t.Fatal(err)
		}
		var pod corev1.Pod
		if err := json.Unmarshal(data, &pod); err != nil {
			t.Fatal(err)
		}
		pods[i] = &pod
		if err := enc.Encode(map[string]any{"now": now, "pod": json.RawMessage(data)}); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s printer: %v\n%s", v, err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	var diffs []difference
	kinds := map[string]int{}
	i := 0
	for ; sc.Scan(); i++ {
		if i >= n {
			t.Fatalf("%s printer printed more rows than pods", v)
		}
		var up Columns
		if err := json.Unmarshal(sc.Bytes(), &up); err != nil {
			t.Fatal(err)
		}
		ours := Ours(pods[i], now, v)
		if up != ours {
			diffs = append(diffs, difference{pods[i], up, ours})
			switch {
			case up[1] != ours[1]:
				kinds[fmt.Sprintf("STATUS %s (upstream) vs %s (ours)", up[1], ours[1])]++
			case up[0] != ours[0]:
				kinds["READY"]++
			case up[2] != ours[2]:
				kinds["RESTARTS"]++
			default:
				kinds["AGE"]++
			}
		}
	}
	if i != n {
		t.Fatalf("%s printer printed %d rows for %d pods", v, i, n)
	}
	t.Logf("%s: %d pods (seed %d), %d differ", v, n, *seed, len(diffs))
	if len(diffs) == 0 {
		return
	}
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %4d × %s", kinds[k], k)
	}
	var b strings.Builder
	for i, d := range diffs {
		if i == 10 {
			fmt.Fprintf(&b, "... and %d more\n", len(diffs)-10)
			break
		}
		y, _ := yaml.Marshal(d.pod)
		fmt.Fprintf(&b, "--- %s\n    upstream: %q\n    ours:     %q\n%s\n", d.pod.Name, d.up, d.ours, y)
	}
	t.Errorf("podstatus at %s differs from that release's printer on %d of %d pods; first ones:\n%s", v, len(diffs), n, b.String())
}
