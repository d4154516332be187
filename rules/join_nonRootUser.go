package rules

import (
	"fmt"

	"github.com/mgtriage/mgtriage/parser/model"
)

// joinNonRootUser runs the nonRootUser join for one pod and hit (doc and
// reads: joinRegistry): the kubelet checks the image's USER against
// runAsNonRoot only when no runAsUser is set, so the container's (or pod's)
// securityContext decides whether "runAsNonRoot and image will run as root"
// can be the cause.
func joinNonRootUser(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	cs, ok := containerNamed(p, h.Container)
	if !ok {
		return res
	}
	nonRoot, nonRootField := runAsNonRoot(p, cs)
	uid, uidField := runAsUser(p, cs)
	if uid != nil {
		// With a runAsUser the kubelet checks that number, never the
		// image's user: the message cannot be about this spec.
		res.RuledOut = true
		res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s %s: runAsUser %d", cs.Kind, cs.Name, *uid), uidField))
		return res
	}
	if nonRoot == nil || !*nonRoot {
		return res // runAsNonRoot comes from elsewhere (not in this spec): cannot tell
	}
	scope := "the container's"
	if nonRootField == "spec.securityContext.runAsNonRoot" {
		scope = "the pod's"
	}
	res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s %s: runAsNonRoot: true (%s securityContext), no runAsUser in the container's or the pod's securityContext", cs.Kind, cs.Name, scope), nonRootField))
	res.Decided = true
	scc := ""
	if s := p.Object.Annotations["openshift.io/scc"]; s != "" {
		scc = fmt.Sprintf(" SCC %s admitted the pod without assigning a UID.", s)
	}
	res.Cause = fmt.Sprintf("%s securityContext sets runAsNonRoot: true (%s) and neither the container nor the pod sets runAsUser, so the kubelet must take the user from the image's USER and refuses when it cannot prove it is not root.%s", cap(scope), nonRootField, scc)
	return res
}
