package parser

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/insights"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/supportbundle"
)

// MaxCoverageFolders bounds the folders listed in Coverage.Unused and
// Coverage.Unplaced; the rest are summed in a last "… N more folders" entry.
const MaxCoverageFolders = 40

// usedLabels names what each member kind holds, in report order.
var usedLabels = []struct {
	kind  fileKind
	label string
}{
	{kindPodList, "pod lists"},
	{kindPod, "pod files"},
	{kindEventList, "event lists"},
	{kindNode, "node files"},
	{kindNodeList, "node lists"},
	{kindObjectList, "other object lists"},
	{kindObject, "other object files"},
	{kindClusterVersion, "ClusterVersion"},
	{kindClusterOperators, "ClusterOperator lists"},
	{kindInfrastructure, "Infrastructure"},
	{kindDNS, "DNS config"},
	{kindContainerLog, "container logs"},
	{kindServiceLog, "node journals (service logs)"},
	{kindNodeKubeletLog, "node journals (per node)"},
	{kindMustGather, ""}, // the must-gather reader's own labels (mustgather.Reader.Used)
	{kindSosHostname, "host name files"},
	{kindSosDate, "date files"},
	{kindSos, ""}, // the sosreport reader's own labels (sosreport.Reader.Used)
	{kindSniffedJournal, "node journals (found by content)"},
	// The Insights archive's and the support bundle's readers' own labels
	// (insights.Reader.Used, supportbundle.Reader.Used), at kindInsights's
	// place in bundleLabelOrder.
	{kindInsights, ""},
	{kindSupportBundle, ""},
}

// countMember counts a member as used, or by its folder for settleCoverage
// to file under Unused or Unplaced once the gather roots are known. It runs in
// the sequential pass.
func (b *builder) countMember(p string, c classified) {
	k := c.Kind
	switch k {
	case kindInstall:
		b.install.Count(c.Install.Kind)
		return
	case kindMustGather:
		b.mustgather.Count(c.MustGather.Kind)
		return
	case kindSos:
		b.sos.Count(c.Sos.Kind)
		return
	case kindInsights:
		b.insights.Count(c.Insights.Kind)
		return
	case kindSupportBundle:
		b.bundle.Count(c.Bundle.Kind)
		return
	}
	if k != kindOther {
		b.usedFiles[k]++
		return
	}
	b.otherDirs[path.Dir(p)]++
}

// countSniffed moves a member that countMember filed as unread, and that
// turned out to be a node journal by its content, to the journals read.
func (b *builder) countSniffed(p string) {
	d := path.Dir(p)
	if b.otherDirs[d] > 0 {
		b.otherDirs[d]--
		if b.otherDirs[d] == 0 {
			delete(b.otherDirs, d)
		}
	}
	b.usedFiles[kindSniffedJournal]++
}

// placeOthers files the members no part of the analysis reads: under Unused
// when they lie inside a gather root (or in a folder of it, such as
// monitoring/), or beside one (an image folder's parent holds timestamp and
// event-filter.html), else under Unplaced.
func (b *builder) placeOthers(roots []string) (unused, unplaced map[string]int) {
	unused, unplaced = map[string]int{}, map[string]int{}
	rootDirs := map[string]string{} // folder → its root
	beside := map[string]string{}
	for _, r := range roots {
		dir := dirKey(strings.TrimSuffix(r, "/"))
		rootDirs[dir] = r
		if top := gatherTop(r); top != dir {
			beside[top] = strings.TrimPrefix(top+"/", "./")
		}
	}
	for dir, n := range b.otherDirs {
		p := dir + "/f"
		if dir == "." {
			p = "f"
		}
		if root, ok := gatherRoot(p); ok {
			unused[unusedFolder(root, p[len(root):])] += n
			continue
		}
		if root, ok := enclosingRoot(dir, rootDirs); ok {
			unused[unusedFolder(root, p[len(root):])] += n
			continue
		}
		if r, ok := beside[dir]; ok {
			unused[r+"(files beside the gather root)"] += n
			continue
		}
		unplaced[unplacedFolder(p)] += n
	}
	return unused, unplaced
}

// enclosingRoot returns the root among rootDirs that holds the folder dir
// (dir itself or one of its parents).
func enclosingRoot(dir string, rootDirs map[string]string) (string, bool) {
	for d := dir; ; d = path.Dir(d) {
		if r, ok := rootDirs[d]; ok {
			return r, true
		}
		if d == "." || d == "/" {
			return "", false
		}
	}
}

// unusedFolder names the folder a member of a gather root is counted under:
// the root and the first folder below it, with two levels for sos_commands/
// (the plugin) and namespaces/ (any namespace, then its sub-folder).
func unusedFolder(root, rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) == 1 {
		return root + "(files in the gather root)"
	}
	switch parts[0] {
	case "sos_commands":
		return root + parts[0] + "/" + parts[1] + "/"
	case "namespaces":
		if len(parts) > 3 {
			return root + "namespaces/*/" + parts[2] + "/"
		}
		return root + "namespaces/*/"
	}
	return root + parts[0] + "/"
}

