package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// joinSCCUser runs the sccUser join for one pod and hit (doc and reads:
// joinRegistry). Run as a signature's decider, the hit's values hold the
// path the container was denied (Path): a path under a read-only mount rules
// the arbitrary UID out, as do a pod that runs as root or as the image's own
// user (anyuid and the like), and a pod no SCC admitted on a gather that is
// not OpenShift.
func joinSCCUser(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	cs, _ := containerNamed(p, h.Container)
	denied := h.Vars["Path"]
	paths := []string{denied}
	if denied == "" {
		// Run for a rule: the paths of the hit's denial lines.
		paths = deniedPaths(h.Evidence)
	}
	for _, path := range paths {
		if m := mountOf(p, cs, path); m != nil && m.readOnly != "" {
			res.RuledOut = true
			res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s %s mounts %s", cs.Kind, cs.Name, m.text()), m.field+".readOnly", m.field))
			return res
		}
	}
	scc := p.Object.Annotations["openshift.io/scc"]
	uid, uidField := runAsUser(p, cs)
	if scc == "" {
		// Not OpenShift, or admitted before SCCs annotated pods: no SCC
		// assigned the UID.
		res.RuledOut = c.vocab.kubernetes || uid == nil || *uid == 0
		return res
	}
	ev := c.fieldEvidence(p, fmt.Sprintf("annotation openshift.io/scc=%s; runAsUser %s", scc, uidText(uid)), uidField)
	res.Evidence = append(res.Evidence, ev)
	if uid == nil || *uid == 0 || !strings.HasPrefix(scc, "restricted") && !strings.HasPrefix(scc, "nonroot") {
		res.RuledOut = true // root, or an SCC that keeps the image's user: not the arbitrary-UID case
		return res
	}
	rng := ""
	nsObj, cov := c.store.Get(model.Namespaces, "", p.Object.Namespace)
	if ns := model.Typed[corev1.Namespace](nsObj); ns != nil {
		rng = ns.Annotations["openshift.io/sa.scc.uid-range"]
		if rng != "" {
			res.Evidence = append(res.Evidence, objectEvidence(nsObj, "annotation openshift.io/sa.scc.uid-range="+rng))
		}
	} else if cov == model.NotGathered {
		res.notGathered(objectsGap(model.Namespaces, ""), "Namespace "+p.Object.Namespace+", so its UID range could not be read")
	}
	if m := mountOf(p, cs, denied); m != nil && m.volume != nil && m.volume.EmptyDir == nil {
		// A claim or host path: who owns it is not in the gather, and the
		// SCC's fsGroup, not the image, decides whether the UID may write.
		res.Missing = append(res.Missing, fmt.Sprintf("%s lies on %s, whose ownership the gather does not show", denied, m.text()))
		return res
	}
	res.Decided = true
	from := ""
	if rng != "" {
		from = fmt.Sprintf(", taken from namespace %s's range %s", p.Object.Namespace, rng)
	}
	res.Cause = fmt.Sprintf("The pod runs under SCC %s as UID %d%s, with group 0: not as the user the image was built for, so paths the image owns by another UID are not writable.", scc, *uid, from)
	if denied != "" {
		res.Fix = "Grant the service account another SCC only if the workload truly needs the image's own UID."
	} else {
		res.Fix = "Make the image's writable paths group-owned by 0 and group-writable (`chgrp -R 0 DIR && chmod -R g=u DIR` in the image build), or mount an emptyDir there; grant another SCC only if the workload truly needs a fixed UID."
	}
	return res
}

var (
	denialRe   = mustLitRegexp(`(?i)permission denied|read-only file system|operation not permitted|AccessDeniedException`)
	absPathRe  = regexp.MustCompile(`(?:^|[\s'"(‘\[])(/[^\s'"’:,()\]]+)`)
	maxDenials = 8
)

// deniedPaths returns the absolute paths named in the evidence lines that
// report a denied or read-only access (at most maxDenials of them).
func deniedPaths(ev []Evidence) []string {
	var out []string
	for _, e := range ev {
		if !denialRe.MatchString(e.Text) {
			continue
		}
		for _, m := range absPathRe.FindAllStringSubmatch(e.Text, -1) {
			out = append(out, m[1])
			if len(out) == maxDenials {
				return out
			}
		}
	}
	return out
}

func uidText(uid *int64) string {
	if uid == nil {
		return "unset (the image's USER)"
	}
	return strconv.FormatInt(*uid, 10)
}
