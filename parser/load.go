package parser

import (
	"bytes"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgtriage/mgtriage/parser/insights"
	"github.com/mgtriage/mgtriage/parser/installbundle"
	"github.com/mgtriage/mgtriage/parser/internal/bufpool"
	"github.com/mgtriage/mgtriage/parser/internal/lit"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/mustgather"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/openshift"
	"github.com/mgtriage/mgtriage/parser/sosreport"
	"github.com/mgtriage/mgtriage/parser/supportbundle"
	corev1 "k8s.io/api/core/v1"
)

// ErrNoGather is what a *NothingError matches with errors.Is: the input
// holds nothing the analysis can read.
var ErrNoGather = errors.New("nothing analysable found")

// MaxObjectFileBytes bounds one YAML/JSON file read into memory. A larger
// List in YAML (pods.yaml, events.yaml, ...) is read up to it and its items
// whole within it are decoded (readListPrefix); any other larger file is
// skipped (before it is read, when its size is declared). Either is a
// Problem and a model.Cut.
const MaxObjectFileBytes = 192 << 20

// MaxPods bounds the pods decoded from the gather's lists; a larger gather
// (or a small compressed file that expands to one) is analysed up to it, with
// a Problem and a model.Cut. The largest production clusters run tens of thousands of pods.
const MaxPods = 50_000

// MaxObjects bounds the objects of other kinds (services, deployments,
// custom resources, ...) indexed in the store, whatever their files: a
// list of millions of tiny objects would otherwise hold gigabytes. The
// objects beyond it are not indexed, and the cut is said.
const MaxObjects = 1_000_000

// MaxLogBytes bounds what is read of one log once decompressed (a gzip bomb
// stops there with a Problem).
const MaxLogBytes = 4 << 30

// logKinds are the members streamed line by line rather than decoded whole.
var logKinds = map[fileKind]bool{kindContainerLog: true, kindServiceLog: true, kindNodeKubeletLog: true}

// streamed reports whether the member c is read line by line from its
// stream rather than read whole and decoded.
func streamed(c classified) bool {
	if c.Kind == kindInstall {
		return c.Install.Kind.Streamed()
	}
	return logKinds[c.Kind]
}

