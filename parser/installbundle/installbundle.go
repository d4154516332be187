// Package installbundle reads an install log bundle (`openshift-install
// gather bootstrap`: log-bundle-*/bootstrap/journals/, bootstrap/containers/,
// control-plane/<ip>/, resources/*.json) into the model: the install steps
// its journals show, the tails of its container logs, its resources/ files
// (handed back to the load as the gather's objects) and the latest time its
// crictl inspect files name.
package installbundle

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

var (
	journalRe   = regexp.MustCompile(`^(.*/)?(bootstrap|control-plane/([^/]+))/journals/([^/]+)\.log$`)
	containerRe = regexp.MustCompile(`^(.*/)?(bootstrap|control-plane/([^/]+))/containers/([^/]+)-([0-9a-f]{12,64})\.log$`)
	inspectRe   = regexp.MustCompile(`^(.*/)?(bootstrap|control-plane/([^/]+))/containers/[^/]+\.inspect$`)
	resourceRe  = regexp.MustCompile(`^(.*/)?resources/([a-z-]+)\.(json|list)$`)
	textRe      = regexp.MustCompile(`^(.*/)?(gather\.log|failed-units\.txt)$`)
	markerRe    = regexp.MustCompile(`(^|/)(bootstrap/journals/|bootstrap/containers/|bootstrap/pods/|control-plane/[^/]+/journals/|control-plane/[^/]+/containers/|resources/(?:` + resourceNames + `)\.json$|resources/(?:masters|nodes)\.list$|failed-units\.txt$|unit-status/|rendered-assets/)|^gather\.log$|(^|/)log-bundle-[^/]+/gather\.log$`)
)

// resourceNames are the files `openshift-install gather bootstrap`
// writes under resources/ with `oc get -o json`.
const resourceNames = "apiservices|clusteroperators|clusterversion|configmaps|csr|endpoints|events|kubeapiserver|kubecontrollermanager|machineconfigpools|machineconfigs|namespaces|nodes|openshiftapiserver|pods|rolebindings|roles|services"

// markers are the folder and file names of which markerRe
// needs one, at the start of the path or after a "/": a literal check that
// spares the regular expression on every other member (most of a gather).
var markers = []string{"bootstrap/", "control-plane/", "resources/", "failed-units.txt", "unit-status/", "rendered-assets/", "gather.log"}

// maybe reports whether p can match markerRe.
func maybe(p string) bool {
	for _, m := range markers {
		if strings.HasPrefix(p, m) || strings.Contains(p, "/"+m) {
			return true
		}
	}
	return false
}

// Root returns the folder of the install log bundle that p lies in ("" for
// the input itself, else ending in "/"); false when p is not a member of one.
func Root(p string) (string, bool) {
	if !maybe(p) {
		return "", false
	}
	loc := markerRe.FindStringIndex(p)
	if loc == nil {
		return "", false
	}
	if strings.HasSuffix(p, "gather.log") && loc[1] == len(p) && !strings.Contains(p[loc[0]:], "/journals/") {
		return strings.TrimSuffix(p, "gather.log"), true
	}
	start := loc[0]
	if p[start] == '/' {
		start++
	}
	return p[:start], true
}

// Kind says what a member of an install log bundle holds, judged by its path.
type Kind int

const (
	// Other is a member the analysis does not read.
	Other Kind = iota
	// Journal is a kubelet or CRI-O journal (bootstrap/journals/kubelet.log,
	// control-plane/<ip>/journals/crio.log): the load reads it as a node
	// journal.
	Journal
	// Text is another journal, or a text file of the bundle (gather.log,
	// failed-units.txt): read for the install steps it shows.
	Text
	// ContainerLog is bootstrap/containers/<name>-<id>.log.
	ContainerLog
	// Resource is resources/<name>.json|list.
	Resource
	// Inspect is bootstrap/containers/<name>-<id>.inspect (crictl inspect JSON).
	Inspect
)

// kindLabels name what the members of each Kind the bundle reads itself
// hold, in report order (model.Coverage.Used).
var kindLabels = []load.Label[Kind]{
	{Kind: Text, Text: "install log bundle journals and text"},
	{Kind: ContainerLog, Text: "install log bundle container logs"},
	{Kind: Resource, Text: "install log bundle resources"},
	{Kind: Inspect, Text: "install log bundle container inspect JSON"},
}