// unplacedFolder names the folder an unplaced member is counted under: its
// folder, cut to two levels.
func unplacedFolder(p string) string {
	dir := path.Dir(p)
	if dir == "." {
		return "(files at the top of the input)"
	}
	parts := strings.Split(dir, "/")
	if len(parts) > 2 {
		parts = parts[:2]
	}
	return strings.Join(parts, "/") + "/"
}

// alwaysKinds are listed in the coverage whether or not they were gathered.
var alwaysKinds = []model.Kind{model.Pods, model.Events, model.Nodes}

// readKinds are the kinds the analysis reads whatever the rule table.
var readKinds = []model.Kind{model.Pods, model.Events, model.Nodes, model.ConfigMaps, model.Secrets, model.Namespaces,
	{Group: "config.openshift.io", Resource: "clusterversions"}, {Group: "config.openshift.io", Resource: "clusteroperators"},
	{Group: "config.openshift.io", Resource: "infrastructures"}}

// settleCoverage fills g.Coverage once the store is frozen.
func (b *builder) settleCoverage(g *model.Gather) {
	c := &g.Coverage
	c.Cuts = b.settleCuts()
	labelled := map[fileKind]bool{}
	for _, u := range usedLabels {
		labelled[u.kind] = true
		switch u.kind {
		case kindMustGather:
			c.Used = append(c.Used, b.mustgather.Used()...)
			continue
		case kindSos:
			c.Used = append(c.Used, b.sos.Used()...)
			continue
		case kindInsights:
			c.Used = append(c.Used, inLabelOrder(bundleLabelOrder, b.insights.Used(), b.bundle.Used())...)
			continue
		case kindSupportBundle:
			continue // with kindInsights
		}
		if n := b.usedFiles[u.kind]; n > 0 {
			c.Used = append(c.Used, model.FileCount{What: u.label, Files: n})
		}
	}
	c.Used = append(c.Used, b.install.Used()...)
	// A kind of member without a label yet is still counted, never dropped.
	rest := 0
	for k, n := range b.usedFiles {
		if !labelled[k] {
			rest += n
		}
	}
	if rest > 0 {
		c.Used = append(c.Used, model.FileCount{What: "other files read", Files: rest})
	}
	c.ContainerLogs = b.usedFiles[kindContainerLog]
	unused, unplaced := b.placeOthers(g.Roots)
	c.Unused = folderCounts(unused)
	c.Unplaced = folderCounts(unplaced)

	byKind := map[model.Kind]*model.KindCoverage{}
	for _, ks := range g.Objects.Summary() {
		kc := &model.KindCoverage{Kind: ks.Kind.String(), Objects: ks.Objects, Namespaces: len(ks.ListedNamespaces), Cluster: ks.ClusterListed}
		switch {
		case ks.Filtered:
			kc.State = model.KindFiltered
		case ks.ClusterListed || len(ks.ListedNamespaces) > 0:
			kc.State = model.KindGathered
		case ks.Objects > 0:
			kc.State = model.KindFound
		default:
			kc.State = model.KindNotGathered
		}
		byKind[ks.Kind] = kc
	}
	if kc := byKind[model.Events]; kc != nil {
		kc.Objects = len(g.Events)
	}
	want := append([]model.Kind{}, alwaysKinds...)
	if b.decodeKinds != nil {
		for k := range b.decodeKinds {
			want = append(want, k)
		}
	}
	for _, k := range want {
		if byKind[k] == nil {
			byKind[k] = &model.KindCoverage{Kind: k.String(), State: model.KindNotGathered}
		}
	}
	used := map[model.Kind]bool{}
	for _, k := range readKinds {
		used[k] = true
	}
	if b.decodeKinds == nil {
		for k := range typedKinds {
			used[k] = true
		}
	}
	for k := range b.decodeKinds {
		used[k] = true
	}
	for k, kc := range byKind {
		kc.Used = used[k]
		c.Kinds = append(c.Kinds, *kc)
	}
	sort.Slice(c.Kinds, func(i, j int) bool { return c.Kinds[i].Kind < c.Kinds[j].Kind })
}

// folderCounts sorts folder counts by folder and bounds them.
func folderCounts(m map[string]int) []model.FileCount {
	out := make([]model.FileCount, 0, len(m))
	for _, f := range sortedKeys(m) {
		out = append(out, model.FileCount{What: f, Files: m[f]})
	}
	if len(out) > MaxCoverageFolders {
		rest := 0
		for _, fc := range out[MaxCoverageFolders:] {
			rest += fc.Files
		}
		n := len(out) - MaxCoverageFolders
		out = append(out[:MaxCoverageFolders], model.FileCount{What: fmt.Sprintf("… %d more folders", n), Files: rest})
	}
	return out
}

