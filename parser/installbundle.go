package parser

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

var (
	installJournalRe   = regexp.MustCompile(`^(.*/)?(bootstrap|control-plane/([^/]+))/journals/([^/]+)\.log$`)
	installContainerRe = regexp.MustCompile(`^(.*/)?(bootstrap|control-plane/([^/]+))/containers/([^/]+)-([0-9a-f]{12,64})\.log$`)
	installResourceRe  = regexp.MustCompile(`^(.*/)?resources/([a-z-]+)\.(json|list)$`)
	installTextRe      = regexp.MustCompile(`^(.*/)?(gather\.log|failed-units\.txt)$`)
	installMarkerRe    = regexp.MustCompile(`(^|/)(bootstrap/journals/|bootstrap/containers/|bootstrap/pods/|control-plane/[^/]+/journals/|control-plane/[^/]+/containers/|resources/(?:` + installResourceNames + `)\.json$|resources/(?:masters|nodes)\.list$|failed-units\.txt$|unit-status/|rendered-assets/)|^gather\.log$|(^|/)log-bundle-[^/]+/gather\.log$`)
)

// installResourceNames are the files `openshift-install gather bootstrap`
// writes under resources/ with `oc get -o json`.
const installResourceNames = "apiservices|clusteroperators|clusterversion|configmaps|csr|endpoints|events|kubeapiserver|kubecontrollermanager|machineconfigpools|machineconfigs|namespaces|nodes|openshiftapiserver|pods|rolebindings|roles|services"

// installMarkers are the folder and file names of which installMarkerRe
// needs one, at the start of the path or after a "/": a literal check that
// spares the regular expression on every other member (most of a gather).
var installMarkers = []string{"bootstrap/", "control-plane/", "resources/", "failed-units.txt", "unit-status/", "rendered-assets/", "gather.log"}

// installMaybe reports whether p can match installMarkerRe.
func installMaybe(p string) bool {
	for _, m := range installMarkers {
		if strings.HasPrefix(p, m) || strings.Contains(p, "/"+m) {
			return true
		}
	}
	return false
}

// installRoot returns the root of an install log bundle member.
func installRoot(p string) (string, bool) {
	if !installMaybe(p) {
		return "", false
	}
	loc := installMarkerRe.FindStringIndex(p)
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

// classifyInstall returns what a member of an install log bundle holds: the
// kubelet and CRI-O journals are read as node journals, the other journals
// and the gather's own log as install steps, resources/*.json as objects.
func classifyInstall(p string) classified {
	if m := installJournalRe.FindStringSubmatch(p); m != nil {
		c := classified{Root: m[1], Node: m[3], Unit: m[4]}
		switch m[4] {
		case "kubelet", "crio":
			c.Kind = kindServiceLog
		default:
			c.Kind = kindInstallText
		}
		return c
	}
	if m := installContainerRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindInstallContainerLog, Root: m[1], Node: m[3], Container: m[4]}
	}
	if strings.HasSuffix(p, ".inspect") && (strings.Contains(p, "/containers/") || strings.HasPrefix(p, "bootstrap/containers/")) {
		return classified{Kind: kindInstallInspect, Root: p[:strings.Index(p, "bootstrap/")]}
	}
	if m := installResourceRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindInstallResource, Root: m[1], Name: m[2] + "." + m[3]}
	}
	if m := installTextRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindInstallText, Root: m[1], Unit: strings.TrimSuffix(strings.TrimSuffix(m[2], ".log"), ".txt")}
	}
	return classified{Kind: kindOther}
}

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

// maxInstallSteps bounds the step groups kept per stage;
// maxInstallContainers the container logs kept per bundle (each a bounded tail).
const (
	maxInstallSteps      = 64
	maxInstallContainers = 512
)

// readInstallText scans a journal or text file of an install log bundle for
// the lines that show a stage.
func (b *builder) readInstallText(p string, c classified, r io.Reader) error {
	ib := b.installBundle(c.Root)
	host := "bootstrap"
	if c.Node != "" {
		host = c.Node
	}
	ref := b.referenceTime()
	var cut longLines
	err := scanLinesCounted(r, func(n int, raw []byte) {
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
			b.addInstallStep(ib, model.InstallStep{Stage: pat.stage, Host: lineHost, Unit: c.Unit, Source: model.Source{Path: p, Line: n}, First: when, Last: when, Count: 1, Text: cleanText(bytes.TrimSpace(msg))})
			return
		}
	}, &cut)
	if err == nil {
		err = cut.err()
	}
	return err
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// addInstallStep adds s to the bundle, or counts it in the group of the same
// stage, host, unit and message.
func (b *builder) addInstallStep(ib *model.InstallBundle, s model.InstallStep) {
	b.mu.Lock()
	defer b.mu.Unlock()
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
	if n >= maxInstallSteps {
		return
	}
	s.Text = cutText(s.Text)
	ib.Steps = append(ib.Steps, s)
}