// Member is what a member of an install log bundle holds and the path parts
// that locate it: Root is the bundle's folder, Node the control-plane
// host's folder name ("" for the bootstrap host), Unit a journal's unit or a
// text file's name without its extension, Container a container log's
// container, Name a resources/ file's name.
type Member struct {
	Kind                        Kind
	Root, Node, Unit, Container string
	Name                        string
}

// Classify returns what a member of an install log bundle holds: the
// kubelet and CRI-O journals are Journal, read as node journals, the other
// journals and the gather's own log Text, resources/* Resource.
func Classify(p string) Member {
	if m := journalRe.FindStringSubmatch(p); m != nil {
		c := Member{Root: m[1], Node: m[3], Unit: m[4]}
		switch m[4] {
		case "kubelet", "crio":
			c.Kind = Journal
		default:
			c.Kind = Text
		}
		return c
	}
	if m := containerRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: ContainerLog, Root: m[1], Node: m[3], Container: m[4]}
	}
	if m := inspectRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: Inspect, Root: m[1], Node: m[3]}
	}
	if m := resourceRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: Resource, Root: m[1], Name: m[2] + "." + m[3]}
	}
	if m := textRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: Text, Root: m[1], Unit: strings.TrimSuffix(strings.TrimSuffix(m[2], ".log"), ".txt")}
	}
	return Member{Kind: Other}
}

// Streamed reports whether members of kind k are read line by line from
// their stream (ReadText, ReadContainerLog) rather than whole (ReadResource,
// ReadInspect).
func (k Kind) Streamed() bool { return k == Text || k == ContainerLog }

// installPatterns say which stage a line of which unit shows; units "" match
// every file.
var installPatterns = []struct {
	stage string
	units []string
	re    *regexp.Regexp
}{
	{model.StageComplete, nil, regexp.MustCompile(`(?i)bootkube\.service complete|bootstrap-complete event|Bootstrap status: complete`)},
	{model.StageReleaseImage, []string{"release-image", "release-image-download"}, regexp.MustCompile(`(?i)pull failed|error pulling|unable to pull|failed to pull|manifest unknown|unauthorized|x509|no such host|i/o timeout|connection refused|retrying`)},
	{model.StageEtcd, nil, regexp.MustCompile(`(?i)(?:etcd|:2379|:2380)[^\n]*(unhealthy|could not connect|connection refused|context deadline exceeded|timed out|failed|not ready|waiting for)`)},
	{model.StageAPIWait, nil, regexp.MustCompile(`(?i)waiting (?:up to \S+ )?for the Kubernetes API|still waiting for the Kubernetes API|Unable to connect to the server|:6443[^\n]*connection refused|connection to the server [^ ]+ was refused|error while checking pod status|waiting for api|the server is currently unable`)},
	{model.StageBootkube, []string{"bootkube"}, regexp.MustCompile(`(?i)Main process exited|Failed with result|^Error:|\bError: |failed to create|timed out waiting for the condition`)},
	{model.StageMasters, nil, regexp.MustCompile(`(?i)No masters found|Unable to register node|waiting for [0-9]+ control.plane|masters? (?:not|never) (?:joined|ready)`)},
	{model.StageCSR, []string{"approve-csr"}, regexp.MustCompile(`(?i)pending|no resources found`)},
}

// maxSteps bounds the step groups kept per stage; maxContainers the
// container logs kept per bundle (each a bounded tail); maxHosts the
// control-plane host folders listed per bundle.
const (
	maxSteps      = 64
	maxContainers = 512
	maxHosts      = 64
)

// Reader reads the install log bundles of one load. Its methods are safe for
// concurrent use, but Count, which the load's sequential pass calls.
type Reader struct {
	load             load.Load
	mu               sync.Mutex
	bundles          map[string]*model.InstallBundle          // root → its bundle
	hosts            map[*model.InstallBundle]map[string]bool // a bundle's control-plane host folders (Note)
	latest           time.Time                                // latest time of the bundles' crictl inspect files
	load.Tally[Kind]                                          // the members read, by kind (Count, Used)
}

