package parser

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

// phantomPod is one pod item of a pods.yaml in oc's block form; "" leaves
// the key out.
func phantomPod(ns, name string) string {
	s := "- apiVersion: v1\n  kind: Pod\n"
	if ns != "" || name != "" {
		s += "  metadata:\n"
	}
	if name != "" {
		s += "    name: " + name + "\n"
	}
	if ns != "" {
		s += "    namespace: " + ns + "\n"
	}
	return s + "  spec:\n    containers:\n    - image: quay.io/shop/web:1\n      name: web\n  status:\n    phase: Running\n"
}

func phantomEvent(ns, reason string) string {
	s := "- apiVersion: v1\n  kind: Event\n"
	if ns != "" {
		s += "  metadata:\n    name: web.1\n    namespace: " + ns + "\n"
	}
	if reason != "" {
		s += "  involvedObject:\n    kind: Pod\n    name: web-1\n    namespace: shop\n  message: m\n  reason: " + reason + "\n  type: Warning\n"
	}
	return s
}

// TestPhantomItems: a list item without the kind, name or namespace that
// a subject needs is a gather problem naming the file and the item's line,
// never a pod or an event; a list that breaks off keeps the items before
// the break and says which are lost; a tab-indented list is said and read
// with a tab as two columns.
func TestPhantomItems(t *testing.T) {
	const head = "apiVersion: v1\nitems:\n"
	const pods, events = "namespaces/shop/core/pods.yaml", "namespaces/shop/core/events.yaml"
	tabbed := func(s string) string {
		// oc's two-space indentation inside each item as tabs.
		var out []string
		for _, l := range strings.Split(s, "\n") {
			n := len(l) - len(strings.TrimLeft(l, " "))
			if n >= 2 && !strings.HasPrefix(strings.TrimLeft(l, " "), "- ") || n >= 4 {
				l = strings.Repeat("\t", n/2) + l[n:]
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	for _, tt := range []struct {
		name         string
		file, body   string
		wantSubjects []string
		wantProblems []string
	}{
		{
			name:         "no metadata",
			file:         pods,
			body:         head + phantomPod("", "") + phantomPod("shop", "web-1") + "kind: PodList\n",
			wantSubjects: []string{"pod shop/web-1 line 11"},
			wantProblems: []string{pods + ": item at line 3: a Pod without metadata.name and metadata.namespace: not read as a pod"},
		},
		{
			name:         "no name",
			file:         pods,
			body:         head + phantomPod("shop", "") + phantomPod("shop", "web-1") + "kind: PodList\n",
			wantSubjects: []string{"pod shop/web-1 line 13"},
			wantProblems: []string{pods + ": item at line 3: a Pod without metadata.name: not read as a pod"},
		},
		{
			name:         "no namespace on a namespaced kind",
			file:         pods,
			body:         head + phantomPod("shop", "web-1") + phantomPod("", "web-2") + "kind: PodList\n",
			wantSubjects: []string{"pod shop/web-1 line 3"},
			wantProblems: []string{pods + ": item at line 14: a Pod without metadata.namespace: not read as a pod"},
		},
		{
			name:         "another kind in a pod list",
			file:         pods,
			body:         head + strings.Replace(phantomPod("shop", "web-0"), "kind: Pod", "kind: Service", 1) + phantomPod("shop", "web-1") + "kind: PodList\n",
			wantSubjects: []string{"pod shop/web-1 line 14"},
			wantProblems: []string{pods + ": item at line 3: a Service, not a Pod: not read as a pod"},
		},
		{
			// Each item's keys indented with tabs: YAML reads the first
			// item's apiVersion as one scalar swallowing the rest, and
			// the old split ended the list at the first tab.
			name:         "tab-indented list",
			file:         pods,
			body:         head + tabbed(phantomPod("shop", "web-1")+phantomPod("shop", "web-2")) + "kind: PodList\n",
			wantSubjects: []string{"pod shop/web-1 line 3", "pod shop/web-2 line 14"},
			wantProblems: []string{
				pods + ": item at line 3: tab used for indentation at line 4 (YAML forbids it); read with each tab as two columns: check its fields against the cluster",
				pods + ": item at line 14: tab used for indentation at line 15 (YAML forbids it); read with each tab as two columns: check its fields against the cluster",
			},
		},
		{
			// A tab where the item's text needs four columns: read as
			// two, the item has no name; the others are kept.
			name:         "tab-indented item that does not read",
			file:         pods,
			body:         head + phantomPod("shop", "web-1") + strings.Replace(phantomPod("shop", "web-2"), "    name: web-2\n    namespace: shop\n", "\tname: web-2\n\tnamespace: shop\n", 1) + phantomPod("shop", "web-3") + "kind: PodList\n",
			wantSubjects: []string{"pod shop/web-1 line 3", "pod shop/web-3 line 25"},
			wantProblems: []string{pods + ": item at line 14: tab used for indentation at line 17 (YAML forbids it); read with a tab as two columns, a Pod without metadata.name and metadata.namespace: not read as a pod"},
		},
		{
			name:         "list broken mid-way, at column 0",
			file:         pods,
			body:         head + phantomPod("shop", "web-1") + "<<< merge conflict\n" + phantomPod("shop", "web-2") + phantomPod("shop", "web-3") + "kind: PodList\n",
			wantSubjects: []string{"pod shop/web-1 line 3"},
			wantProblems: []string{pods + ": line 14: the list breaks off here (a line that is neither an item nor a key of the list); the 1 item before it read, the 2 items from line 14 on not read"},
		},
		{
			name:         "list broken mid-way, items indented",
			file:         pods,
			body:         head + indent2(phantomPod("shop", "web-1")) + "  <<< merge conflict\n" + indent2(phantomPod("shop", "web-2")) + "kind: PodList\n",
			wantSubjects: []string{"pod shop/web-1 line 3"},
			wantProblems: []string{pods + ": line 14: the list breaks off here (error converting YAML to JSON: yaml: line 15: could not find expected ':'); the 1 item before it read, the 1 item from line 14 on not read"},
		},
		{
			// A JSON list's items have the line of their '{' (all on line 1 here); a problem names the item by its place.
			name:         "JSON list",
			file:         pods,
			body:         `{"apiVersion":"v1","kind":"PodList","items":[{"apiVersion":"v1","kind":"Pod"},{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"shop"}}]}`,
			wantSubjects: []string{"pod shop/web-1 line 1"},
			wantProblems: []string{pods + ": item 1 of the list: a Pod without metadata.name and metadata.namespace: not read as a pod"},
		},
		{
			name:         "node list with a phantom item",
			file:         "cluster-scoped-resources/core/nodes.yaml",
			body:         head + "- apiVersion: v1\n  kind: Node\n  status: {}\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: worker-0\nkind: NodeList\n",
			wantSubjects: []string{"node worker-0 line 6"},
			wantProblems: []string{"cluster-scoped-resources/core/nodes.yaml: item at line 3: a Node without metadata.name: not read as a node"},
		},
		{
			name:         "events list with a phantom item",
			file:         events,
			body:         head + phantomEvent("shop", "BackOff") + phantomEvent("", "") + phantomEvent("shop", "") + phantomEvent("shop", "Unhealthy") + "kind: EventList\n",
			wantSubjects: []string{"event BackOff line 3", "event Unhealthy line 22"},
			wantProblems: []string{
				events + ": item at line 15: an Event without metadata.namespace: not read as an event",
				events + ": item at line 17: an Event without reason, message or involvedObject: not read as an event",
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "must-gather.local.1")
			writeTree(t, dir, map[string]string{
				"timestamp": "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n",
				tt.file:     tt.body,
			})
			g, err := Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			var subjects, problems []string
			for _, p := range g.Pods {
				subjects = append(subjects, fmt.Sprintf("pod %s line %d", p.Key(), p.Source.Line))
			}
			for _, n := range g.Nodes {
				subjects = append(subjects, fmt.Sprintf("node %s line %d", n.Object.Name, n.Source.Line))
			}
			for _, e := range g.Events {
				subjects = append(subjects, fmt.Sprintf("event %s line %d", e.Object.Reason, e.Source.Line))
			}
			for _, p := range g.Problems {
				problems = append(problems, p.Path+": "+p.Error)
			}
			if d := cmp.Diff(tt.wantSubjects, subjects); d != "" {
				t.Errorf("subjects (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantProblems, problems); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
		})
	}
}

func indent2(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

// TestLimitsCut: a list over the file limit is decoded up to it (the item
// cut there and the rest said lost), the pods over the pod limit are not
// read; both are model.Cuts beside their gather problem. The limits are
// lowered through Options, an analogue of a 703 MiB events.yaml.
func TestLimitsCut(t *testing.T) {
	const events = "namespaces/shop/core/events.yaml"
	var ev strings.Builder
	ev.WriteString("apiVersion: v1\nitems:\n")
	for range 2000 {
		ev.WriteString(phantomEvent("shop", "BackOff"))
	}
	ev.WriteString("kind: EventList\n")
	pods := "apiVersion: v1\nitems:\n" + phantomPod("shop", "web-1") + phantomPod("shop", "web-2") + phantomPod("shop", "web-3") + "kind: PodList\n"
	dir := filepath.Join(t.TempDir(), "must-gather.local.1")
	writeTree(t, dir, map[string]string{
		"timestamp":                      "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n",
		events:                           ev.String(),
		"namespaces/shop/core/pods.yaml": pods,
	})
	const limit = 96 << 10 // a few hundred events whole within it, the next cut
	size := len(phantomEvent("shop", "BackOff"))
	whole := (limit - len("apiVersion: v1\nitems:\n")) / size
	g, err := LoadWith(context.Background(), dir, Options{MaxObjectFileBytes: limit, MaxPods: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(g.Events), whole; got != want {
		t.Errorf("%d events read, want %d (those whole within the limit)", got, want)
	}
	cutLine := 3 + 12*whole
	var problems []string
	for _, p := range g.Problems {
		problems = append(problems, p.Path+": "+p.Error)
	}
	wantProblems := []string{
		fmt.Sprintf("%s: line %d: the file is read only up to the limit for one object file: the item at line %d, cut there, and every item after it are not read", events, cutLine, cutLine),
		"namespaces/shop/core/pods.yaml: more than 2 pods in the gather: the pods beyond the limit are not analysed (from namespaces/shop/core/pods.yaml line 25 on)",
	}
	if d := cmp.Diff(wantProblems, problems); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
	wantCuts := []model.Cut{
		{Count: model.CutEvents, Path: events, Read: model.CutInPart, Text: "1 events file of 378 KiB read only to the 96 KiB limit"},
		{Count: model.CutPods, Path: "namespaces/shop/core/pods.yaml", Read: model.CutInPart, Text: "pods over the 2-pod limit not read"},
	}
	if d := cmp.Diff(wantCuts, g.Coverage.Cuts); d != "" {
		t.Errorf("cuts (-want +got):\n%s", d)
	}
}