// limitedReader stops after left bytes and remembers that it did.
type limitedReader struct {
	r    io.Reader
	left int64
	hit  bool
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		l.hit = true
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// maxGroupsPerPod bounds the collapsed node-log groups kept for one pod.
const maxGroupsPerPod = 64

// Load reads the gather at input (a directory at or above one must-gather, or
// an archive of it) in one sequential pass and returns the model. Unreadable or
// malformed members become Problems; the run goes on. It returns ErrNotFound
// when input does not exist; a *NothingError (errors.Is ErrNoGather) and no
// Gather when nothing analysable was read; the Gather and a
// *SeveralGathersError when the input holds gathers that are not one
// cluster (combine.go); and the archive's error when the archive cannot be
// opened at all.
func Load(ctx context.Context, input string) (*model.Gather, error) {
	return LoadWith(ctx, input, Options{})
}

// Options tune LoadWith.
type Options struct {
	// OnRead, when set, is called with the number of bytes read from an
	// archive input as it is read (for a progress bar); it is not called for a
	// folder or a zip.
	OnRead func(n int64)
	// MaxReadBytes bounds the bytes read, decompressed, over the whole pass
	// (see DefaultMaxReadBytes for what counts); 0 means DefaultMaxReadBytes.
	MaxReadBytes int64
	// MaxMembers bounds the entries met by the walk; 0 means DefaultMaxMembers.
	MaxMembers int
	// Needs is what the run reads beyond the fixed load: the kinds the
	// object store decodes into typed objects (every other object is
	// indexed by its metadata alone) and the literals that widen the
	// node-log lines kept (see model.Needs). nil decodes every kind in
	// TypedKinds and keeps the fixed selection of lines.
	Needs *model.Needs
	// Part, when set, reads only the members of one part of an upload that
	// holds several clusters (SeveralGathersError.Parts, for --split): a
	// member is read when the gather it lies in (the longest of PartOf, the
	// error's Tops, that holds it) is one of Part.Tops, or when it lies in
	// none of them.
	Part   *Part
	PartOf []string
	// Stats, when set, receives how the input's compressed stream was
	// read (ReadStats); left zero for a folder, a zip or a plain tar.
	Stats *ReadStats
	// Live, when set, is kept up to date with the ClusterVersion, Nodes,
	// ClusterOperators and Pods as the pass decodes them, for a view that
	// reads it while the load runs (see Live). It changes nothing the load
	// returns.
	Live *Live
	// MaxObjectFileBytes and MaxPods lower MaxObjectFileBytes and MaxPods
	// when above 0 (a test's, or a small machine's): a list over the first
	// is decoded up to it, the pods over the second are not read, and
	// either is a model.Cut.
	MaxObjectFileBytes int64
	MaxPods            int
	// SkipDirs are folders that a folder input is walked without, unread
	// and uncounted (compared with os.SameFile, so any path to the folder
	// will do): the tool's own output folder when it lies inside the input.
	// Ignored for an archive.
	SkipDirs []string
	// KeepFiles, when above 0, keeps the object files the pass decodes
	// (model.KeptFiles) within that many compressed bytes, in
	// Gather.Kept, for a reader that quotes objects and lines after the
	// pass (analyze serve); 0 keeps none, at no cost.
	KeepFiles int64
	// inflateApart overrides inflateApartBytes when not 0 (negative: every
	// compressed log is inflated as it is read), for the tests of both ways.
	inflateApart int64
	// scribble makes the load's read-buffer pool overwrite every buffer
	// put back (bufpool.Pool.Scribble), for TestRecycledBuffersAreNotKept.
	scribble bool
}

// LoadWith is Load with options.
func LoadWith(ctx context.Context, input string, o Options) (*model.Gather, error) {
	// A load starts from a collected heap: what the caller let go before
	// it (the gather an earlier load of the same run gave) is returned
	// before this one grows, so the peak of a load is its own. On a fresh
	// heap the collection costs next to nothing.
	runtime.GC()
	b := newBuilder(input)
	b.ctx = ctx
	if o.Part != nil {
		b.inPart = partFilter(o.Part.Tops, o.PartOf)
	}
	b.bufs.Scribble(o.scribble)
	b.inflateApartBytes = o.inflateApart
	if o.MaxObjectFileBytes > 0 {
		b.maxObjectFileBytes = o.MaxObjectFileBytes
	}
	if o.MaxPods > 0 {
		b.maxPods = int64(o.MaxPods)
	}
	b.live = o.Live
	if o.KeepFiles > 0 {
		b.g.Kept = model.NewKeptFiles(o.KeepFiles)
	}
	if o.Needs != nil {
		b.decodeKinds = map[model.Kind]bool{}
		for _, k := range o.Needs.Decode {
			b.decodeKinds[k] = true
		}
		b.keep = newLineFilter(o.Needs.KeepLines)
		b.logMatch = newLineFilter(o.Needs.LogLines)
		for _, ns := range o.Needs.KeepLogsOf {
			if b.keepLogsOf == nil {
				b.keepLogsOf = map[string]bool{}
			}
			b.keepLogsOf[ns] = true
		}
	}
	input, b.nsFolder = namespaceFolderInput(input)
	visit := b.visit
	if b.nsFolder {
		// Seen as namespaces/<ns>/... so the usual paths apply.
		prefix := "namespaces/" + filepath.Base(input) + "/"
		visit = func(m Member) error { m.Path = prefix + m.Path; return b.visit(m) }
	}
	var faultMu sync.Mutex
	wo := walkOptions{onRead: o.OnRead, budget: &readBudget{limit: o.MaxReadBytes}, maxMembers: o.MaxMembers, bufs: b.bufs, stats: o.Stats, skipDirs: o.SkipDirs,
		fault: func(f model.StreamFault) {
			faultMu.Lock()
			defer faultMu.Unlock()
			if len(b.g.Faults) < model.MaxFaults {
				b.g.Faults = append(b.g.Faults, f)
			}
		}}
	if wo.budget.limit <= 0 {
		wo.budget.limit = DefaultMaxReadBytes
	}
	if wo.maxMembers <= 0 {
		wo.maxMembers = DefaultMaxMembers
	}
	b.budget = wo.budget
	b.startWorkers(max(1, runtime.GOMAXPROCS(0)))
	walkErr := walkInput(ctx, input, visit, func(name, why string) {
		b.problem(name, why)
	}, wo)
	b.stopWorkers()
	// The pass is over: what only reading needed goes before the model is
	// finished, which is the highest point of memory of a large gather.
	b.seen, b.parts = nil, nil
	b.bufs.Release()
	if walkErr != nil {
		var limit *LimitError
		switch {
		case errors.Is(walkErr, ErrNotFound) || b.g.Files == 0:
			return nil, walkErr
		case errors.As(walkErr, &limit):
			where := limit.Path
			if where == "" {
				where = path.Base(input)
			}
			b.limitProblem(where, limit.Error())
			b.g.Incomplete = cutText(limit.Error())
		default:
			// The archive broke part-way: keep what was read.
			msg := "input ends early, analysed what was read before: " + walkErr.Error()
			if faultKind(walkErr) == model.FaultDamaged {
				msg = "input damaged, reading stopped there and analysed what was read before: " + walkErr.Error()
			}
			b.limitProblem(path.Base(input), msg)
			b.g.Incomplete = cutText(msg)
		}
	}
	if len(b.roots) == 0 {
		b.g.Problems = b.problemList()
		return nil, b.nothingError(nil)
	}
	g := b.finish()
	b.closeProblems()
	if !g.Analysable() {
		return nil, b.nothingError(g)
	}
	if err := b.combine(g); err != nil {
		return g, err
	}
	var foreign []string
	g.Mixed, foreign = mixedGather(g)
	// A node of the other cluster lacks no journal this upload should hold:
	// asking for it would ask about the wrong cluster.
	g.Health.NodesWithoutLogs = slices.DeleteFunc(g.Health.NodesWithoutLogs, func(n string) bool { return slices.Contains(foreign, n) })
	return g, nil
}

// namespaceFolderInput reports whether input is a single namespace folder of
// a gather (it holds core/pods.yaml or pods/ but no namespaces/ folder).
func namespaceFolderInput(input string) (string, bool) {
	if fi, err := os.Stat(input); err != nil || !fi.IsDir() {
		return input, false
	}
	if _, err := os.Stat(filepath.Join(input, "namespaces")); err == nil {
		return input, false
	}
	if _, err := os.Stat(filepath.Join(input, "core", "pods.yaml")); err == nil {
		return filepath.Clean(input), true
	}
	// pods/<pod>/ folders; a pods/ folder of <name>.json files is a folder
	// of pod captures (bundles.go).
	entries, _ := os.ReadDir(filepath.Join(input, "pods"))
	for _, e := range entries {
		if e.IsDir() {
			return filepath.Clean(input), true
		}
	}
	return input, false
}

// sosPartOf returns the folder key (as sosDir gives it: "." for the input
// itself) of the sosreport a node log at p lies in: the folder that holds its
// sos_commands/ or var/log/; "" when p lies in neither.
func sosPartOf(p string) string {
	for _, marker := range []string{"sos_commands/", "var/log/"} {
		if strings.HasPrefix(p, marker) {
			return "."
		}
		if i := strings.Index(p, "/"+marker); i >= 0 {
			return p[:i]
		}
	}
	return ""
}

// sosDir returns the sosreport folder of a hostname or date file (the one
// that holds sos_commands/).
func sosDir(p string) string {
	d := path.Dir(p)
	for _, sub := range []string{"/sos_commands/host", "/sos_commands/date", "/sos_commands/systemd"} {
		d = strings.TrimSuffix(d, sub)
	}
	if d == "sos_commands/host" || d == "sos_commands/date" || d == "sos_commands/systemd" {
		return "."
	}
	return d
}

// nsKey identifies a namespace folder within one image folder.
type nsKey struct{ root, ns string }

type builder struct {
	ctx             context.Context
	mu              sync.Mutex // guards what decode workers and the pass share
	podCount        atomic.Int64
	podLimitOnce    sync.Once
	objectCount     atomic.Int64
	objectLimitOnce sync.Once
	jobs            chan decodeJob
	workers         sync.WaitGroup
	g               *model.Gather
	roots           map[string]bool
	// dnsBaseDomain is the DNS config's spec.baseDomain, set into g at finish.
	dnsBaseDomain string
	listPods      map[nsKey][]*model.Pod
	filePods      map[nsKey][]*model.Pod
	timestamps    map[string][]time.Time // folder → times in its timestamp file
	nodes         map[string]*model.Node
	logs          map[string][]*model.ContainerLog // "ns/pod" → logs
	nodeLog       map[string]map[groupKey]*model.LogGroup
	hostLog       map[string]map[groupKey]*model.LogGroup
	// partGroups are the node-log groups of sosreport journals, by the
	// sosreport folder (sosPartOf) whose clock dates them.
	partGroups map[*model.LogGroup]string
	sigScratch []byte // addLogEntry's signature of a line
	logHosts   map[string]bool
	groups     int

	namespaces map[nsKey]bool
	hostnames  map[string]string // folder → host name of a sosreport
	sosRoots   map[string]bool
	bundles    map[string]string     // root → layout of a gather that is not a must-gather (bundles.go)
	known      map[string]*model.Pod // root + "ns/name" → pod from a pods.yaml read earlier in the pass
	// unsettled holds, by root + "ns/pod", the container logs read with
	// their tails before their pod was known: when the pod's pods.yaml is
	// decoded, the tails of its quiet containers are let go (settleTails).
	unsettled   map[string][]*model.ContainerLog
	rootCluster map[string]string // root → cluster ID from its ClusterVersion
	// rootInfra and rootAPI are the infrastructure name and API server URL
	// of each root's Infrastructure config (combine.go's cluster identity).
	rootInfra, rootAPI map[string]string
	// nodeSeen is every Node object decoded, before addNode keeps one per
	// name: two clusters may both have a master-0 (combine.go).
	nodeSeen []seenNode
	// inPart, when set, says whether a member belongs to the part of the
	// upload being read (Options.Part).
	inPart     func(p string) bool
	nsFolder   bool // the input is a single namespace folder
	clusterIDs map[string]bool

	// cvUpgrading: the ClusterVersion read shows an upgrade under way;
	// apiserverVersion: the kube-apiserver operand's version from the
	// kube-apiserver ClusterOperator (e.g. "1.22.1"), "" when not gathered.
	cvUpgrading      bool
	apiserverVersion string

	podFileErrs []podFileErr // per-pod files that did not decode
	parts       *podParts    // the pods' shared parts, for the load only
	// strs is the load's string table: the model's strings that repeat are
	// its copies (Intern). bufs is its read buffers kept for reuse while
	// the members are read and decoded, dropped when the pass is over.
	strs *interner
	bufs *bufpool.Pool
	// scratch is its pools of line readers' scratch (scratchPools).
	scratch *scratchPools

	groupBytes    int64 // text held by node-log groups
	groupCapNoted bool
	budget        *readBudget            // the pass's read limit, shared with the walk
	seen          map[memberKey]struct{} // the members analysed (by path), to spot duplicates
	keptLogBytes  int64                  // text of container-log tails kept so far (b.mu)
	// inflating is the compressed bytes of the logs the worker pool holds
	// to inflate (submitLog), at most inflatingBytes; inflated is signalled
	// (with b.mu) when one is done.
	inflating  int64
	inflated   *sync.Cond
	freeChunks [][]byte // chunks of inflateChunkBytes to hold them in, reused
	// inflateApartBytes overrides inflateApartBytes when not 0 (a test's
	// Options.inflateApart; negative: none is inflated apart).
	inflateApartBytes int64
	logCapNoted       bool
	// maxObjectFileBytes and maxPods are MaxObjectFileBytes and MaxPods,
	// or the Options' lower ones.
	maxObjectFileBytes int64
	maxPods            int64
	cuts               []model.Cut     // what the limits cut (cut), under mu
	cutFiles           map[string]bool // lists read up to the file limit, under mu
	extraProblems      int             // problems over MaxProblems, not kept
	kept               problemHeap     // problems kept (problemLocked)
	limits             []heldProblem   // why the pass stopped (limitProblem)
	problemSeq         int

	install  *installbundle.Reader // the install log bundles' reader
	insights *insights.Reader      // the Insights archives' reader
	bundle   *supportbundle.Reader // the support bundles' and pod captures' reader

	objects     *model.Store
	decodeKinds map[model.Kind]bool // nil: every typed kind

	// Coverage counts, filled by the sequential pass (coverage.go).
	usedFiles    map[fileKind]int
	otherDirs    map[string]int // folder → members no part of the analysis reads
	journalLines int
	dedup        podDedup // per-pod files that repeat a pods.yaml item

	mustgather         *mustgather.Reader      // the must-gathers' and inspect outputs' reader
	sos                *sosreport.Reader       // the node sosreports' reader
	sosKubeVersion     string                  // the Kubernetes version a sosreport printed (settled at finish)
	journalKubeVersion string                  // the version a kubelet logged at start
	hostSource         map[string]model.Source // host → the first journal line credited to it
	journalSpans       journalSpans            // what journals read so far covered, to skip the lines another copy repeats
	journalFiles       []model.JournalFile     // every journal file read (under mu)
	keep               *lineFilter             // node-log lines the rule table asks for; nil: none
	logMatch           *lineFilter             // container-log lines kept whatever the container's state (Needs.LogLines); nil: none
	keepLogsOf         map[string]bool         // namespaces whose quiet containers' logs are kept (model.Needs.KeepLogsOf)
	live               *Live                   // what the pass has read so far, for a view (Options.Live); nil: none
}

func newBuilder(input string) *builder {
	strs := newInterner()
	b := &builder{
		strs:        strs,
		bufs:        new(bufpool.Pool),
		scratch:     new(scratchPools),
		parts:       newPodParts(strs),
		g:           &model.Gather{Input: input},
		roots:       map[string]bool{},
		listPods:    map[nsKey][]*model.Pod{},
		filePods:    map[nsKey][]*model.Pod{},
		timestamps:  map[string][]time.Time{},
		nodes:       map[string]*model.Node{},
		logs:        map[string][]*model.ContainerLog{},
		nodeLog:     map[string]map[groupKey]*model.LogGroup{},
		logHosts:    map[string]bool{},
		hostLog:     map[string]map[groupKey]*model.LogGroup{},
		namespaces:  map[nsKey]bool{},
		hostnames:   map[string]string{},
		sosRoots:    map[string]bool{},
		bundles:     map[string]string{},
		known:       map[string]*model.Pod{},
		unsettled:   map[string][]*model.ContainerLog{},
		partGroups:  map[*model.LogGroup]string{},
		rootCluster: map[string]string{},
		rootInfra:   map[string]string{},
		rootAPI:     map[string]string{},
		clusterIDs:  map[string]bool{},
		seen:        map[memberKey]struct{}{},
		objects:     model.New(),

		usedFiles:  map[fileKind]int{},
		otherDirs:  map[string]int{},
		hostSource: map[string]model.Source{},

		maxObjectFileBytes: MaxObjectFileBytes,
		maxPods:            MaxPods,
	}
	b.mustgather = mustgather.NewReader(b)
	b.install = installbundle.NewReader(b)
	b.insights = insights.NewReader(b)
	b.bundle = supportbundle.NewReader(b)
	b.sos = sosreport.NewReader(b)
	b.inflated = sync.NewCond(&b.mu)
	return b
}

// problem records a problem; problemLocked is for callers holding b.mu.
func (b *builder) problem(p, why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problemLocked(p, why)
}

// MaxProblems bounds the problems kept (a hostile archive may hold a million
// links); the ones over it are counted in a last Problem. MaxProblemBytes
// bounds the text of each.
const (
	MaxProblems     = 1000
	MaxProblemBytes = 4096
)

// locked runs f with b.mu held, and lets go of it when f panics too: the
// guard of a member (visit, runJobSafe) records the panic as a problem,
// which takes b.mu, and the pass goes on.
func (b *builder) locked(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f()
}

// problemLocked keeps the problem when fewer than MaxProblems are kept, and
// otherwise keeps the MaxProblems first in path order: the decode workers
// report in the order they finish, so keeping the first reported would keep
// a different set on each run of one gather.
func (b *builder) problemLocked(p, why string) {
	hp := heldProblem{Problem: model.Problem{Path: cutText(p), Error: cutText(why)}, seq: b.problemSeq}
	b.problemSeq++
	if len(b.kept) < MaxProblems {
		heap.Push(&b.kept, hp)
		return
	}
	b.extraProblems++
	if hp.before(b.kept[0]) {
		b.kept[0] = hp
		heap.Fix(&b.kept, 0)
	}
}

// limitProblem records why the pass stopped (a limit, a broken archive), past
// MaxProblems too.
func (b *builder) limitProblem(p, why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.limits = append(b.limits, heldProblem{Problem: model.Problem{Path: cutText(p), Error: cutText(why)}, seq: b.problemSeq})
	b.problemSeq++
}

// heldProblem is a Problem with the order it was reported in (seq), which
// orders the problems of one path: one goroutine reads a file and reports
// its problems in order.
type heldProblem struct {
	model.Problem
	seq int
}

func (h heldProblem) before(o heldProblem) bool {
	if h.Path != o.Path {
		return h.Path < o.Path
	}
	return h.seq < o.seq
}

// problemHeap holds the kept problems with the last in path order on top.
type problemHeap []heldProblem

func (h problemHeap) Len() int           { return len(h) }
func (h problemHeap) Less(i, j int) bool { return h[j].before(h[i]) }
func (h problemHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *problemHeap) Push(x any)        { *h = append(*h, x.(heldProblem)) }
func (h *problemHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// problemList returns the kept problems and the limit problems in path
// order, a path's own in the order they were reported.
func (b *builder) problemList() []model.Problem {
	b.mu.Lock()
	defer b.mu.Unlock()
	all := append(slices.Clone([]heldProblem(b.kept)), b.limits...)
	sort.Slice(all, func(i, j int) bool { return all[i].before(all[j]) })
	out := make([]model.Problem, 0, len(all))
	for _, h := range all {
		out = append(out, h.Problem)
	}
	return out
}

// podFileErr is a per-pod file (namespaces/<ns>/pods/<pod>/<pod>.yaml) that
// did not decode.
type podFileErr struct {
	k         nsKey
	pod, path string
	err       string
}

// settlePodFileErrors makes a problem of each per-pod file that did not
// decode, unless its namespace's pods.yaml holds that pod complete (the file
// is then a redundant copy, or a placeholder, and nothing is lost).
func (b *builder) settlePodFileErrors() {
	if len(b.podFileErrs) == 0 {
		return
	}
	sort.Slice(b.podFileErrs, func(i, j int) bool { return b.podFileErrs[i].path < b.podFileErrs[j].path })
	complete := map[nsKey]map[string]bool{}
	for _, e := range b.podFileErrs {
		names, ok := complete[e.k]
		if !ok {
			names = map[string]bool{}
			for _, p := range b.listPods[e.k] {
				if !p.Partial {
					names[p.Object.Name] = true
				}
			}
			complete[e.k] = names
		}
		if !names[e.pod] {
			b.problem(e.path, e.err)
		}
	}
}

// collapseMin is the number of problems with the same text from which they
// are folded into one line; fewer are listed one by one (each path matters
// when there are a few, e.g. the hostile members of an archive).
const collapseMin = 10

// collapseProblems folds collapseMin or more problems with the same text into
// the first of them: "<error> (the same in N more files, e.g. a, b, c, …)".
func (b *builder) collapseProblems() {
	const examples = 3
	count := map[string]int{}
	for _, p := range b.g.Problems {
		count[p.Error]++
	}
	first := map[string]int{}       // error → index in out of its folded line
	others := map[string][]string{} // error → paths folded into it
	var out []model.Problem
	for _, p := range b.g.Problems {
		if count[p.Error] < collapseMin || p.Error == "" {
			out = append(out, p)
			continue
		}
		if _, ok := first[p.Error]; ok {
			others[p.Error] = append(others[p.Error], p.Path)
			continue
		}
		first[p.Error] = len(out)
		out = append(out, p)
	}
	for e, i := range first {
		paths := others[e]
		more := ""
		if len(paths) > examples {
			more = ", …"
		}
		out[i].Error = cutText(out[i].Error + fmt.Sprintf(" (the same in %d more files, e.g. %s%s)",
			len(paths), strings.Join(paths[:min(len(paths), examples)], ", "), more))
	}
	b.g.Problems = out
}

// closeProblems sets the gather's problems: in path order (problemList),
// identical ones collapsed, and the count of the problems not kept last. The
// decode workers report in the order they finish, so without the order two
// runs on one gather could list a folder's problems either way round.
func (b *builder) closeProblems() {
	b.g.Problems = b.problemList()
	b.collapseProblems()
	if b.extraProblems > 0 {
		b.g.Problems = append(b.g.Problems, model.Problem{Error: fmt.Sprintf("%d more problems not listed (at most %d are kept)", b.extraProblems, MaxProblems)})
	}
}

func cutText(s string) string {
	if len(s) <= MaxProblemBytes {
		return s
	}
	return strings.ToValidUTF8(s[:MaxProblemBytes], "") + "…"
}

// visit reads one member of the pass (visitMember). A panic while reading
// it, a reader's bug met on this member's path or bytes, becomes a gather
// problem naming the member and the reader it was in (readerName), and the
// pass goes on: a customer's archive never ends a run with a stack trace.
func (b *builder) visit(m Member) (err error) {
	reader := "member classification" // until the member's kind is known
	defer func() {
		if r := recover(); r != nil {
			b.problem(m.Path, readerPanic(reader, r))
			err = nil
		}
	}()
	return b.visitMember(m, &reader)
}

// readerPanic is the gather problem a reader's panic on a member becomes:
// "skipped: mgtriage failed while reading this file (installbundle reader:
// panic: runtime error: …); please report it with the file's path".
func readerPanic(reader string, r any) string {
	return fmt.Sprintf("skipped: mgtriage failed while reading this file (%s reader: panic: %v); please report it with the file's path", reader, r)
}

// readerName names the reader of a member of kind c in a problem: the
// format's package for a member its reader reads itself, else the load's
// reader of that common document.
func readerName(c classified) string {
	switch c.Kind {
	case kindMustGather:
		return "mustgather"
	case kindSos, kindSosHostname, kindSosDate:
		return "sosreport"
	case kindInsights:
		return "insights"
	case kindSupportBundle:
		return "supportbundle"
	case kindInstall:
		return "installbundle"
	case kindPodList, kindPod:
		return "pod"
	case kindEventList:
		return "event list"
	case kindNode, kindNodeList:
		return "node"
	case kindClusterVersion, kindClusterOperators, kindInfrastructure, kindDNS:
		return "cluster config"
	case kindContainerLog:
		return "container log"
	case kindServiceLog, kindNodeKubeletLog, kindSniffedJournal:
		return "node journal"
	case kindObjectList, kindObject:
		return "object"
	}
	return "member classification"
}

// guardSettle runs settle, the step of reader that joins what it read once
// the pass is over; a panic in it becomes a gather problem naming the
// reader (at where, the input's name: the step reads no one file) instead
// of ending the run, and what the step would have added is left out.
func (b *builder) guardSettle(reader, where string, settle func()) {
	defer func() {
		if r := recover(); r != nil {
			b.problem(where, fmt.Sprintf("skipped what the %s reader joins after reading (%s reader: panic: %v); please report it", reader, reader, r))
		}
	}()
	settle()
}

// visitMember reads m; *reader names the reader it is in (readerName)
// once its kind is known.
func (b *builder) visitMember(m Member, reader *string) error {
	if b.inPart != nil && !b.inPart(m.Path) {
		return nil
	}
	b.g.Files++
	if m.Size > 0 {
		b.g.Bytes += m.Size
	}
	if root, ok := gatherRoot(m.Path); ok {
		b.roots[root] = true
		if strings.HasPrefix(m.Path[len(root):], "sos_commands/") {
			b.sosRoots[root] = true
		}
	}
	b.recordNamespace(m.Path)
	b.mustgather.Note(m.Path)
	c := classify(m.Path, b.strs)
	b.recordBundle(m.Path)
	if c.Kind == kindOther {
		if c, _ = classifyOther(m.Path); c.Kind != kindOther {
			b.markFiltered(c)
		}
	}
	*reader = readerName(c)
	b.countMember(m.Path, c)
	if c.Kind == kindOther {
		if journalCandidate(m.Path) {
			*reader = readerName(classified{Kind: kindSniffedJournal})
			return b.sniffJournal(m)
		}
		return nil
	}
	key := memberKeyOf(m.Path)
	if _, dup := b.seen[key]; dup {
		return fmt.Errorf("appears more than once in the input: this later copy is skipped")
	}
	b.seen[key] = struct{}{}
	if !streamed(c) && m.Size > b.maxObjectFileBytes && !prefixList(m.Path, c) {
		b.cut(model.Cut{Count: cutCount(c), Path: m.Path, Read: model.CutNotRead,
			Text: fmt.Sprintf("1 %s of %s not read: over the %s limit", cutFile(c), mib(m.Size), mib(b.maxObjectFileBytes))})
		return fmt.Errorf("file of %s is larger than the %s limit for one object file, skipped", mib(m.Size), mib(b.maxObjectFileBytes))
	}
	rc, err := m.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	if b.inflateApart(m, c) {
		return b.submitLog(m, c, rc)
	}
	r, done, inflated, err := decompress(b.ctx, m.Path, rc, b.budget, b.scratch)
	if err != nil {
		return err
	}
	defer done()
	if inflated && streamed(c) && m.Size > aheadMemberBytes {
		// A large compressed log (a must-gather's logs gzipped by
		// REDUCE_LOGS) is inflated on a goroutine of its own while this
		// one scans it.
		ra := newReadAhead(r, nil, &b.scratch.ahead)
		defer ra.Close() // before done: the goroutine leaves r first
		r = ra
	}
	lr := &limitedReader{r: r, left: MaxLogBytes}
	switch c.Kind {
	case kindContainerLog:
		b.awaitPodLists(nsKey{c.Root, c.Namespace})
		err = b.readContainerLog(m.Path, c, b.addContainerLog(m.Path, c), lr)
	case kindServiceLog, kindNodeKubeletLog:
		err = b.readNodeLog(m.Path, c, lr)
	case kindInstall:
		switch c.Install.Kind {
		case installbundle.Text:
			err = b.install.ReadText(m.Path, c.Install, lr)
		case installbundle.ContainerLog:
			err = b.install.ReadContainerLog(m.Path, c.Install, lr)
		}
	}
	if streamed(c) {
		return b.logReadError(m.Path, err, lr)
	}
	size := m.Size
	if inflated {
		size = 0 // the member's size is that of the compressed bytes
	}
	var data []byte
	if prefixList(m.Path, c) {
		data, err = b.readListPrefix(m.Path, c, r, size, m.Size)
	} else {
		data, err = readBounded(r, b.maxObjectFileBytes, size, b.bufs)
		if err != nil && errors.Is(err, errTooLarge) {
			b.cut(model.Cut{Count: cutCount(c), Path: m.Path, Read: model.CutNotRead,
				Text: fmt.Sprintf("1 %s of more than %s once decompressed not read: over that limit", cutFile(c), mib(b.maxObjectFileBytes))})
		}
	}
	var short *shortMemberError
	if errors.As(err, &short) {
		b.problem(m.Path, err.Error()) // and read what it holds
		err = nil
	}
	if err != nil {
		return err
	}
	if heavy(c) {
		b.submit(decodeJob{path: m.Path, c: c, data: data})
		return nil
	}
	if c.Kind == kindMustGather {
		return b.mustgather.Read(m.Path, c.MustGather, data)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.decode(m.Path, c, data)
}

// logReadError is the error of reading a log through lr: err, or that the
// log was cut at MaxLogBytes.
func (b *builder) logReadError(p string, err error, lr *limitedReader) error {
	var limit *LimitError
	if lr.hit && !errors.As(err, &limit) {
		b.cut(model.Cut{Count: model.CutLogLines, Path: p, Read: model.CutInPart, Text: fmt.Sprintf("1 log of more than %d GiB read only to that limit", MaxLogBytes>>30)})
		return fmt.Errorf("log larger than %d GiB once decompressed: read up to that point", MaxLogBytes>>30)
	}
	return err
}

// heavyKinds are decoded by the worker pool while the pass goes on.
var heavyKinds = map[fileKind]bool{kindPodList: true, kindPod: true, kindEventList: true, kindNode: true, kindNodeList: true, kindClusterOperators: true,
	kindObjectList: true, kindObject: true,
	kindInsights: true, kindSupportBundle: true, kindInstall: true}

// heavy reports whether the member c is decoded by the worker pool: its
// kind is, or it is one of the must-gather reader's heavy members.
func heavy(c classified) bool {
	if c.Kind == kindMustGather {
		return c.MustGather.Kind.Heavy()
	}
	return heavyKinds[c.Kind]
}

type decodeJob struct {
	path  string
	c     classified
	data  []byte
	done  chan struct{}   // a pods.yaml: closed once decoded
	after []chan struct{} // a per-pod file: the pods.yaml decodes to wait for
	// log is the container log a compressed log's bytes (chunks) are
	// inflated into (submitLog); release gives back its chunks.
	log     *model.ContainerLog
	chunks  [][]byte
	release func()
}

// startWorkers starts n decoders; stopWorkers waits for them.
// runJobSafe is runJob with a panic, a decoder's bug met on the member's
// bytes, turned into the member's error (see visit).
func (b *builder) runJobSafe(j decodeJob) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New(readerPanic(readerName(j.c), r))
		}
	}()
	return b.runJob(j)
}

