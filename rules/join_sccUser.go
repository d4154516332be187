package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// joinSCCUser runs the sccUser join for one pod and hit (doc and reads: joinRegistry).
func joinSCCUser(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	scc := p.Object.Annotations["openshift.io/scc"]
	if scc == "" {
		return res // not OpenShift, or admitted before SCCs annotated pods
	}
	var uid *int64
	if sc := p.Object.Spec.SecurityContext; sc != nil && sc.RunAsUser != nil {
		uid = sc.RunAsUser
	}
	for _, cs := range containers(p, nil) {
		if cs.Name == h.Container && cs.Spec != nil && cs.Spec.SecurityContext != nil && cs.Spec.SecurityContext.RunAsUser != nil {
			uid = cs.Spec.SecurityContext.RunAsUser
		}
	}
	res.Evidence = append(res.Evidence, c.statusEvidence(p, fmt.Sprintf("annotation openshift.io/scc=%s; runAsUser %s", scc, uidText(uid))))
	if uid == nil || *uid == 0 || !strings.HasPrefix(scc, "restricted") && !strings.HasPrefix(scc, "nonroot") {
		return res // root, or an SCC that keeps the image's user: not the arbitrary-UID case
	}
	rng := ""
	nsObj, cov := c.store.Get(model.Namespaces, "", p.Object.Namespace)
	if ns := model.Typed[corev1.Namespace](nsObj); ns != nil {
		rng = ns.Annotations["openshift.io/sa.scc.uid-range"]
		if rng != "" {
			res.Evidence = append(res.Evidence, objectEvidence(nsObj, "annotation openshift.io/sa.scc.uid-range="+rng))
		}
	} else if cov == model.NotGathered {
		res.Missing = append(res.Missing, notGathered("Namespace "+p.Object.Namespace+", so its UID range could not be read"))
	}
	res.Decided = true
	from := ""
	if rng != "" {
		from = fmt.Sprintf(", taken from namespace %s's range %s", p.Object.Namespace, rng)
	}
	res.Cause = fmt.Sprintf("The pod runs under SCC %s as UID %d%s, with group 0: not as the user the image was built for, so paths the image owns by another UID are not writable.", scc, *uid, from)
	res.Fix = "Make the image's writable paths group-owned by 0 and group-writable (`chgrp -R 0 DIR && chmod -R g=u DIR` in the image build), or mount an emptyDir there; grant another SCC only if the workload truly needs a fixed UID."
	return res
}

func uidText(uid *int64) string {
	if uid == nil {
		return "unset (the image's USER)"
	}
	return strconv.FormatInt(*uid, 10)
}