// NothingError is returned by Load when nothing analysable was read from the
// input: no pods, nodes, events, journal lines, container logs or objects. It
// says how many files were read, which layouts (if any) were recognised and
// where the files lay, and names every layout the reader knows, so the user
// sees what was looked for. errors.Is(err, ErrNoGather) is true.
type NothingError struct {
	Files    int
	Layouts  []model.Layout
	Unplaced []model.FileCount
	// Problems are the first problems met (a pods.yaml that did not decode).
	Problems []model.Problem
}

// KnownLayouts describes every layout the reader recognises and what in it
// is read, one line each, in the words of NothingError.
var KnownLayouts = []string{
	"must-gather (oc adm must-gather): <image folder>/namespaces/<ns>/core/pods.yaml, events.yaml, cluster-scoped-resources/, host_service_logs/, nodes/<node>/, timestamp",
	"inspect (oc adm inspect): namespaces/<ns>/core/*.yaml, namespaces/<ns>/pods/<pod>/, cluster-scoped-resources/",
	"namespace folder: one namespaces/<ns> folder given as PATH (core/pods.yaml or pods/)",
	"sosreport (sos report on a node): sos_commands/kubernetes/ kubectl JSON lists, sos_commands/crio/crictl_*, sos_commands/*/journalctl_*, hostname, date",
	"Insights Operator archive: config/pod/<ns>/<pod>.json, config/node/, events/<ns>.json",
	"support bundle (troubleshoot.sh): cluster-resources/pods/<ns>.json, cluster-resources/events/, cluster-resources/nodes.json, pod logs",
	"pod captures (kubectl get -o json): pods/*.json, events/*.json, nodes.json",
	"install log bundle (openshift-install gather bootstrap): log-bundle-*/bootstrap/journals/, bootstrap/containers/, control-plane/<ip>/, resources/*.json",
	"node journals anywhere (journalctl short output, found by content): ceph_logs/journal_<node>/, nodes/<node>/*_logs_kubelet.gz, host_service_logs/",
}

func (e *NothingError) Is(target error) bool { return target == ErrNoGather }

func (e *NothingError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "nothing analysable in %d files read: no pods, nodes, events, node journals, container logs or objects", e.Files)
	if len(e.Layouts) > 0 {
		var ls []string
		for _, l := range e.Layouts {
			ls = append(ls, fmt.Sprintf("%s at %q", l.Kind, displayRoot(l.Root)))
		}
		fmt.Fprintf(&b, " (recognised %s, but nothing in it could be read)", strings.Join(ls, ", "))
	}
	if len(e.Unplaced) > 0 {
		var fs []string
		for i, f := range e.Unplaced {
			if i == 5 {
				fs = append(fs, fmt.Sprintf("… %d more", len(e.Unplaced)-5))
				break
			}
			fs = append(fs, fmt.Sprintf("%s (%d)", f.What, f.Files))
		}
		fmt.Fprintf(&b, "; files found in: %s", strings.Join(fs, ", "))
	}
	for i, p := range e.Problems {
		if i == 3 {
			fmt.Fprintf(&b, "\n  … and %d more problems", len(e.Problems)-3)
			break
		}
		fmt.Fprintf(&b, "\nproblem: %s: %s", p.Path, nodelog.Text([]byte(p.Error)))
	}
	b.WriteString("\nlooked for:")
	for _, l := range KnownLayouts {
		b.WriteString("\n  - " + l)
	}
	return b.String()
}

func displayRoot(r string) string {
	if r == "" {
		return "./"
	}
	return r
}

// nothingError describes an input without anything analysable; g is nil when
// no gather root was recognised at all.
func (b *builder) nothingError(g *model.Gather) error {
	e := &NothingError{Files: b.g.Files}
	for _, p := range b.g.Problems {
		if p.Path != "timestamp" { // the gather time matters only with something to date
			e.Problems = append(e.Problems, p)
		}
	}
	var roots []string
	if g != nil {
		e.Layouts = g.Layouts
		roots = g.Roots
	}
	unused, unplaced := b.placeOthers(roots)
	for k, v := range unused {
		unplaced[k] += v
	}
	e.Unplaced = folderCounts(unplaced)
	return e
}

// bundleLabelOrder is the order in which the report lists the members the
// Insights archive's and the support bundle's readers read themselves, the
// order it has listed them in since they were kinds of the load.
var bundleLabelOrder = []string{supportbundle.EventListsLabel, insights.ClusterOperatorLabel, supportbundle.PodCapturesLabel}

// inLabelOrder joins the coverage counts of several readers, ordered by
// their place in order (labels not in it last, as they come).
func inLabelOrder(order []string, lists ...[]model.FileCount) []model.FileCount {
	var out []model.FileCount
	for _, l := range lists {
		out = append(out, l...)
	}
	rank := func(what string) int {
		if i := slices.Index(order, what); i >= 0 {
			return i
		}
		return len(order)
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].What) < rank(out[j].What) })
	return out
}