func (b *builder) startWorkers(n int) {
	b.jobs = make(chan decodeJob, n)
	for range n {
		b.workers.Add(1)
		go func() {
			defer b.workers.Done()
			for j := range b.jobs {
				if err := b.runJobSafe(j); err != nil {
					b.problem(j.path, err.Error())
				}
			}
		}()
	}
}

func (b *builder) stopWorkers() {
	close(b.jobs)
	b.workers.Wait()
}

// decodeHeavy decodes a Pod, Event, Node or ClusterOperator file without the
// lock, then adds the objects under it.
func (b *builder) decodeHeavy(p string, c classified, data []byte) error {
	k := nsKey{c.Root, c.Namespace}
	if b.g.Kept != nil && keepableFile(p, c) {
		b.g.Kept.Keep(p, data)
	}
	var errs []error
	switch c.Kind {
	case kindPodList, kindPod:
		b.objects.MarkGathered(model.Pods, c.Namespace)
	case kindNode, kindNodeList:
		b.objects.MarkGathered(model.Nodes, "")
	case kindEventList:
		b.objects.MarkGathered(model.Events, c.Namespace)
	}
	switch c.Kind {
	case kindObjectList, kindObject:
		errs = b.readObjects(p, c, data)
	case kindInsights:
		errs = errList(b.insights.Read(p, c.Insights, data))
	case kindSupportBundle:
		errs = errList(b.bundle.Read(p, c.Bundle, data))
	case kindInstall:
		switch c.Install.Kind {
		case installbundle.Resource:
			errs = b.install.ReadResource(p, c.Install, data)
		case installbundle.Inspect:
			b.install.ReadInspect(data)
		}
	case kindMustGather:
		errs = errList(b.mustgather.Read(p, c.MustGather, data))
	case kindPodList:
		var pods []*model.Pod
		lines := lineIndex{pool: &b.scratch.lineStarts}
		defer lines.release()
		errs = decodeItemsLean(data, b.listMem(p), func(o *corev1.Pod, line int, partial bool) bool {
			if !b.podUnderCap(p, line) {
				return false
			}
			b.parts.add(o)
			pod := &model.Pod{Object: *o, Source: model.Source{Path: p, Line: line}, Partial: partial}
			pod.Fields = podFieldLines(o, data, &lines, line)
			pods = append(pods, pod)
			return true
		})
		b.dedup.noteList(k, pods)
		b.live.addPods(pods)
		b.locked(func() {
			b.listPods[k] = append(b.listPods[k], pods...)
			for _, pod := range pods {
				b.known[k.root+pod.Key()] = pod
				b.settleTails(k.root+pod.Key(), pod)
			}
		})
	case kindPod:
		o, err := decodeObjectLean[corev1.Pod](data, b.mem())
		if err == nil {
			if why := subjectProblem(o); why != "" {
				err = errors.New(why)
			}
		}
		if err != nil {
			// A per-pod file that does not decode (often a placeholder)
			// is a problem only when its namespace's pods.yaml does not
			// hold the pod: settled in finish.
			b.mu.Lock()
			b.podFileErrs = append(b.podFileErrs, podFileErr{k: k, pod: c.Pod, path: p, err: err.Error()})
			b.mu.Unlock()
			return nil
		}
		b.parts.add(o)
		pod := &model.Pod{Object: *o, Source: model.Source{Path: p, Line: 1}}
		b.live.addPods([]*model.Pod{pod})
		b.mu.Lock()
		pod.Fields = podFieldLines(o, data, &lineIndex{}, 1)
		b.filePods[k] = append(b.filePods[k], pod)
		b.mu.Unlock()
	case kindEventList:
		var events []*model.Event
		lines := lineIndex{pool: &b.scratch.lineStarts}
		defer lines.release()
		refs := eventRefs{}
		errs = decodeItemsLean(data, b.listMem(p), func(o *corev1.Event, line int, _ bool) bool {
			ev := &model.Event{Object: eventObjectOf(o, b.strs, refs), Source: model.Source{Path: p, Line: line}, At: model.StampOf(eventTime(o))}
			b.scratch.releaseEvent(o) // the model keeps the EventObject's copy
			if line > 0 {
				ev.SetMessageLine(keyLine(data, lines.of(data), line, "message"))
			}
			events = append(events, ev)
			return true
		})
		b.mu.Lock()
		b.g.Events = append(b.g.Events, events...)
		b.mu.Unlock()
	case kindNode:
		o, err := decodeObjectLean[corev1.Node](data, b.mem())
		if err != nil {
			return err
		}
		if why := subjectProblem(o); why != "" {
			return errors.New(why)
		}
		n := &model.Node{Object: *o, Source: model.Source{Path: p, Line: 1}, Fields: nodeFieldLines(data, &lineIndex{}, 1)}
		b.mu.Lock()
		b.addNode(n)
		b.mu.Unlock()
	case kindNodeList:
		var nodes []*model.Node
		lines := lineIndex{pool: &b.scratch.lineStarts}
		defer lines.release()
		errs = decodeItemsLean(data, b.listMem(p), func(o *corev1.Node, line int, _ bool) bool {
			nodes = append(nodes, &model.Node{Object: *o, Source: model.Source{Path: p, Line: line}, Fields: nodeFieldLines(data, &lines, line)})
			return true
		})
		b.mu.Lock()
		for _, n := range nodes {
			b.addNode(n)
		}
		b.mu.Unlock()
	case kindClusterOperators:
		var ops []model.Operator
		apiserver := ""
		lines := lineIndex{pool: &b.scratch.lineStarts}
		defer lines.release()
		errs = decodeItemsLean(data, b.listMem(p), func(o *openshift.ClusterOperator, line int, _ bool) bool {
			ops = append(ops, operatorSummary(o, model.Source{Path: p, Line: line}, data, &lines))
			if o.Name == "kube-apiserver" {
				apiserver = o.Version("kube-apiserver")
			}
			return true
		})
		b.mu.Lock()
		if apiserver != "" && b.apiserverVersion == "" {
			b.apiserverVersion = apiserver
		}
		b.g.Operators = append(b.g.Operators, ops...)
		b.mu.Unlock()
		b.live.addOperators(ops)
	}
	for _, err := range errs {
		b.problem(p, err.Error())
	}
	return nil
}