// readInstallContainerLog keeps the tail of a bootstrap or master container log.
func (b *builder) readInstallContainerLog(p string, c classified, r io.Reader) error {
	ib := b.installBundle(c.Root)
	b.mu.Lock()
	full := len(ib.Containers) >= maxInstallContainers
	b.mu.Unlock()
	if full {
		return fmt.Errorf("more than %d container logs in the install log bundle: this one is not read", maxInstallContainers)
	}
	l := &model.ContainerLog{Container: c.Container}
	l.SetPath(p, intern)
	_, err := readTail(r, l, true)
	host := "bootstrap"
	if c.Node != "" {
		host = c.Node
	}
	b.mu.Lock()
	ib.Containers = append(ib.Containers, model.InstallContainer{Host: host, Name: c.Container, Log: l})
	b.mu.Unlock()
	return err
}

// readInstallResource records a resources/ file of the bundle and, when it
// holds objects, reads them as the matching gather files would be read.
func (b *builder) readInstallResource(p string, c classified, data []byte) []error {
	ib := b.installBundle(c.Root)
	empty := len(bytes.TrimSpace(data)) == 0
	b.mu.Lock()
	ib.Resources = append(ib.Resources, c.Name)
	if empty {
		ib.Empty = append(ib.Empty, c.Name)
	}
	if c.Name == "masters.list" {
		ib.MastersListed = len(strings.Fields(string(data)))
	}
	b.mu.Unlock()
	if empty {
		return nil
	}
	obj := classified{Root: c.Root}
	switch c.Name {
	case "pods.json":
		obj.Kind = kindCaptureObjects
	case "events.json":
		obj.Kind = kindAnyEvents
	case "nodes.json":
		obj.Kind = kindNodeList
	case "clusteroperators.json":
		obj.Kind = kindClusterOperators
	case "csr.json":
		obj.Kind, obj.Group, obj.Resource = kindObjectList, model.CertificateSigningRequests.Group, model.CertificateSigningRequests.Resource
	case "machineconfigpools.json":
		obj.Kind, obj.Group, obj.Resource = kindObjectList, model.MachineConfigPools.Group, model.MachineConfigPools.Resource
	default:
		return nil
	}
	if err := b.decodeHeavy(p, obj, data); err != nil {
		return []error{err}
	}
	return nil
}

var inspectTimeRe = regexp.MustCompile(`"(?:createdAt|startedAt|finishedAt)":\s*"(\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d))"`)

// readInstallInspect keeps the latest time a crictl inspect file names: the
// journals of a log bundle carry no year, and the bundle no timestamp file.
func (b *builder) readInstallInspect(data []byte) {
	var latest time.Time
	for _, m := range inspectTimeRe.FindAllSubmatch(data, 64) {
		if t, err := time.Parse(time.RFC3339Nano, string(m[1])); err == nil && t.Year() > 1970 && t.After(latest) {
			latest = t.UTC()
		}
	}
	if latest.IsZero() {
		return
	}
	b.mu.Lock()
	if latest.After(b.installLatest) {
		b.installLatest = latest
	}
	b.mu.Unlock()
}

// installBundle returns the bundle of root, made on first use.
func (b *builder) installBundle(root string) *model.InstallBundle {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.installs == nil {
		b.installs = map[string]*model.InstallBundle{}
	}
	ib := b.installs[root]
	if ib == nil {
		ib = &model.InstallBundle{Root: root, MastersListed: -1}
		b.installs[root] = ib
	}
	return ib
}

// settleInstall files the bundles into the gather: steps in time order, the
// masters the bundle has folders of, sorted lists.
func (b *builder) settleInstall() {
	for _, root := range sortedKeys(b.installs) {
		ib := b.installs[root]
		masters := map[string]bool{}
		for _, c := range ib.Containers {
			if c.Host != "bootstrap" {
				masters[c.Host] = true
			}
		}
		for _, s := range ib.Steps {
			if strings.Contains(s.Source.Path, "control-plane/") {
				masters[path.Base(path.Dir(path.Dir(s.Source.Path)))] = true
			}
		}
		ib.Masters = sortedKeys(masters)
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
		b.g.Installs = append(b.g.Installs, ib)
	}
}
