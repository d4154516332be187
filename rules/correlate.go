package rules

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// GroupBy values: what pods a rule's findings are merged by.
const (
	GroupByOwner    = "owner"    // the same controller: Deployment (through its ReplicaSets), StatefulSet, DaemonSet, Job
	GroupByRegistry = "registry" // the same image registry host and the same cause
	GroupByNode     = "node"     // the same node and the same cause
	GroupByNone     = "none"
)

var groupByValues = map[string]bool{"": true, GroupByOwner: true, GroupByRegistry: true, GroupByNode: true, GroupByNone: true}

// groupKey returns what correlation merges this rule's finding on pod p by,
// or "" when it stands alone.
func (r *Rule) groupKey(p *model.Pod, v Vars) string {
	if p == nil {
		return ""
	}
	switch r.GroupBy {
	case GroupByNone:
		return ""
	case GroupByRegistry:
		return "registry " + registryHost(v["Image"]) + " (" + nodelog.Signature(v["Cause"]) + ")"
	case GroupByNode:
		if p.Object.Spec.NodeName == "" {
			return ""
		}
		return "node " + p.Object.Spec.NodeName + " (" + nodelog.Signature(v["Cause"]) + ")"
	}
	if w := workload(p); w != "" {
		return "workload " + p.Object.Namespace + "/" + w
	}
	return ""
}

// workload names the controller that owns the pod: a ReplicaSet's pods count
// as their Deployment's (the ReplicaSet name less its pod-template-hash).
func workload(p *model.Pod) string {
	kind, name := model.PodController(&p.Object)
	if kind == "" || kind == "Node" {
		return "" // static pods: one per node, nothing to share
	}
	return kind + "/" + name
}

// registryHost returns the registry host of an image reference
// ("quay.io/a/b:1" → "quay.io"; "nginx" → "docker.io").
func registryHost(image string) string {
	first, _, found := strings.Cut(image, "/")
	if !found || (!strings.ContainsAny(first, ".:") && first != "localhost") {
		return "docker.io"
	}
	return first
}

// Correlate merges findings of the same rule that share a group key (same
// workload, registry or node, see Rule.GroupBy) into one finding that lists
// the others in Also, and links node findings to the pod findings on that
// node whose category the node rule explains (Rule.Explains). The input order
// does not matter.
func Correlate(in []Finding) []Finding {
	sortFindings(in)
	var out []Finding
	index := map[string]int{}
	ownGaps := map[int]bool{} // merged findings whose Gaps no other finding shares
	for _, f := range in {
		if f.groupKey == "" {
			out = append(out, f)
			continue
		}
		k := f.Rule.ID + "\x00" + f.groupKey
		if i, ok := index[k]; ok {
			out[i].Also = append(out[i].Also, Member{RuleID: f.Rule.ID, Pod: f.Pod, Container: f.Container})
			// What the member lacks blocks the merged finding as much. The
			// first finding's Gaps may share their array with other
			// findings: copied once, then appended to (a copy per member
			// made this quadratic in a workload's pods).
			if len(f.Gaps) > 0 {
				if !ownGaps[i] {
					out[i].Gaps = slices.Clone(out[i].Gaps)
					ownGaps[i] = true
				}
				out[i].Gaps = append(out[i].Gaps, f.Gaps...)
			}
			continue
		}
		index[k] = len(out)
		f.GroupedBy = groupLabel(f.groupKey)
		out = append(out, f)
	}
	for i := range out {
		if len(out[i].Also) == 0 {
			out[i].GroupedBy = ""
			continue
		}
		out[i].Hint += coverText(&out[i])
	}
	explain(out)
	return out
}