// readBounded reads all of r, or fails as soon as r holds more than max
// bytes (a compressed member may declare a small size and inflate). When the
// declared size is wrong it reads in chunks, so a bomb costs at most max bytes
// of memory, not the growing buffer's two or three times that.
//
// A member that ends before its declared size (a zip entry whose header
// claims more than its data, a tar cut inside a member) returns what it holds
// with a *shortMemberError: the archive readers end such a member with
// io.ErrUnexpectedEOF, which is also how a read of size+1 bytes ends when the
// size is right, and a zip reader checks the CRC only when the size matches.
//
// The result's buffer comes from bufs (the load's): a caller that has done
// with it, and kept no slice of it, may hand it back with bufs.Put (runJob
// does, for recycledKinds).
func readBounded(r io.Reader, max, size int64, bufs *bufpool.Pool) ([]byte, error) {
	tooLarge := fmt.Errorf("file is larger than %d MiB once decompressed, skipped: %w", max>>20, errTooLarge)
	first := int64(64 << 10)
	if size > 0 && size <= max {
		first = size + 1 // one read to EOF when the size is right
	}
	var chunks [][]byte
	var total int64
	for next := first; ; next = min(2*next, 16<<20) {
		n := int(min(next, max+1-total))
		chunk := bufs.Get(n)[:n]
		n, err := io.ReadFull(r, chunk)
		total += int64(n)
		if total > max {
			return nil, tooLarge
		}
		chunks = append(chunks, chunk[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	var err error
	if size > 0 && total < size {
		err = &shortMemberError{got: total, declared: size}
	}
	if len(chunks) == 1 {
		return chunks[0], err
	}
	out := bufs.Get(int(total))
	for _, c := range chunks {
		out = append(out, c...)
		bufs.Put(c)
	}
	return out, err
}

// errTooLarge is what readBounded's error wraps when the member holds more
// than its max.
var errTooLarge = errors.New("over the limit for one object file")

// shortMemberError is a member of an archive that holds fewer bytes than its
// header declares (readBounded).
type shortMemberError struct {
	got, declared int64
}

func (e *shortMemberError) Error() string {
	return fmt.Sprintf("the file holds %d bytes where its archive header declares %d: a truncated or damaged copy; what it holds was read", e.got, e.declared)
}

func (b *builder) decode(p string, c classified, data []byte) error {
	var errs []error
	switch c.Kind {
	case kindClusterVersion:
		errs = b.decodeClusterVersion(p, data)
	case kindInfrastructure:
		errs = b.decodeInfrastructure(p, data)
	case kindDNS:
		errs = b.decodeDNS(data)
	case kindSosHostname:
		h, err := sosHostname(data)
		if err == nil {
			b.hostnames[sosDir(p)] = h
		}
		errs = append(errs, err)
	case kindSosDate:
		t, ok, err := b.sos.ReadDate(sosDir(p), p, data)
		if ok {
			b.timestamps[sosDir(p)] = []time.Time{t}
		}
		errs = append(errs, err)
	case kindSos:
		errs = append(errs, b.sos.Read(p, dirKey(strings.TrimSuffix(c.Root, "/")), c.Sos, data))
	}

	for _, err := range errs {
		if err != nil {
			b.problemLocked(p, err.Error())
		}
	}
	return nil
}

// addNode keeps one Node per name: the one from the first path in
// lexical order, whatever order the workers finish in.
func (b *builder) addNode(n *model.Node) {
	if n.Object.Name == "" {
		return
	}
	b.live.addNode(&n.Object)
	b.nodeSeen = append(b.nodeSeen, seenNode{path: n.Source.Path, name: n.Object.Name, facts: model.NodeMachineFacts(n), kubelet: n.Object.Status.NodeInfo.KubeletVersion})
	if old, dup := b.nodes[n.Object.Name]; !dup || n.Source.Path < old.Source.Path {
		b.nodes[n.Object.Name] = n
	}
}

func (b *builder) decodeClusterVersion(p string, data []byte) []error {
	add := func(cv *openshift.ClusterVersion) {
		b.live.addClusterVersion(cv)
		if cv.Spec.ClusterID != "" {
			b.clusterIDs[cv.Spec.ClusterID] = true
			b.rootCluster[rootOf(p)] = cv.Spec.ClusterID
		}
		if v := cv.CurrentVersion(); v != "" && b.g.ClusterVersion == "" {
			b.g.ClusterVersion = v
			b.g.ClusterID = cv.Spec.ClusterID
			b.cvUpgrading = cv.Upgrading()
			b.g.ClusterHistory = cv.Status.History
		}
	}
	if bytes.Contains(data, []byte("\nitems:")) || bytes.HasPrefix(data, []byte("items:")) {
		return decodeItems(data, b.mem(), func(cv *openshift.ClusterVersion, _ int) { add(cv) })
	}
	cv, err := decodeObject[openshift.ClusterVersion](data, b.mem())
	if err != nil {
		return []error{err}
	}
	add(cv)
	return nil
}

func (b *builder) decodeInfrastructure(p string, data []byte) []error {
	set := func(in *openshift.Infrastructure) {
		if in.Status.InfrastructureName != "" {
			b.rootInfra[rootOf(p)] = in.Status.InfrastructureName
		}
		if in.Status.APIServerURL != "" {
			b.rootAPI[rootOf(p)] = in.Status.APIServerURL
		}
		if p := in.PlatformType(); p != "" && b.g.Platform == "" {
			b.g.Platform = p
		}
		st := in.Status
		if b.g.InfrastructureName == "" && b.g.APIServerURL == "" {
			b.g.InfrastructureName, b.g.APIServerURL, b.g.APIServerInternalURL = st.InfrastructureName, st.APIServerURL, st.APIServerInternalURL
		}
		if b.g.BaseDomain == "" && st.EtcdDiscoveryDomain != "" {
			b.g.BaseDomain = st.EtcdDiscoveryDomain
		}
	}
	if bytes.Contains(data, []byte("\nitems:")) || bytes.HasPrefix(data, []byte("items:")) {
		return decodeItems(data, b.mem(), func(in *openshift.Infrastructure, _ int) { set(in) })
	}
	in, err := decodeObject[openshift.Infrastructure](data, b.mem())
	if err != nil {
		return []error{err}
	}
	set(in)
	return nil
}

// decodeDNS reads the base domain of the cluster DNS config, a list or the
// single object "cluster"; it wins over Infrastructure's older
// etcdDiscoveryDomain.
func (b *builder) decodeDNS(data []byte) []error {
	set := func(d *openshift.DNS) {
		if d.Spec.BaseDomain != "" {
			b.dnsBaseDomain = d.Spec.BaseDomain
		}
	}
	if bytes.Contains(data, []byte("\nitems:")) || bytes.HasPrefix(data, []byte("items:")) {
		return decodeItems(data, b.mem(), func(d *openshift.DNS, _ int) { set(d) })
	}
	d, err := decodeObject[openshift.DNS](data, b.mem())
	if err != nil {
		return []error{err}
	}
	set(d)
	return nil
}

// MaxKeptLogBytes bounds the text of the container-log tails and error lines
// kept over the whole pass (each log keeps at most TailLines+ErrorLines lines
// of MaxLineBytes, but a gather may hold any number of logs); past it, logs
// are only counted and a Problem says so.
const MaxKeptLogBytes = 256 << 20

// aheadMemberBytes is the compressed size past which a member is inflated
// on a goroutine of its own (readAhead) while it is read.
const aheadMemberBytes = 1 << 20

// addContainerLog records the container log at p in the pass's order (the
// walk's, whatever goroutine then reads it: a pod's logs keep the order of
// the input) and returns it, to be read by readContainerLog.
func (b *builder) addContainerLog(p string, c classified) *model.ContainerLog {
	l := &model.ContainerLog{Container: c.Container, Previous: c.Previous, Rotated: c.Rotated, Root: c.Root}
	l.SetPath(p, b.strs.intern)
	key := c.Namespace + "/" + c.Pod
	b.locked(func() { b.logs[key] = append(b.logs[key], l) })
	return l
}

// readContainerLog reads the container log l at p from r (readTail). It
// may run on any goroutine: a compressed log is inflated apart
// (submitLog).
func (b *builder) readContainerLog(p string, c classified, l *model.ContainerLog, r io.Reader) error {
	keep := !b.quietContainer(nsKey{c.Root, c.Namespace}, c.Pod, c.Container)
	match := b.logMatch
	var noteCap bool
	b.locked(func() {
		if b.keptLogBytes < MaxKeptLogBytes {
			return
		}
		match = nil
		if keep {
			keep = false
			noteCap, b.logCapNoted = !b.logCapNoted, true
		}
	})
	if noteCap {
		b.problem(p, fmt.Sprintf("log text limit reached: %d MiB of container-log lines kept; this and later logs are only counted", MaxKeptLogBytes>>20))
		b.cut(model.Cut{Count: model.CutLogLines, Path: p, Read: model.CutInPart,
			Text: fmt.Sprintf("container-log lines over the %d MiB limit of kept text counted, not kept (from this log on)", MaxKeptLogBytes>>20)})
	}
	kept, err := readTail(r, l, keep, match, b.scratch)
	key := c.Namespace + "/" + c.Pod
	b.locked(func() {
		b.keptLogBytes += int64(kept)
		if keep {
			// The pod may have been decoded while the log was read.
			known := c.Root + key
			if p := b.known[known]; p != nil {
				b.dropQuietTail(&p.Object, l)
			} else {
				b.unsettled[known] = append(b.unsettled[known], l)
			}
		}
	})
	return err
}

// Compressed container logs (a must-gather's logs gzipped by REDUCE_LOGS)
// of up to inflateApartBytes each are read whole, still compressed, and
// inflated and scanned by the worker pool while the walk goes on, so that
// several are inflated at once: inflating is the largest cost of such a
// gather, and one goroutine alone keeps one core busy. At most
// inflatingBytes of them are held at once (the walk waits for room); a
// larger log is inflated as it is read (readAhead).
const (
	inflateApartBytes = 16 << 20
	inflatingBytes    = 32 << 20
)

// inflateChunkBytes is the piece the compressed bytes of a log inflated
// apart are held in: pieces are reused from one log to the next (held in
// one buffer each, logs of 1 to 16 MiB would leave that much garbage per
// log, and the heap would grow to the memory limit on a gather of them).
const inflateChunkBytes = 1 << 20

// inflateApart reports whether member m of kind c is a compressed container
// log to inflate on the worker pool, and if so reserves its bytes of
// inflatingBytes, in whole chunks (submitLog gives them back).
func (b *builder) inflateApart(m Member, c classified) bool {
	limit := int64(inflateApartBytes)
	if b.inflateApartBytes != 0 {
		limit = b.inflateApartBytes
	}
	if c.Kind != kindContainerLog || m.Size <= aheadMemberBytes || m.Size > limit || !strings.HasSuffix(m.Path, ".gz") {
		return false
	}
	need := chunksFor(m.Size) * inflateChunkBytes
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.inflating+need > inflatingBytes {
		b.inflated.Wait()
	}
	b.inflating += need
	return true
}

// chunksFor is how many chunks hold size bytes.
func chunksFor(size int64) int64 { return (size + inflateChunkBytes - 1) / inflateChunkBytes }

// submitLog reads member m (a compressed container log, its bytes reserved
// by inflateApart) from rc and hands it to the worker pool, which inflates
// and reads it (readContainerLog).
func (b *builder) submitLog(m Member, c classified, rc io.Reader) error {
	chunks := make([][]byte, 0, chunksFor(m.Size))
	b.mu.Lock()
	for range cap(chunks) {
		var ch []byte
		if n := len(b.freeChunks); n > 0 {
			ch, b.freeChunks = b.freeChunks[n-1], b.freeChunks[:n-1]
		} else {
			ch = make([]byte, inflateChunkBytes)
		}
		chunks = append(chunks, ch)
	}
	b.mu.Unlock()
	release := func() {
		b.mu.Lock()
		b.freeChunks = append(b.freeChunks, chunks...)
		b.inflating -= int64(len(chunks)) * inflateChunkBytes
		b.mu.Unlock()
		b.inflated.Broadcast()
	}
	var got int64
	var err error
	for i := range chunks {
		n := int(min(inflateChunkBytes, m.Size-got))
		n, err = io.ReadFull(rc, chunks[i][:n])
		chunks[i] = chunks[i][:n]
		got += int64(n)
		if err != nil {
			break
		}
	}
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		release()
		return err
	}
	if got < m.Size {
		b.problem(m.Path, (&shortMemberError{got: got, declared: m.Size}).Error())
	}
	l := b.addContainerLog(m.Path, c)
	b.submit(decodeJob{path: m.Path, c: c, chunks: chunks, log: l, release: release})
	return nil
}

// inflateLog is a worker's part of submitLog: it inflates the log's bytes
// and reads them into l.
func (b *builder) inflateLog(j decodeJob) error {
	defer j.release()
	for _, ch := range j.after {
		<-ch // the pods.yaml decodes submitted before it (submit)
	}
	parts := make([]io.Reader, len(j.chunks))
	for i, ch := range j.chunks {
		parts[i] = bytes.NewReader(ch)
	}
	r, done, _, err := decompress(b.ctx, j.path, io.MultiReader(parts...), b.budget, b.scratch)
	if err != nil {
		return err
	}
	defer done()
	lr := &limitedReader{r: r, left: MaxLogBytes}
	err = b.logReadError(j.path, b.readContainerLog(j.path, j.c, j.log, lr), lr)
	var limit *LimitError
	if errors.As(err, &limit) {
		return nil // the walk stops at its next member, and says so
	}
	return err
}

// quietContainer reports whether the container's log cannot be evidence: its
// pod was read earlier in the pass and the container never failed (running
// and ready, or completed, with no restart). Its log is then only counted,
// which keeps memory flat on gathers of thousands of healthy pods.
//
// The pod is the one of the log's own gather root, from its pods.yaml:
// whether it has been decoded when the log is read depends on the decode
// workers' timing, so a log read first keeps its tail until the pod is
// decoded (settleTails), and finish applies the same test, with the same
// pod, to every log (dropQuietTails): the report never depends on that
// timing, nor on which root's copy of a pod finish keeps.
func (b *builder) quietContainer(k nsKey, pod, container string) bool {
	if b.keepLogsOf[k.ns] {
		return false
	}
	b.mu.Lock()
	p := b.known[k.root+k.ns+"/"+pod]
	b.mu.Unlock()
	if p == nil {
		return false
	}
	return quietStatus(&p.Object, container)
}

// settleTails lets go of the tails of the quiet containers among the logs
// read before their pod (known, root + "ns/pod") was decoded: on a gather of
// thousands of pods whose logs come before the decode workers reach the
// pods.yaml, those tails were the largest part of the heap that finish
// would drop anyway (about 25 MB of 54 at ×50 of the corpus metal gather).
// The caller holds b.mu.
func (b *builder) settleTails(known string, p *model.Pod) {
	for _, l := range b.unsettled[known] {
		b.dropQuietTail(&p.Object, l)
	}
	delete(b.unsettled, known)
}

// quietStatus reports whether the pod's container (or init container) never
// failed: running and ready, or completed with exit code 0, with no restart
// and no last termination state.
func quietStatus(p *corev1.Pod, container string) bool {
	for _, list := range [][]corev1.ContainerStatus{p.Status.ContainerStatuses, p.Status.InitContainerStatuses} {
		for _, st := range list {
			if st.Name != container {
				continue
			}
			if st.RestartCount > 0 || st.LastTerminationState.Terminated != nil {
				return false
			}
			if st.State.Running != nil && st.Ready {
				return true
			}
			t := st.State.Terminated
			return t != nil && t.ExitCode == 0
		}
	}
	return false
}

// Group limits: repeats collapse into groups, and these bound how many
// distinct groups are kept, so memory stays small whatever the log size.
// maxGroupBytesTotal bounds the text those groups hold together: 200,000
// groups of 4 KiB lines would hold gigabytes.
const (
	maxNodeGroupsPerHost = 256
	maxGroupsTotal       = 200_000
	maxGroupBytesTotal   = 128 << 20
)

// infoWorthParsing picks the kubelet info lines that may be evidence, before
// the line is parsed in full; most info lines are skipped on this test alone.
// Only the text after the klog header is searched.
func infoWorthParsing(msg []byte) bool {
	if i := bytes.Index(msg, []byte("] ")); i > 0 && i < 80 {
		msg = msg[i+2:]
	}
	return infoKeywordIndex.FirstBytes(msg) >= 0
}

// infoKeywords are the words of an info line worth parsing, searched in one
// pass (infoWorthParsingReference in the tests is the plain loop).
var infoKeywords = []string{"robe", "vict", "Killing", "OOM", "oom", "ack-off", "ailed", "rror"}

var infoKeywordIndex = lit.New([][]string{infoKeywords})

// keepEntry decides whether a parsed line becomes evidence: warnings and
// errors, and info lines of the classes that describe a pod's trouble.
func keepEntry(e *nodelog.Entry) bool {
	if e.Severity == 'W' || e.Severity == 'E' || e.Severity == 'F' {
		return e.Class != nodelog.ClassOther || e.Pod != "" || e.PodUID != ""
	}
	switch e.Class {
	case nodelog.ClassProbe, nodelog.ClassEviction, nodelog.ClassCrashLoop, nodelog.ClassImagePull,
		nodelog.ClassSandbox, nodelog.ClassOOMKill, nodelog.ClassContainerStart:
		return true
	}
	return false
}

func (b *builder) readNodeLog(p string, c classified, r io.Reader) error {
	ref := b.referenceTime()
	// A sosreport's journal is in its host's wall clock: its lines keep
	// year 1 and their wall time until finish moves them to UTC by the
	// sosreport's own clock (settleSosLogTimes), never another part's.
	part := sosPartOf(p)
	if part != "" {
		ref = time.Time{}
	}
	credited := false
	spans := b.journalSpans.file()
	names := newJournalNames(p)
	defer func() { b.addJournalFile(names.file()) }()
	var cut longLines
	var scratch []byte
	err := scanLinesCounted(r, func(n int, raw []byte) {
		names.lines = n
		j, ok := nodelog.ParseJournal(raw, ref)
		if !ok {
			return
		}
		b.journalLines++
		unit := nodelog.UnitOf(j.Ident)
		names.saw(c.Node, j.Host, j.Ident, unit)
		msg := j.Message
		if c.Node != "" && !credited {
			// A journal whose path names its node counts for that node.
			credited = true
			b.creditHost(c.Node, model.Source{Path: p, Line: n})
		}
		// asked: the fixed selection drops the line, but a rule's literal
		// is in it.
		asked := false
		switch unit {
		case nodelog.UnitKubelet:
			host := string(j.Host)
			if c.Node != "" {
				host = c.Node
			}
			if !b.logHosts[host] {
				b.creditHost(host, model.Source{Path: p, Line: n})
			}
			if v, ok := kubeletVersionLine(msg); ok && b.journalKubeVersion == "" {
				b.journalKubeVersion = v
			}
			if len(msg) > 0 && msg[0] == 'I' && !infoWorthParsing(msg) {
				if asked = b.keep.match(msg, &scratch); !asked {
					return
				}
			}
		case nodelog.UnitCRIO:
			if !bytes.Contains(msg, []byte("level=error")) && !bytes.Contains(msg, []byte("level=warn")) && !bytes.Contains(msg, []byte("level=fatal")) {
				if asked = b.keep.match(msg, &scratch); !asked {
					return
				}
			}
		case nodelog.UnitKernel:
			if !bytes.Contains(msg, []byte("oom")) && !bytes.Contains(msg, []byte("out of memory")) && !bytes.Contains(msg, []byte("Out of memory")) {
				if asked = b.keep.match(msg, &scratch); !asked {
					return
				}
			}
		default:
			if asked = b.keep.match(msg, &scratch); !asked {
				return
			}
		}
		e := nodelog.FromJournal(j)
		if !keepEntry(&e) {
			if !asked && !b.keep.match(msg, &scratch) {
				return
			}
			asked = true
		}
		if c.Node != "" {
			e.Host = c.Node
		}
		if spans.repeated(c.Root, &e) {
			return
		}
		b.addLogEntry(model.Source{Path: p, Line: n}, &e, asked, part)
	}, &cut, b.scratch)
	spans.close()
	if err == nil {
		err = cut.err()
	}
	return err
}

// memberKey is a 128-bit hash of a member's path: the duplicate check keeps
// it instead of the path (a gather scaled x50 has 150,000 members, and most
// paths are kept nowhere else). Two paths share a key with a chance of about
// n²/2¹²⁹, nothing against an input's member count.
type memberKey [2]uint64

var memberSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func memberKeyOf(path string) memberKey {
	return memberKey{maphash.String(memberSeeds[0], path), maphash.String(memberSeeds[1], path)}
}

// creditHost records that the gather holds a journal of host, first seen at src.
func (b *builder) creditHost(host string, src model.Source) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.logHosts[host] {
		b.logHosts[host] = true
		b.hostSource[strings.Clone(host)] = src
	}
}

// addLogEntry files e under its pod (by namespace/name, else UID), or under
// its node for node-level classes and for lines a rule asked for, collapsing
// repeats. part is the sosreport folder of the line's file ("" outside a
// sosreport, sosPartOf): lines of different parts never share a group, so
// each group's times are of one clock.
func (b *builder) addLogEntry(src model.Source, e *nodelog.Entry, asked bool, part string) {
	var groups map[groupKey]*model.LogGroup
	limit := maxGroupsPerPod
	owner := ""
	switch {
	case e.Pod != "" || e.PodUID != "":
		owner = e.Pod
		if owner == "" {
			owner = "uid:" + e.PodUID
		}
		groups = b.nodeLog[owner]
	case e.Class.NodeLevel() || asked:
		groups = b.hostLog[e.Host]
		limit = maxNodeGroupsPerHost
	default:
		return
	}
	gk := b.groupKeyOf(e, part)
	if g, ok := groups[gk]; ok {
		g.Count++
		if e.Time.After(g.Last) {
			g.Last = e.Time
		}
		return
	}
	if len(groups) >= limit {
		return
	}
	if b.groups >= maxGroupsTotal || b.groupBytes >= maxGroupBytesTotal {
		if !b.groupCapNoted {
			b.groupCapNoted = true
			b.problem(src.Path, fmt.Sprintf("node-log limit reached at line %d: %d groups of lines (%d MiB of text) kept; later lines that start a new group are not kept", src.Line, b.groups, b.groupBytes>>20))
			b.cut(model.Cut{Count: model.CutLogLines, Path: src.Path, Read: model.CutInPart,
				Text: fmt.Sprintf("node-log lines over the limit of %d groups (%d MiB of text) not kept as evidence (from line %d on)", maxGroupsTotal, maxGroupBytesTotal>>20, src.Line)})
		}
		return
	}
	if groups == nil {
		// Keys and fields are cloned: the entry's strings point into its
		// whole line, which must not stay alive for a short name.
		groups = map[groupKey]*model.LogGroup{}
		if owner != "" {
			b.nodeLog[strings.Clone(owner)] = groups
			if e.Pod != "" && e.PodUID != "" {
				b.nodeLog["uid:"+e.PodUID] = groups
			}
		} else {
			b.hostLog[strings.Clone(e.Host)] = groups
		}
	}
	text := e.Message
	if e.Detail != "" && e.Detail != e.Message {
		text += ": " + e.Detail
	}
	if e.Class == nodelog.ClassProbe && e.Probe != "" {
		// The words events use ("Readiness probe failed: ..."), so one cause
		// pattern matches both.
		text = e.Probe + " probe failed: " + e.Detail
		if e.Detail == "" || e.Detail == e.Message {
			text = e.Probe + " probe failed"
		}
	}
	// The detail ends the text in most groups (a volume's mount error, a
	// probe's output: often the longest part of the line), and is then
	// kept as the end of the text's copy rather than a second one.
	text = strings.Clone(text)
	detail := e.Detail
	if strings.HasSuffix(text, detail) {
		detail = text[len(text)-len(detail):]
	} else {
		detail = strings.Clone(detail)
	}
	// The host, unit, container, image and probe repeat from one group to
	// the next (a pod's groups name its containers and images): interned.
	lg := &model.LogGroup{Source: src, Node: b.strs.intern(e.Host), Unit: nodelog.Unit(b.strs.intern(string(e.Unit))), Severity: e.Severity, Class: e.Class,
		First: e.Time, Last: e.Time, Count: 1, Text: text,
		Container: b.strs.intern(e.Container), Image: b.strs.intern(e.Image), Probe: b.strs.intern(e.Probe), Detail: detail}
	groups[gk] = lg
	if part != "" {
		b.partGroups[lg] = b.strs.intern(part)
	}
	b.groups++
	b.groupBytes += int64(len(text) + len(detail) + len(e.Container) + len(e.Image) + len(owner))
}

// groupKey identifies a group of node-log lines: a 128-bit hash of the
// line's class, klog severity, host and signature (nodelog.Signature of its
// message and detail). The groups kept the text itself as their key before,
// about 500 bytes each (12 MB at ×50 of the corpus metal gather), and made it
// for every line read; two different lines share a key with a chance of
// about n²/2¹²⁹ (see memberKey).
type groupKey [2]uint64

// groupKeyOf returns e's groupKey, built in b.sigScratch; part (a
// sosreport folder, or "") is part of the key.
func (b *builder) groupKeyOf(e *nodelog.Entry, part string) groupKey {
	k := append(b.sigScratch[:0], part...)
	k = append(k, 0)
	k = append(k, e.Class...)
	k = append(k, 0, e.Severity)
	k = append(k, e.Host...)
	k = append(k, 0)
	k = nodelog.AppendSignature(k, e.Message)
	k = append(k, ' ')
	k = nodelog.AppendSignature(k, e.Detail)
	b.sigScratch = k
	return groupKey{maphash.Bytes(memberSeeds[0], k), maphash.Bytes(memberSeeds[1], k)}
}

// referenceTime is the best "now" known so far, for journal years.
func (b *builder) referenceTime() time.Time {
	var latest time.Time
	for _, ts := range b.timestamps {
		if t := ts[len(ts)-1]; t.After(latest) {
			latest = t
		}
	}
	return latest
}

// eventTime returns when an event last happened.
func eventTime(e *corev1.Event) time.Time {
	switch {
	case e.Series != nil && !e.Series.LastObservedTime.IsZero():
		return e.Series.LastObservedTime.Time.UTC()
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time.UTC()
	case !e.EventTime.IsZero():
		return e.EventTime.Time.UTC()
	case !e.FirstTimestamp.IsZero():
		return e.FirstTimestamp.Time.UTC()
	}
	return e.CreationTimestamp.Time.UTC()
}

func sortedKeys[V any](m map[string]V) []string { return model.SortedKeys(m) }