// NewReader returns the reader of the install log bundles of l.
func NewReader(l load.Load) *Reader {
	return &Reader{load: l, bundles: map[string]*model.InstallBundle{}, hosts: map[*model.InstallBundle]map[string]bool{}, Tally: load.NewTally(kindLabels)}
}

// ReadText scans a journal or text file of an install log bundle for the
// lines that show a stage.
func (r *Reader) ReadText(p string, c Member, rd io.Reader) error {
	ib := r.Bundle(c.Root)
	host := "bootstrap"
	if c.Node != "" {
		host = c.Node
	}
	ref := r.load.ReferenceTime()
	return r.load.ScanLines(rd, func(n int, raw []byte) {
		msg, when, lineHost := raw, time.Time{}, host
		if j, ok := nodelog.ParseJournal(raw, ref); ok {
			msg, when = j.Message, j.Time
			if len(j.Host) > 0 && c.Node == "" {
				lineHost = string(j.Host)
			}
		}
		for _, pat := range installPatterns {
			if pat.units != nil && !containsString(pat.units, c.Unit) {
				continue
			}
			if !pat.re.Match(msg) {
				continue
			}
			r.addStep(ib, model.InstallStep{Stage: pat.stage, Host: lineHost, Unit: c.Unit, Source: model.Source{Path: p, Line: n}, First: when, Last: when, Count: 1, Text: nodelog.Text(bytes.TrimSpace(msg))})
			return
		}
	})
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// addStep adds s to the bundle, or counts it in the group of the same
// stage, host, unit and message.
func (r *Reader) addStep(ib *model.InstallBundle, s model.InstallStep) {
	r.mu.Lock()
	defer r.mu.Unlock()
	sig := nodelog.Signature(s.Text)
	n := 0
	for i := range ib.Steps {
		o := &ib.Steps[i]
		if o.Stage != s.Stage {
			continue
		}
		n++
		if o.Host == s.Host && o.Unit == s.Unit && nodelog.Signature(o.Text) == sig {
			o.Count++
			if s.Last.After(o.Last) {
				o.Last = s.Last
			}
			return
		}
	}
	if n >= maxSteps {
		return
	}
	s.Text = r.load.CutText(s.Text)
	ib.Steps = append(ib.Steps, s)
}

// ReadContainerLog keeps the tail of a bootstrap or master container log.
func (r *Reader) ReadContainerLog(p string, c Member, rd io.Reader) error {
	ib := r.Bundle(c.Root)
	r.mu.Lock()
	full := len(ib.Containers) >= maxContainers
	r.mu.Unlock()
	if full {
		return fmt.Errorf("more than %d container logs in the install log bundle: this one is not read", maxContainers)
	}
	l := &model.ContainerLog{Container: c.Container}
	l.SetPath(p, r.load.Intern)
	err := r.load.ReadTail(rd, l)
	host := "bootstrap"
	if c.Node != "" {
		host = c.Node
	}
	r.mu.Lock()
	ib.Containers = append(ib.Containers, model.InstallContainer{Host: host, Name: c.Container, Log: l})
	r.mu.Unlock()
	return err
}

// resourceObjects are the resources/ files read as the gather's objects.
var resourceObjects = map[string]load.Objects{
	"pods.json":               {Content: load.PodCaptures},
	"events.json":             {Content: load.Events},
	"nodes.json":              {Content: load.NodeList},
	"clusteroperators.json":   {Content: load.ClusterOperatorList},
	"csr.json":                {Content: load.ObjectList, Kind: model.CertificateSigningRequests},
	"machineconfigpools.json": {Content: load.ObjectList, Kind: model.MachineConfigPools},
}

// ReadResource records a resources/ file of the bundle and, when it holds
// objects, hands them to the load to read as the matching gather files
// would be read.
func (r *Reader) ReadResource(p string, c Member, data []byte) []error {
	ib := r.Bundle(c.Root)
	empty := len(bytes.TrimSpace(data)) == 0
	r.mu.Lock()
	ib.Resources = append(ib.Resources, c.Name)
	if empty {
		ib.Empty = append(ib.Empty, c.Name)
	}
	if c.Name == "masters.list" {
		ib.MastersListed = len(strings.Fields(string(data)))
	}
	r.mu.Unlock()
	if empty {
		return nil
	}
	obj, ok := resourceObjects[c.Name]
	if !ok {
		return nil
	}
	obj.Root = c.Root
	if err := r.load.ReadObjects(p, obj, data); err != nil {
		return []error{err}
	}
	return nil
}

var inspectTimeRe = regexp.MustCompile(`"(?:createdAt|startedAt|finishedAt)":\s*"(\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d))"`)

// ReadInspect keeps the latest time a crictl inspect file names: the
// journals of a log bundle carry no year, and the bundle no timestamp file.
func (r *Reader) ReadInspect(data []byte) {
	var latest time.Time
	for _, m := range inspectTimeRe.FindAllSubmatch(data, 64) {
		if t, err := time.Parse(time.RFC3339Nano, string(m[1])); err == nil && t.Year() > 1970 && t.After(latest) {
			latest = t.UTC()
		}
	}
	if latest.IsZero() {
		return
	}
	r.mu.Lock()
	if latest.After(r.latest) {
		r.latest = latest
	}
	r.mu.Unlock()
}

// Latest is the latest time the bundles' crictl inspect files name (zero
// when none): a gather time for a bundle, which has no timestamp file.
func (r *Reader) Latest() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.latest
}