// explain links each node finding to the pod findings on its node that its
// rule explains, raises its severity to theirs, and tells the pod findings.
func explain(fs []Finding) {
	var onHost map[string][]int // pod findings by their node's HostKey, in order; built on first need
	for i := range fs {
		nf := &fs[i]
		if nf.Node == nil || len(nf.Rule.Explains) == 0 {
			continue
		}
		if onHost == nil {
			onHost = map[string][]int{}
			for j := range fs {
				if p := fs[j].Pod; p != nil && p.Object.Spec.NodeName != "" {
					k := model.HostKey(p.Object.Spec.NodeName)
					onHost[k] = append(onHost[k], j)
				}
			}
		}
		name := nf.Node.Object.Name
		if name == "" {
			continue // HostMatch matches no empty name
		}
		for _, j := range onHost[model.HostKey(name)] {
			pf := &fs[j]
			if !contains(nf.Rule.Explains, pf.Rule.Category) {
				continue
			}
			members := append([]Member{{RuleID: pf.Rule.ID, Pod: pf.Pod, Container: pf.Container}}, pf.Also...)
			nf.Explains = append(nf.Explains, members...)
			if severityRank(pf.Severity) < severityRank(nf.Severity) {
				nf.Severity = pf.Severity
			}
			pf.Hint += fmt.Sprintf(" Node %s shows a node-level cause that explains this: %s (rule %s).", name, nf.Title, nf.Rule.ID)
		}
		if n := len(nf.Explains); n > 0 {
			sort.SliceStable(nf.Explains, func(a, b int) bool { return nf.Explains[a].Pod.Key() < nf.Explains[b].Pod.Key() })
			nf.Hint += fmt.Sprintf(" It explains %d pod finding%s on this node: %s.", n, plural(n), memberList(nf.Explains, 5))
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// groupLabel is a group key as a report says it: "registry quay.io",
// "node worker-1", "workload shop/Deployment/web", without the signature of
// the cause that the key also holds.
func groupLabel(key string) string {
	if i := strings.Index(key, " ("); i > 0 {
		return key[:i]
	}
	return key
}

// coverText says which other pods (and other containers of the finding's own
// pod) a merged finding covers, naming each pod once.
func coverText(f *Finding) string {
	seen := map[string]bool{f.Pod.Key(): true}
	var pods []Member
	var own []string
	for _, m := range f.Also {
		k := m.Pod.Key()
		if k == f.Pod.Key() {
			if m.Container != "" && m.Container != f.Container && !slices.Contains(own, m.Container) {
				own = append(own, m.Container)
			}
			continue
		}
		if !seen[k] {
			seen[k] = true
			pods = append(pods, m)
		}
	}
	cause := ""
	if strings.HasPrefix(f.groupKey, "registry ") || strings.HasPrefix(f.groupKey, "node ") {
		cause = " with the same error"
	}
	var b strings.Builder
	if n := len(pods); n > 0 {
		fmt.Fprintf(&b, " The same finding covers %d more pod%s of the same %s%s: %s.", n, plural(n), f.GroupedBy, cause, memberList(pods, 5))
	}
	if n := len(own); n > 0 {
		fmt.Fprintf(&b, " It also holds for container%s %s of this pod.", plural(n), strings.Join(own, ", "))
	}
	return b.String()
}

func memberList(ms []Member, max int) string {
	var names []string
	for i, m := range ms {
		if i == max {
			names = append(names, "and "+strconv.Itoa(len(ms)-max)+" more")
			break
		}
		names = append(names, m.Pod.Key())
	}
	return strings.Join(names, ", ")
}

// appliesTo reports whether the rule's OpenShift version range admits the
// cluster version ("4.14.3"); an unknown cluster version admits every rule.
func (r *Rule) appliesTo(clusterVersion string) bool {
	if r.OpenShift == "" || clusterVersion == "" {
		return true
	}
	v, ok := parseMinor(clusterVersion)
	if !ok {
		return true
	}
	for _, c := range strings.Fields(r.OpenShift) {
		ok, err := checkConstraint(c, v)
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// parseMinor reads "4.14.3" (or "4.14") as [4, 14].
func parseMinor(s string) ([2]int, bool) {
	parts := strings.SplitN(strings.TrimPrefix(s, "v"), ".", 3)
	if len(parts) < 2 {
		return [2]int{}, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minorText := parts[1]
	if i := strings.IndexFunc(minorText, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minorText = minorText[:i]
	}
	minor, err2 := strconv.Atoi(minorText)
	if err1 != nil || err2 != nil {
		return [2]int{}, false
	}
	return [2]int{major, minor}, true
}

// checkConstraint evaluates one constraint such as ">=4.12" against v.
func checkConstraint(c string, v [2]int) (bool, error) {
	for _, op := range []string{">=", "<=", ">", "<", "="} {
		rest, ok := strings.CutPrefix(c, op)
		if !ok {
			continue
		}
		w, ok := parseMinor(rest)
		if !ok {
			return false, fmt.Errorf("version %q is not MAJOR.MINOR", rest)
		}
		cmp := v[0]*1000 + v[1] - (w[0]*1000 + w[1])
		switch op {
		case ">=":
			return cmp >= 0, nil
		case "<=":
			return cmp <= 0, nil
		case ">":
			return cmp > 0, nil
		case "<":
			return cmp < 0, nil
		}
		return cmp == 0, nil
	}
	return false, fmt.Errorf("constraint %q needs one of >=, <=, >, <, =", c)
}
