package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// pullAccess is what the integrated registry asks the API server before it
// serves an image stream's layers: may the caller get imagestreams/layers in
// the image's project.
var pullAccess = apiAccess{Verb: "get", Group: "image.openshift.io", Resource: "imagestreams", Subresource: "layers"}

// joinImagePuller runs the imagePuller join for one pod and hit (doc and
// reads: joinRegistry). The project the image lives in is the signature's
// capture Project.
func joinImagePuller(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	project := h.Vars["Project"]
	if project == "" {
		return res
	}
	sa := podSA(p)
	bs, cov := c.bindingsIn(project)
	if cov == model.NotGathered {
		res.notGathered(objectsGap(model.RoleBindings, project), "RoleBindings of project "+project+", so whether "+sa.String()+" may pull from it could not be read")
		return res
	}
	crbs, _ := c.bindingsIn("")
	g := c.checkGrants(slices.Concat(bs, crbs), sa, pullAccess)
	if len(g.Grants) > 0 {
		// The pod's service account may pull from the project: the refusal
		// is not the cross-project one.
		res.RuledOut = true
		res.Evidence = g.Evidence
		return res
	}
	// The bindings of the project that do let someone pull, and whom.
	var pullers []string
	for _, b := range bs {
		rules, _, known := c.roleRules(b.roleRef, b.ns)
		allows := false
		for _, r := range rules {
			allows = allows || ruleAllows(r, pullAccess)
		}
		if !known || !allows {
			continue
		}
		var whom []string
		for _, s := range b.subjects {
			w := subjectText(s)
			if s.Kind == "Group" && s.Name == "system:unauthenticated" {
				w += " (anonymous pulls only: the kubelet pulls with the pod's service-account credentials)"
			}
			whom = append(whom, w)
		}
		pullers = append(pullers, fmt.Sprintf("%s (→ %s) binds %s", b.name(), b.role(), strings.Join(whom, ", ")))
		res.Evidence = append(res.Evidence, objectEvidence(b.obj, fmt.Sprintf("roleRef %s, subjects %s", b.role(), subjectList(b.subjects))))
	}
	res.Decided = true
	there := "no binding there lets anyone pull"
	if len(pullers) > 0 {
		there = "the bindings there that allow pulls: " + strings.Join(pullers, "; ")
	}
	res.Cause = fmt.Sprintf("The image lives in project %s, and no RoleBinding of %s gives system:image-puller to service account %s or to its group system:serviceaccounts:%s (%s), so the registry refuses the pull that the kubelet makes with that account's credentials.",
		project, project, sa, sa.Namespace, there)
	res.Fix = fmt.Sprintf("(or, for the pod's service account alone, `oc policy add-role-to-user system:image-puller system:serviceaccount:%s:%s -n %s`)", sa.Namespace, sa.Name, project)
	return res
}