// Bundle returns the bundle of root, made on first use.
func (r *Reader) Bundle(root string) *model.InstallBundle {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bundleLocked(root)
}

func (r *Reader) bundleLocked(root string) *model.InstallBundle {
	ib := r.bundles[root]
	if ib == nil {
		ib = &model.InstallBundle{Root: root, MastersListed: -1}
		r.bundles[root] = ib
	}
	return ib
}

// Note makes the bundle of root on first use and records the control-plane
// host whose folder p, a member of that bundle whatever it holds, lies in
// (root + "control-plane/<host>/..."): a host may hold only journals, which
// the load reads, or inspect files.
func (r *Reader) Note(root, p string) {
	rest, _ := strings.CutPrefix(p, root)
	host, _, inFolder := strings.Cut(strings.TrimPrefix(rest, "control-plane/"), "/")
	r.mu.Lock()
	defer r.mu.Unlock()
	ib := r.bundleLocked(root)
	if !strings.HasPrefix(rest, "control-plane/") || !inFolder || host == "" {
		return
	}
	if r.hosts[ib] == nil {
		r.hosts[ib] = map[string]bool{}
	}
	if len(r.hosts[ib]) < maxHosts {
		r.hosts[ib][host] = true
	}
}

// DateSteps sets the times of the steps read from journals without a year
// through fix, once the gather time is known.
func (r *Reader) DateSteps(fix func(time.Time) time.Time) {
	for _, ib := range r.bundles {
		for i := range ib.Steps {
			ib.Steps[i].First, ib.Steps[i].Last = fix(ib.Steps[i].First), fix(ib.Steps[i].Last)
		}
	}
}

// Settle returns the bundles read, by root: steps in time order, the
// masters the bundle has folders of, sorted lists. The pass must be over.
func (r *Reader) Settle() []*model.InstallBundle {
	var out []*model.InstallBundle
	for _, root := range model.SortedKeys(r.bundles) {
		ib := r.bundles[root]
		ib.Masters = model.SortedKeys(r.hosts[ib])
		sort.Strings(ib.Resources)
		sort.Strings(ib.Empty)
		sort.SliceStable(ib.Steps, func(i, j int) bool {
			a, c := ib.Steps[i], ib.Steps[j]
			if !a.First.Equal(c.First) {
				return a.First.Before(c.First)
			}
			if a.Source.Path != c.Source.Path {
				return a.Source.Path < c.Source.Path
			}
			return a.Source.Line < c.Source.Line
		})
		sort.Slice(ib.Containers, func(i, j int) bool { return ib.Containers[i].Log.Path() < ib.Containers[j].Log.Path() })
		out = append(out, ib)
	}
	return out
}
