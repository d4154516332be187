package serve

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/report"
	"k8s.io/apimachinery/pkg/labels"
)

// ---- get ----

// GetIn selects objects of one kind.
type GetIn struct {
	Kind      string `json:"kind" jsonschema:"the resource, as kubectl names it: pods, deployments.apps, clusteroperators.config.openshift.io, Pod, node, ..."`
	Namespace string `json:"namespace,omitempty" jsonschema:"the namespace; empty for cluster-scoped kinds or for every namespace"`
	Name      string `json:"name,omitempty" jsonschema:"one object by name"`
	Selector  string `json:"selector,omitempty" jsonschema:"a label selector (app=web,tier!=db); pods, nodes and namespaces carry labels"`
	Output    string `json:"output,omitempty" jsonschema:"table (default) or yaml: the object's own text as gathered"`
	Limit     int    `json:"limit,omitempty"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"the next value of an earlier answer, to page on"`
}

// GetOut is the objects found, with what the gather can say of the rest.
type GetOut struct {
	Kind string `json:"kind"`
	// Coverage is "found", "absent" (its complete list was gathered and
	// does not hold it), "not gathered" (nothing of the kind was gathered
	// there: absence proves nothing) or "filtered" (the source lists only
	// some objects of the kind).
	Coverage string      `json:"coverage"`
	Matched  int         `json:"matched"`
	Items    []ObjectOut `json:"items"`
	Next     string      `json:"next,omitempty"`
	Note     string      `json:"note,omitempty"`
}

// ObjectOut is one object: its identity, where it was read, a table row
// and, with output=yaml, its text.
type ObjectOut struct {
	Kind      string            `json:"kind"`
	Namespace string            `json:"namespace,omitempty"`
	Name      string            `json:"name"`
	Path      string            `json:"path"`
	Line      int               `json:"line"`
	Row       map[string]string `json:"row,omitempty" jsonschema:"kubectl get columns for pods and nodes"`
	Labels    []string          `json:"labels,omitempty"`
	Keys      []string          `json:"keys,omitempty" jsonschema:"data key names of a ConfigMap or Secret (never values)"`
	Text      string            `json:"text,omitempty" jsonschema:"the object's lines as gathered (output=yaml)"`
	// Lines is the span of Text in the file: "12-80".
	Lines string `json:"lines,omitempty"`
	// Truncated says Text was cut at the answer budget; source pages on.
	Truncated bool   `json:"truncated,omitempty"`
	TextNote  string `json:"textNote,omitempty"`
}

