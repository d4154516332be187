package rules

import (
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// vocabulary is the words a finding uses for the gather's platform: its CLI
// and docs (OpenShift's oc and docs, or kubectl and the Kubernetes docs) and,
// per node, its container runtime (CRI-O, containerd, Docker).
type vocabulary struct {
	// kubernetes is true for a gather of vanilla Kubernetes
	// (model.Gather.Distribution, which the parser decides).
	kubernetes bool
	// runtimes maps a node's short name to its runtime's name, from the Node's
	// status.nodeInfo.containerRuntimeVersion ("containerd://1.6.9").
	runtimes map[string]string
	// fallback is the runtime most nodes report (model.Gather's
	// ContainerRuntime) for findings whose node is not known.
	fallback string
}

func newVocabulary(g *model.Gather) vocabulary {
	v := vocabulary{runtimes: map[string]string{}}
	for _, n := range g.Nodes {
		if rt := runtimeName(n.Object.Status.NodeInfo.ContainerRuntimeVersion); rt != "" {
			v.runtimes[model.HostKey(n.Object.Name)] = rt
		}
	}
	if rt := runtimeNames[g.ContainerRuntime]; rt != "" {
		v.fallback = rt
	}
	// The parser decides the platform (Gather.Distribution), in one place.
	v.kubernetes = g.Distribution == model.DistributionKubernetes
	return v
}

// runtimeName names the runtime of a containerRuntimeVersion ("cri-o://1.22",
// "containerd://1.6.9", "docker://20.10.7"); "" when unknown.
func runtimeName(version string) string {
	switch {
	case strings.HasPrefix(version, "cri-o://"):
		return "CRI-O"
	case strings.HasPrefix(version, "containerd://"):
		return "containerd"
	case strings.HasPrefix(version, "docker://"):
		return "Docker"
	}
	return ""
}

// runtimeOf names the runtime that wrote a finding's evidence: the node's
// runtime when its Node was gathered, else the one the evidence's own words
// give away (Docker's "Error response from daemon", containerd's "failed to
// pull and unpack image"), else "" (CRI-O is then assumed on OpenShift).
func (v vocabulary) runtimeOf(f *Finding) string {
	node := ""
	if f.Pod != nil {
		node = f.Pod.Object.Spec.NodeName
	} else if f.Node != nil {
		node = f.Node.Object.Name
	}
	if rt := v.runtimes[model.HostKey(node)]; rt != "" {
		return rt
	}
	for _, e := range f.Evidence {
		switch {
		case strings.Contains(e.Text, "Error response from daemon"):
			return "Docker"
		case strings.Contains(e.Text, "failed to pull and unpack image"), strings.Contains(e.Text, "containerd"):
			return "containerd"
		}
	}
	return v.fallback
}

var (
	nodeLogsRe  = regexp.MustCompile("`oc adm node-logs (\\S+) -u (\\S+)([^`]*)`")
	debugNodeRe = regexp.MustCompile("`oc debug node/(\\S+) -- chroot /host ([^`]*)`")
)

// apply rewrites a finding's words for the gather: another runtime's name for
// CRI-O, and on a Kubernetes gather kubectl for oc, journalctl on the node for
// `oc adm node-logs`, the command itself for `oc debug node/... -- chroot
// /host`; remediation steps with no kubectl equivalent (OpenShift-only
// resources and commands) and OpenShift docs are dropped there.
func (v vocabulary) apply(f *Finding) {
	rt := v.runtimeOf(f)
	if rt == "" && v.kubernetes {
		rt = "the container runtime"
	}
	unit := map[string]string{"CRI-O": "crio", "containerd": "containerd", "Docker": "docker"}[rt]
	if rt != "" && rt != "CRI-O" {
		f.Hint = replaceRuntime(f.Hint, rt)
		for i, s := range f.Remediation {
			s = replaceRuntime(s, rt)
			if unit != "" {
				s = strings.ReplaceAll(s, "-u crio", "-u "+unit)
			}
			f.Remediation[i] = s
		}
	}
	if !v.kubernetes {
		return
	}
	var steps []string
	for _, s := range f.Remediation {
		s = nodeLogsRe.ReplaceAllString(s, "`journalctl -u $2$3` on node $1")
		s = debugNodeRe.ReplaceAllString(s, "`$2` on node $1")
		for _, r := range kubectlRewrites {
			s = r.re.ReplaceAllString(s, r.with)
		}
		s = strings.ReplaceAll(s, "`oc ", "`kubectl ")
		if openShiftOnly(s) {
			continue
		}
		steps = append(steps, s)
	}
	f.Remediation = steps
	var docs []string
	for _, d := range f.Rule.Docs {
		if !strings.Contains(d, "openshift.com") && !strings.Contains(d, "redhat.com") {
			docs = append(docs, d)
		}
	}
	f.Docs = docs
}

// replaceRuntime puts rt where a text names CRI-O; a sentence may start with it.
func replaceRuntime(s, rt string) string {
	if rt == "the container runtime" {
		s = strings.ReplaceAll(s, ". CRI-O ", ". The container runtime ")
		if strings.HasPrefix(s, "CRI-O ") {
			s = "The container runtime " + s[len("CRI-O "):]
		}
	}
	return strings.ReplaceAll(s, "CRI-O", rt)
}

// openShiftOnly reports whether a remediation step needs OpenShift: oc adm,
// OpenShift resources (ClusterOperators, MachineConfigPools, proxy, image
// mirror sets, KubeletConfigs) or namespaces.
func openShiftOnly(s string) bool {
	for _, w := range []string{"kubectl adm ", "clusteroperator", "kubectl get co", "mcp", "machineconfig", "kubeletconfig",
		"proxy/cluster", "imagedigestmirrorset", "imagecontentsourcepolic", "image.config", "openshift-", "oc adm", "kubectl debug node/", "scc"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// The rule table speaks OpenShift: `oc` commands, CRI-O. For a gather of
// vanilla Kubernetes (a support bundle, pod captures; model.Gather's
// Distribution) the findings are rewritten into kubectl and the container
// runtime the nodes report, so a command can be pasted as it stands.

// kubectlRewrites turn oc commands into their kubectl counterparts, in order.
// Commands only OpenShift has (oc adm policy, oc adm must-gather) stay.
var kubectlRewrites = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\boc -n (\S+) adm top `), "kubectl -n $1 top "},
	{regexp.MustCompile(`\boc adm node-logs (\S+) -u (\S+)`), "ssh $1 journalctl -u $2"},
	{regexp.MustCompile(`\boc adm node-logs (\S+)`), "ssh $1 journalctl"},
	{regexp.MustCompile(`\boc debug (node/\S+) -- `), "kubectl debug $1 -it --image=busybox -- "},
	{regexp.MustCompile(`\boc adm (top|cordon|uncordon|drain|taint|certificate) `), "kubectl $1 "},
	{regexp.MustCompile("(^|[\\s`(\"'])oc (-n |--namespace |get |describe |logs |delete |rollout |set |edit |patch |explain |exec |debug |apply |create |scale |label |annotate |auth |wait |events )"), "${1}kubectl $2"},
}

// runtimeNames are how hints name a container runtime.
var runtimeNames = map[string]string{"containerd": "containerd", "docker": "Docker", "cri-o": "CRI-O"}

// vocabularyFor returns the rewrite of hint and remediation text for g, or
// nil when the table's own words fit (OpenShift).
func vocabularyFor(g *model.Gather) func(string) string {
	if g.Distribution != model.DistributionKubernetes {
		return nil
	}
	runtime := runtimeNames[g.ContainerRuntime]
	return func(s string) string {
		for _, r := range kubectlRewrites {
			s = r.re.ReplaceAllString(s, r.with)
		}
		if runtime != "" && runtime != "CRI-O" {
			s = strings.ReplaceAll(s, "CRI-O", runtime)
		}
		return s
	}
}

// speak rewrites the findings' hints and remediation with v (nil: as they are).
func speak(findings []Finding, v func(string) string) {
	if v == nil {
		return
	}
	for i := range findings {
		f := &findings[i]
		f.Hint = v(f.Hint)
		for j := range f.Remediation {
			f.Remediation[j] = v(f.Remediation[j])
		}
	}
}
