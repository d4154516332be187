package rules

import (
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser"
)

// The rule table speaks OpenShift: `oc` commands, CRI-O. For a gather of
// vanilla Kubernetes (a support bundle, pod captures; parser.Gather's
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
func vocabularyFor(g *parser.Gather) func(string) string {
	if g.Distribution != parser.DistributionKubernetes {
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