// resolveKind finds the store's kind for what a user calls it: "pods",
// "pod", "Pod", "deployments.apps", "deployment", "apps/deployments".
func (s *Server) resolveKind(name string) (model.Kind, error) {
	if name == "" {
		return model.Kind{}, errors.New("give a kind, such as pods, nodes or deployments.apps")
	}
	lower := strings.ToLower(name)
	if full, ok := model.ShortNames[lower]; ok {
		lower = full
	}
	want := model.ParseKind(lower)
	var kinds []model.Kind
	for _, ks := range s.in.Store.Summary() {
		kinds = append(kinds, ks.Kind)
	}
	gathered := len(kinds)
	for _, k := range model.KnownKinds() {
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	forms := func(r string) []string { return []string{r, r + "s", r + "es", strings.TrimSuffix(r, "y") + "ies"} }
	var hits []model.Kind
	for _, k := range kinds {
		if want.Group != "" && k.Group != want.Group {
			continue
		}
		if slices.Contains(forms(want.Resource), k.Resource) {
			hits = append(hits, k)
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) > 1:
		// The core group wins, as kubectl's short names do.
		for _, k := range hits {
			if k.Group == "" {
				return k, nil
			}
		}
		var names []string
		for _, k := range hits {
			names = append(names, k.String())
		}
		return model.Kind{}, fmt.Errorf("kind %q is ambiguous: %s", clip(name, 60), strings.Join(names, ", "))
	}
	if want.Group != "" && strings.Contains(want.Group, ".") {
		// A resource of a named API group (a custom resource): whether the
		// gather could hold it is not known here; coverage says what it holds.
		return want, nil
	}
	// Neither in the gather nor a kind Kubernetes or OpenShift knows by
	// that name: a typo, not a gap of the gather.
	var close []string
	for _, k := range kinds[:gathered] {
		if len(want.Resource) >= 3 && strings.HasPrefix(k.Resource, want.Resource[:3]) {
			close = append(close, k.String())
		}
	}
	msg := fmt.Sprintf("no kind %q: give the resource as kubectl names it (pods, nodes, deployments.apps, clusteroperators.config.openshift.io, or a short name such as cm, pvc, co)", clip(name, 60))
	if len(close) > 0 {
		msg += "; the gather holds " + strings.Join(close[:min(len(close), 5)], ", ")
	}
	return model.Kind{}, errors.New(msg)
}

// Get is the get tool.
func (s *Server) Get(in GetIn) (*GetOut, error) {
	if err := checkArgs(map[string]string{"kind": in.Kind, "namespace": in.Namespace, "name": in.Name, "selector": in.Selector, "output": in.Output}); err != nil {
		return nil, err
	}
	if in.Output != "" && in.Output != "table" && in.Output != "yaml" {
		return nil, fmt.Errorf("output %q: choose table or yaml", clip(in.Output, 20))
	}
	k, err := s.resolveKind(in.Kind)
	if err != nil {
		return nil, err
	}
	if k == model.Events {
		return nil, errors.New("events are answered by the events tool")
	}
	var sel labels.Selector
	if in.Selector != "" {
		if sel, err = labels.Parse(in.Selector); err != nil {
			return nil, fmt.Errorf("selector: %v", err)
		}
	}
	out := &GetOut{Kind: k.String()}
	var objs []*model.Object
	if in.Name != "" && in.Namespace != "" {
		o, cov := s.in.Store.Get(k, in.Namespace, in.Name)
		out.Coverage = cov.String()
		if o != nil {
			objs = []*model.Object{o}
		}
	} else {
		// No namespace: every namespace and the cluster scope (the store's
		// "" is the cluster scope only).
		ns := cmp.Or(in.Namespace, "*")
		var cov model.Coverage
		objs, cov = s.in.Store.List(k, ns)
		if in.Name != "" {
			all := objs
			objs = slices.DeleteFunc(slices.Clone(all), func(o *model.Object) bool { return o.Name != in.Name })
			if len(objs) == 0 && k == model.Nodes {
				// A node by its short name ("worker-1" for
				// "worker-1.example.com"), as journals and logs name hosts.
				objs = slices.DeleteFunc(slices.Clone(all), func(o *model.Object) bool { return model.HostKey(o.Name) != model.HostKey(in.Name) })
			}
			if len(objs) == 0 && cov == model.Found {
				cov = model.Absent
			}
		}
		out.Coverage = cov.String()
		if len(objs) > 0 {
			out.Coverage = model.Found.String()
		}
	}
	if sel != nil {
		kept := objs[:0:0]
		for _, o := range objs {
			if o.Labels != nil && sel.Matches(labels.Set(o.Labels)) {
				kept = append(kept, o)
			}
		}
		if len(objs) > 0 && len(kept) == 0 && !slices.ContainsFunc(objs, func(o *model.Object) bool { return o.Labels != nil }) {
			out.Note = fmt.Sprintf("the store keeps no labels of %s: a selector matches only pods, nodes and namespaces", k)
		}
		objs = kept
	}
	slices.SortFunc(objs, func(a, b *model.Object) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	out.Matched = len(objs)
	if out.Coverage == "not gathered" && len(objs) == 0 {
		out.Note = strings.TrimSpace(out.Note + fmt.Sprintf(" nothing of kind %s was gathered", k) + where(in.Namespace) + ": whether it exists is unknown")
	}
	budget := s.opt.AnswerBytes
	var items []ObjectOut
	for _, o := range objs {
		items = append(items, s.objectRow(o))
	}
	page, next, err := page(items, in.Cursor, in.Limit, budget)
	if err != nil {
		return nil, err
	}
	if in.Output == "yaml" {
		// The texts share what the rows leave of the budget: the page ends
		// before an item that has no room left (the first always has some).
		start, _ := parseCursor(in.Cursor)
		used := 0
		for i := range page {
			row, err := json.Marshal(page[i])
			if err != nil {
				return nil, err
			}
			left := budget - used - len(row)
			if i > 0 && left < minTextBytes {
				page, next = page[:i], cursorAt(start+i)
				break
			}
			s.objectText(&page[i], objs[start+i], max(left, minTextBytes))
			b, err := json.Marshal(page[i])
			if err != nil {
				return nil, err
			}
			used += len(b) + 1
		}
	}
	out.Items, out.Next = nonNil(page), next
	return report.Value(s.in.Redactor, out), nil
}

func where(ns string) string {
	if ns == "" {
		return ""
	}
	return " in namespace " + ns
}

// objectRow is o's identity, citation and table row.
func (s *Server) objectRow(o *model.Object) ObjectOut {
	out := ObjectOut{Kind: o.Kind.String(), Namespace: o.Namespace, Name: o.Name, Path: s.short(o.Source.Path), Line: o.Source.Line}
	var labels []string
	for _, k := range sortedKeys(o.Labels) {
		labels = append(labels, k+"="+o.Labels[k])
	}
	out.Labels = boundedList(labels, 20, "labels")
	out.Keys = boundedList(o.Keys, 0, "keys")
	return s.objectColumns(o, out)
}

// MaxListBytes bounds the labels, and the key names, one object row lists.
const MaxListBytes = 4 << 10

// boundedList returns at most max items of list (0: no count bound), each
// clipped to 256 bytes, within MaxListBytes, then "… N more <what>".
func boundedList(list []string, max int, what string) []string {
	var out []string
	used := 0
	for i, v := range list {
		v = clip(v, 256)
		if max > 0 && i == max || used+len(v) > MaxListBytes {
			return append(out, fmt.Sprintf("… %d more %s", len(list)-i, what))
		}
		used += len(v)
		out = append(out, v)
	}
	return out
}

// objectColumns adds the kubectl get columns of a pod or node to out.
func (s *Server) objectColumns(o *model.Object, out ObjectOut) ObjectOut {
	switch o.Kind {
	case model.Pods:
		if p := s.pods[o.Namespace+"/"+o.Name]; p != nil {
			out.Row = map[string]string{"READY": p.Ready, "STATUS": p.Status, "RESTARTS": p.Restarts, "AGE": p.Age, "NODE": p.Node}
		}
	case model.Nodes:
		for _, n := range s.in.Report.Nodes {
			if n.Name == o.Name {
				status := "NotReady" // kubectl's word for a Ready condition False or Unknown
				if n.Ready == "True" {
					status = "Ready"
				}
				out.Row = map[string]string{"STATUS": status, "ROLES": strings.Join(n.Roles, ","), "VERSION": n.KubeletVersion}
				break
			}
		}
	}
	return out
}

// objectText sets out.Text to o's lines as gathered, at most budget bytes.
func (s *Server) objectText(out *ObjectOut, o *model.Object, budget int) {
	if o.Kind == model.Secrets || o.Kind == model.ConfigMaps {
		out.TextNote = "the values of Secrets and ConfigMaps never leave this server; keys lists their names"
		return
	}
	lines, origin, err := s.fileLines(o.Source.Path)
	if err != nil {
		out.TextNote = err.Error()
		return
	}
	line := o.Source.Line
	if line == 0 {
		out.TextNote = "the line of this object in its file is not known (an item of a JSON list); use source on the path to read the file"
		return
	}
	from, to, ok := objectSpan(lines, line)
	if !ok {
		out.TextNote = fmt.Sprintf("line %d of %s does not begin an object", line, out.Path)
		return
	}
	var b strings.Builder
	for i := from; i <= to; i++ {
		l := clipRunes(lines[i-1], MaxLineRunes)
		if i == from && len(l) > budget {
			l = clip(l, budget) // one line longer than the whole budget
		}
		if b.Len()+len(l)+1 > budget && i > from {
			out.Truncated = true
			out.TextNote = fmt.Sprintf("cut at line %d of %d-%d (the answer budget); source with path %s and line %d pages on", i-1, from, to, out.Path, i)
			to = i - 1
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	out.Text, out.Lines = b.String(), fmt.Sprintf("%d-%d", from, to)
	if !out.Truncated {
		out.TextNote = origin
	}
}

// minTextBytes is the least budget an object's text is given in a get
// answer.
const minTextBytes = 512

// MaxLineRunes bounds one quoted line.
const MaxLineRunes = 4096

func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// fileLines returns the lines of a file of the gather (path as the model
// holds it) from the kept object files or, for a folder input, from the
// folder, with a note saying which; the error says why neither has it.
// The lines of Secret and ConfigMap objects are MaskedLine.
func (s *Server) fileLines(path string) ([]string, string, error) {
	if lines, origin, ok := s.cache.get(path); ok {
		return lines, origin, nil
	}
	if b, err := s.in.Gather.Kept.Read(path); err == nil {
		lines := splitLines(b)
		maskSecretObjects(b, lines)
		s.cache.put(path, lines, "from the object file kept at the read", len(b))
		return lines, "from the object file kept at the read", nil
	}
	if s.in.Reread != nil {
		release, _ := s.rereadSlot(context.Background())
		defer release()
		b, err := s.in.Reread(path)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %v", s.short(path), err)
		}
		lines := splitLines(b)
		maskSecretObjects(b, lines)
		s.cache.put(path, lines, "read from the input folder", len(b))
		return lines, "read from the input folder", nil
	}
	return nil, "", fmt.Errorf("%s was not kept: the archive is read once, and only object files within the kept budget are held (see overview kept)", s.short(path))
}

// ---- events ----

// EventsIn selects events; every filter is optional.
type EventsIn struct {
	Kind      string `json:"kind,omitempty" jsonschema:"the involved object's kind: Pod, Node, Deployment, ..."`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty" jsonschema:"the involved object's name"`
	Type      string `json:"type,omitempty" jsonschema:"Normal or Warning"`
	Reason    string `json:"reason,omitempty"`
	Text      string `json:"text,omitempty" jsonschema:"text the message contains (case-insensitive)"`
	Since     string `json:"since,omitempty" jsonschema:"RFC 3339 time: events that last happened at or after it"`
	Until     string `json:"until,omitempty" jsonschema:"RFC 3339 time: events that first happened at or before it"`
	Limit     int    `json:"limit,omitempty"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"the next value of an earlier answer, to page on"`
}

// EventsOut is a page of events, oldest first, with counts over all
// matched.
type EventsOut struct {
	// Matched counts the Event objects matched; Occurrences sums their
	// count (an Event object stands for every repeat of its reason and
	// message: count, or series.count).
	Matched     int        `json:"matched" jsonschema:"how many Event objects matched"`
	Occurrences int        `json:"occurrences" jsonschema:"the sum of the matched events' counts (an Event object stands for each repeat: count, series.count)"`
	ByReason    []countBy  `json:"byReason" jsonschema:"reasons of the matched events with the sum of their counts (occurrences, not Event objects), most first"`
	Items       []EventOut `json:"items"`
	Next        string     `json:"next,omitempty"`
	Note        string     `json:"note,omitempty"`
}

// EventOut is one event.
type EventOut struct {
	Time      *time.Time `json:"time,omitempty"`
	FirstTime *time.Time `json:"firstTime,omitempty"`
	Type      string     `json:"type"`
	Reason    string     `json:"reason"`
	Count     int        `json:"count"`
	Object    string     `json:"object" jsonschema:"the involved object, Kind/namespace/name"`
	Message   string     `json:"message"`
	Path      string     `json:"path"`
	Line      int        `json:"line"`
}

// parseWindow reads the since and until arguments, RFC 3339 times; an
// empty one is the zero time (no bound).
func parseWindow(since, until string) (from, to time.Time, err error) {
	for _, a := range []struct {
		name, v string
		t       *time.Time
	}{{"since", since, &from}, {"until", until, &to}} {
		if a.v == "" {
			continue
		}
		if *a.t, err = time.Parse(time.RFC3339, a.v); err != nil {
			return from, to, fmt.Errorf("%s %q: give an RFC 3339 time such as 2026-01-02T15:04:05Z", a.name, clip(a.v, 40))
		}
	}
	return from, to, nil
}

// Events is the events tool.
func (s *Server) Events(in EventsIn) (*EventsOut, error) {
	if err := checkArgs(map[string]string{"kind": in.Kind, "namespace": in.Namespace, "name": in.Name, "type": in.Type, "reason": in.Reason, "text": in.Text, "since": in.Since, "until": in.Until}); err != nil {
		return nil, err
	}
	since, until, err := parseWindow(in.Since, in.Until)
	if err != nil {
		return nil, err
	}
	text := strings.ToLower(in.Text)
	reasons := map[string]int{}
	var all []EventOut
	events := s.in.Gather.Events
	if in.Kind != "" && in.Name != "" {
		// The gather's index of events by involved object (kind as the
		// event spells it).
		kind := in.Kind
		for _, k := range []string{"Pod", "Node", "Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Job", "CronJob", "Service", "PersistentVolumeClaim", "Namespace"} {
			if strings.EqualFold(k, kind) {
				kind = k
			}
		}
		events = s.in.Gather.EventsOf(kind, in.Namespace, in.Name)
		if kind == "Pod" {
			events = nil
			if p := s.mpods[in.Namespace+"/"+in.Name]; p != nil {
				events = p.Events
			}
		}
	}
	for _, e := range events {
		o := e.Object
		ref := o.InvolvedObject
		if ref == nil {
			ref = &model.EventReference{}
		}
		last := e.When()
		first := o.FirstTimestamp.Time()
		if first.IsZero() {
			first = last
		}
		switch {
		case in.Kind != "" && !strings.EqualFold(ref.Kind, in.Kind),
			in.Namespace != "" && ref.Namespace != in.Namespace,
			in.Name != "" && ref.Name != in.Name,
			in.Type != "" && !strings.EqualFold(o.Type, in.Type),
			in.Reason != "" && o.Reason != in.Reason,
			text != "" && !strings.Contains(strings.ToLower(o.Message), text),
			!since.IsZero() && (last.IsZero() || last.Before(since)),
			!until.IsZero() && (first.IsZero() || first.After(until)):
			continue
		}
		ev := EventOut{Type: o.Type, Reason: o.Reason, Count: e.Count(), Message: clipRunes(o.Message, report.MaxEventMessageRunes),
			Object: ref.Kind + "/" + ref.Namespace + "/" + ref.Name, Path: s.short(e.Source.Path), Line: e.Source.Line}
		if ref.Namespace == "" {
			ev.Object = ref.Kind + "/" + ref.Name
		}
		if l := e.MessageLine(); l > 0 {
			ev.Line = l
		}
		if !last.IsZero() {
			ev.Time = &last
		}
		if !first.IsZero() && !first.Equal(last) {
			ev.FirstTime = &first
		}
		reasons[o.Reason] += ev.Count
		all = append(all, ev)
	}
	slices.SortStableFunc(all, func(a, b EventOut) int {
		switch {
		case a.Time == nil && b.Time == nil:
			return 0
		case a.Time == nil:
			return 1
		case b.Time == nil:
			return -1
		}
		return a.Time.Compare(*b.Time)
	})
	items, next, err := page(all, in.Cursor, in.Limit, s.opt.AnswerBytes)
	if err != nil {
		return nil, err
	}
	out := &EventsOut{Matched: len(all), ByReason: nonNil(counted(reasons, 20)), Items: nonNil(items), Next: next}
	for _, n := range reasons {
		out.Occurrences += n
	}
	if len(all) == 0 {
		cov := s.in.Store.Coverage(model.Events, in.Namespace)
		if in.Namespace != "" && cov == model.NotGathered {
			out.Note = "no events of namespace " + in.Namespace + " were gathered: their absence proves nothing"
		}
	}
	return report.Value(s.in.Redactor, out), nil
}
