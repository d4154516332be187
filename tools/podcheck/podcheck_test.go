package podcheck

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/mgtriage/mgtriage/parser/podstatus"
)

var (
	count = flag.Int("pods", 20000, "number of random pods")
	seed  = flag.Uint64("seed", 20261120, "random seed")
)

// upstreamVersion is the release of k8s.io/kubernetes this module builds
// against (see go.mod).
var upstreamVersion = podstatus.Version{Major: 1, Minor: 37}

type difference struct {
	pod      *corev1.Pod
	up, ours Columns
}

func TestAgainstUpstream(t *testing.T) {
	g := NewGenerator(*seed, time.Now())
	var diffs []difference
	columnDiffs := [4]int{}
	kinds := map[string]int{}
	for i := 0; i < *count; i++ {
		// The upstream printer reads the wall clock: build each pod
		// around the current instant so that only microseconds pass
		// between making it and printing it.
		now := time.Now()
		g.Now = now
		pod := g.Pod(i)
		up, err := Upstream(pod)
		if err != nil {
			t.Fatal(err)
		}
		ours := Ours(pod, now, upstreamVersion)
		if newest := Ours(pod, now, podstatus.Version{}); newest != ours {
			t.Errorf("%s: Version{} prints %v, 1.37 prints %v", pod.Name, newest, ours)
		}
		if up != ours {
			diffs = append(diffs, difference{pod, up, ours})
			kinds[fmt.Sprintf("STATUS %s (upstream) vs %s (ours)", up[1], ours[1])]++
			for c := range up {
				if up[c] != ours[c] {
					columnDiffs[c]++
				}
			}
		}
	}
	t.Logf("%d pods (seed %d), %d differ; by column READY=%d STATUS=%d RESTARTS=%d AGE=%d",
		*count, *seed, len(diffs), columnDiffs[0], columnDiffs[1], columnDiffs[2], columnDiffs[3])
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
		if i == 20 {
			fmt.Fprintf(&b, "... and %d more\n", len(diffs)-20)
			break
		}
		y, err := yaml.Marshal(d.pod)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "--- %s\n    upstream: %q\n    ours:     %q\n%s\n", d.pod.Name, d.up, d.ours, y)
	}
	t.Errorf("podstatus differs from the upstream printer on %d of %d pods; first ones:\n%s", len(diffs), *count, b.String())
}
