package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	rbacv1 "k8s.io/api/rbac/v1"
)

// saRef is a service account: the identity a pod's processes call the API
// server and the registry with.
type saRef struct{ Namespace, Name string }

func (s saRef) String() string { return s.Namespace + ":" + s.Name }

// user is the user name the API server knows the service account by.
func (s saRef) user() string { return "system:serviceaccount:" + s.Namespace + ":" + s.Name }

// podSA is the service account pod p runs as ("default" when it names none).
func podSA(p *model.Pod) saRef {
	sa := p.Object.Spec.ServiceAccountName
	if sa == "" {
		sa = p.Object.Spec.DeprecatedServiceAccount
	}
	if sa == "" {
		sa = "default"
	}
	return saRef{p.Object.Namespace, sa}
}

// subjectNames reports whether subject s of a binding in namespace bindingNS
// ("" for a ClusterRoleBinding) names service account sa, as the API
// server's authorizer reads it: the account itself (a ServiceAccount subject
// without a namespace is the binding's own namespace's), its user name, or
// one of the groups every service account (of its namespace) belongs to.
func subjectNames(s rbacv1.Subject, bindingNS string, sa saRef) bool {
	switch s.Kind {
	case rbacv1.ServiceAccountKind:
		ns := s.Namespace
		if ns == "" {
			ns = bindingNS
		}
		return s.Name == sa.Name && ns == sa.Namespace
	case rbacv1.UserKind:
		return s.Name == sa.user()
	case rbacv1.GroupKind:
		return s.Name == "system:serviceaccounts" || s.Name == "system:serviceaccounts:"+sa.Namespace || s.Name == "system:authenticated"
	}
	return false
}

// subjectNearMiss describes subject s when it names a service account of
// sa's name in another namespace (the binding was written for another
// namespace), else "".
func subjectNearMiss(s rbacv1.Subject, bindingNS string, sa saRef) string {
	switch s.Kind {
	case rbacv1.ServiceAccountKind:
		ns := s.Namespace
		if ns == "" {
			ns = bindingNS
		}
		if s.Name == sa.Name && ns != sa.Namespace {
			return fmt.Sprintf("ServiceAccount %s in namespace %s", s.Name, ns)
		}
	case rbacv1.UserKind:
		if rest, ok := strings.CutPrefix(s.Name, "system:serviceaccount:"); ok {
			if ns, name, ok := strings.Cut(rest, ":"); ok && name == sa.Name && ns != sa.Namespace {
				return fmt.Sprintf("User %s (namespace %s)", s.Name, ns)
			}
		}
	}
	return ""
}

func subjectText(s rbacv1.Subject) string {
	if s.Kind == rbacv1.ServiceAccountKind && s.Namespace != "" {
		return "ServiceAccount " + s.Namespace + "/" + s.Name
	}
	return s.Kind + " " + s.Name
}

func subjectList(subs []rbacv1.Subject) string {
	var out []string
	for _, s := range subs {
		out = append(out, subjectText(s))
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// apiAccess is one request the API server authorised or refused.
type apiAccess struct {
	Verb, Group, Resource, Subresource, Name string
}

func (a apiAccess) resourceText() string {
	r := a.Resource
	if a.Subresource != "" {
		r += "/" + a.Subresource
	}
	if a.Group != "" {
		r += " (API group " + a.Group + ")"
	}
	return r
}

// ruleAllows reports whether policy rule r allows access a (verbs, API
// groups, resources with their subresources, resource names; "*" matches
// all), as the RBAC authorizer does.
func ruleAllows(r rbacv1.PolicyRule, a apiAccess) bool {
	has := func(list []string, v string) bool { return slices.Contains(list, v) || slices.Contains(list, "*") }
	if !has(r.Verbs, a.Verb) || !has(r.APIGroups, a.Group) {
		return false
	}
	res := a.Resource
	if a.Subresource != "" {
		res += "/" + a.Subresource
	}
	ok := slices.Contains(r.Resources, "*") || slices.Contains(r.Resources, res)
	if !ok && a.Subresource != "" {
		ok = slices.Contains(r.Resources, a.Resource+"/*") || slices.Contains(r.Resources, "*/"+a.Subresource)
	}
	if !ok {
		return false
	}
	return len(r.ResourceNames) == 0 || a.Name != "" && slices.Contains(r.ResourceNames, a.Name)
}

// knownClusterRoles are default ClusterRoles whose rules are narrow and fixed
// by the platform, for gathers that hold the bindings but not the roles.
var knownClusterRoles = map[string][]rbacv1.PolicyRule{
	"cluster-admin":             {{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}},
	"system:image-puller":       {{Verbs: []string{"get"}, APIGroups: []string{"", "image.openshift.io"}, Resources: []string{"imagestreams/layers"}}},
	"system:image-pusher":       {{Verbs: []string{"get", "update"}, APIGroups: []string{"", "image.openshift.io"}, Resources: []string{"imagestreams/layers"}}},
	"system:image-builder":      {{Verbs: []string{"get", "update"}, APIGroups: []string{"", "image.openshift.io"}, Resources: []string{"imagestreams/layers"}}, {Verbs: []string{"create"}, APIGroups: []string{"", "image.openshift.io"}, Resources: []string{"imagestreams"}}, {Verbs: []string{"update"}, APIGroups: []string{"", "build.openshift.io"}, Resources: []string{"builds/details"}}, {Verbs: []string{"get"}, APIGroups: []string{"", "build.openshift.io"}, Resources: []string{"builds"}}},
	"system:deployer":           {{Verbs: []string{"get", "list", "watch", "update", "delete"}, APIGroups: []string{""}, Resources: []string{"replicationcontrollers"}}, {Verbs: []string{"get", "update"}, APIGroups: []string{""}, Resources: []string{"replicationcontrollers/scale"}}, {Verbs: []string{"get", "list", "watch", "create"}, APIGroups: []string{""}, Resources: []string{"pods"}}, {Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods/log"}}, {Verbs: []string{"create", "list"}, APIGroups: []string{""}, Resources: []string{"events"}}, {Verbs: []string{"update"}, APIGroups: []string{"", "image.openshift.io"}, Resources: []string{"imagestreamtags", "imagetags"}}},
	"registry-viewer":           {{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{"", "image.openshift.io"}, Resources: []string{"imagestreams", "imagestreams/layers", "imagestreamtags", "imagestreamimages", "imagestreammappings", "imagetags", "images"}}},
	"system:basic-user":         {{Verbs: []string{"get"}, APIGroups: []string{"", "user.openshift.io"}, Resources: []string{"users"}, ResourceNames: []string{"~"}}, {Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectaccessreviews", "selfsubjectrulesreviews"}}},
	"system:discovery":          {{Verbs: []string{"get"}, NonResourceURLs: []string{"/api", "/apis", "/healthz", "/version"}}},
	"system:public-info-viewer": {{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/version"}}},
}

// roleRules returns the rules of the role a binding in namespace bindingNS
// ("" for a ClusterRoleBinding) refers to, with the object it was read from
// (nil for a known default role); ok is false when neither the gather nor
// knownClusterRoles holds it.
func (c *evalContext) roleRules(ref rbacv1.RoleRef, bindingNS string) (rules []rbacv1.PolicyRule, obj *model.Object, ok bool) {
	if ref.Kind == "Role" {
		o, _ := c.store.Get(model.Roles, bindingNS, ref.Name)
		if r := model.Typed[rbacv1.Role](o); r != nil {
			return r.Rules, o, true
		}
		return nil, nil, false
	}
	o, _ := c.store.Get(model.ClusterRoles, "", ref.Name)
	if r := model.Typed[rbacv1.ClusterRole](o); r != nil {
		return r.Rules, o, true
	}
	if rules, known := knownClusterRoles[ref.Name]; known {
		return rules, nil, true
	}
	return nil, nil, false
}

// binding is one RoleBinding or ClusterRoleBinding, typed once.
type binding struct {
	obj      *model.Object
	ns       string // "" for a ClusterRoleBinding
	roleRef  rbacv1.RoleRef
	subjects []rbacv1.Subject
}

func (b binding) name() string {
	if b.ns == "" {
		return "ClusterRoleBinding " + b.obj.Name
	}
	return "RoleBinding " + b.ns + "/" + b.obj.Name
}

func (b binding) role() string { return b.roleRef.Kind + " " + b.roleRef.Name }

// bindingsIn lists the RoleBindings of namespace ns ("" for the
// ClusterRoleBindings) and the coverage of that list.
func (c *evalContext) bindingsIn(ns string) ([]binding, model.Coverage) {
	var out []binding
	if ns == "" {
		objs, crbs, cov := model.ListTyped[rbacv1.ClusterRoleBinding](c.store, model.ClusterRoleBindings, "")
		for i, b := range crbs {
			out = append(out, binding{obj: objs[i], roleRef: b.RoleRef, subjects: b.Subjects})
		}
		return out, cov
	}
	objs, rbs, cov := model.ListTyped[rbacv1.RoleBinding](c.store, model.RoleBindings, ns)
	for i, b := range rbs {
		out = append(out, binding{obj: objs[i], ns: ns, roleRef: b.RoleRef, subjects: b.Subjects})
	}
	return out, cov
}

// grantCheck is what the bindings of one scope say about one request of one
// service account.
type grantCheck struct {
	// Grants are the bindings naming the account whose role allows the
	// request; Apply those naming it whose role does not (with why);
	// Unread those naming it whose role is not gathered; Near the bindings
	// naming an account of its name in another namespace (with the subject),
	// whose role would allow the request.
	Grants, Apply, Unread, Near []string
	Evidence                    []Evidence
}

// checkGrants reads the bindings bs (a namespace's, or the cluster's) for
// what they give sa for access a.
func (c *evalContext) checkGrants(bs []binding, sa saRef, a apiAccess) grantCheck {
	var g grantCheck
	for _, b := range bs {
		names, near := false, ""
		for _, s := range b.subjects {
			if subjectNames(s, b.ns, sa) {
				names = true
			} else if n := subjectNearMiss(s, b.ns, sa); n != "" && near == "" {
				near = n
			}
		}
		if !names && near == "" {
			continue
		}
		// A ClusterRoleBinding grants cluster-wide; a RoleBinding only in
		// its own namespace (even to a ClusterRole).
		rules, roleObj, known := c.roleRules(b.roleRef, b.ns)
		allows := false
		for _, r := range rules {
			if ruleAllows(r, a) {
				allows = true
				break
			}
		}
		ev := objectEvidence(b.obj, fmt.Sprintf("roleRef %s, subjects %s", b.role(), subjectList(b.subjects)))
		switch {
		case names && allows:
			g.Grants = append(g.Grants, fmt.Sprintf("%s (→ %s)", b.name(), b.role()))
		case names && !known:
			g.Unread = append(g.Unread, fmt.Sprintf("%s (→ %s, not in the gather)", b.name(), b.role()))
		case names:
			g.Apply = append(g.Apply, fmt.Sprintf("%s (→ %s, which does not allow %s on %s)", b.name(), b.role(), a.Verb, a.resourceText()))
		default:
			note := ""
			switch {
			case !known:
				note = fmt.Sprintf(" (→ %s, not in the gather)", b.role())
			case !allows:
				note = fmt.Sprintf(" (→ %s, which would not allow it either)", b.role())
			}
			g.Near = append(g.Near, fmt.Sprintf("%s names %s, not %s%s", b.name(), near, sa, note))
		}
		g.Evidence = append(g.Evidence, ev)
		if roleObj != nil && allows {
			g.Evidence = append(g.Evidence, objectEvidence(roleObj, fmt.Sprintf("allows %s on %s", a.Verb, a.resourceText())))
		}
	}
	return g
}

// joinRBACGrant runs the rbacGrant join for one pod and hit (doc and reads:
// joinRegistry). The refused request is in the signature's captures:
// SAUser (system:serviceaccount:NS:NAME), Verb, Resource (resource or
// resource/subresource), APIGroup, and Where (the namespace; empty at the
// cluster scope).
func joinRBACGrant(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	rest, ok := strings.CutPrefix(h.Vars["SAUser"], "system:serviceaccount:")
	if !ok {
		return res
	}
	ns, name, ok := strings.Cut(rest, ":")
	if !ok {
		return res
	}
	sa := saRef{ns, name}
	a := apiAccess{Verb: h.Vars["Verb"], Group: h.Vars["APIGroup"], Name: h.Vars["ObjectName"]}
	a.Resource, a.Subresource, _ = strings.Cut(h.Vars["Resource"], "/")
	where := h.Vars["Where"]
	scope := "at the cluster scope"
	if where != "" {
		scope = "in namespace " + where
	}
	// The bindings that count: the namespace's RoleBindings and every
	// ClusterRoleBinding (for a cluster-scoped request, only these).
	crbs, crbCov := c.bindingsIn("")
	var nsBindings []binding
	nsCov := model.Found
	if where != "" {
		nsBindings, nsCov = c.bindingsIn(where)
	}
	inScope := c.checkGrants(slices.Concat(nsBindings, crbs), sa, a)
	res.Evidence = inScope.Evidence
	if len(inScope.Grants) > 0 {
		// A binding allows it now: the refusal came before the binding, or
		// from another cause; the missing-permission cause is ruled out.
		res.RuledOut = true
		return res
	}
	own := grantCheck{}
	if where != "" && where != sa.Namespace {
		if bs, cov := c.bindingsIn(sa.Namespace); cov != model.NotGathered {
			own = c.checkGrants(bs, sa, a)
		}
	}
	if where != "" && nsCov == model.NotGathered {
		res.notGathered(objectsGap(model.RoleBindings, where), "RoleBindings of namespace "+where+", so what they grant "+sa.String()+" there could not be read")
	}
	if crbCov == model.NotGathered {
		res.notGathered(objectsGap(model.ClusterRoleBindings, ""), "ClusterRoleBindings, so the cluster-wide grants could not be read")
	}
	req := fmt.Sprintf("%s on %s %s", a.Verb, a.resourceText(), scope)
	switch {
	case where != "" && where != sa.Namespace && len(own.Grants) > 0:
		// The account holds the permission where it runs; the request went
		// elsewhere.
		res.Decided = true
		res.Evidence = append(res.Evidence, own.Evidence...)
		lease := ""
		if a.Resource == "leases" {
			lease = " — for a lease, its leader-election namespace"
		}
		res.Cause = fmt.Sprintf("Service account %s may %s %s in its own namespace %s (%s), but the refused request is for namespace %s, another namespace than the pod's: the process is configured or hard-coded to work in %s%s.",
			sa, a.Verb, a.resourceText(), sa.Namespace, strings.Join(own.Grants, ", "), where, where, lease)
		if nsCov == model.NotGathered {
			res.Cause += fmt.Sprintf(" (Namespace %s is not in the gather.)", where)
		}
		res.Fix = fmt.Sprintf("Make the process use its own namespace %s (its namespace flag or setting%s, or POD_NAMESPACE from the downward API: `fieldRef: {fieldPath: metadata.namespace}`); grant access in %s only if it must really work there.",
			sa.Namespace, pick(a.Resource == "leases", " for leader election", ""), where)
	case where != "" && nsCov == model.NotGathered:
		// The namespace's bindings are not gathered: nothing to decide on.
	case where == "" && crbCov == model.NotGathered:
	default:
		res.Decided = true
		var facts []string
		if len(inScope.Near) > 0 {
			facts = append(facts, strings.Join(inScope.Near, "; ")+": "+pick(len(inScope.Near) == 1, "its subject's namespace differs", "their subjects' namespace differs")+" from "+sa.Namespace+", where the pod runs, so "+pick(len(inScope.Near) == 1, "it grants", "they grant")+" nothing to "+sa.String())
		}
		if len(inScope.Apply) > 0 {
			facts = append(facts, "the bindings that do name it do not cover the request: "+strings.Join(inScope.Apply, "; "))
		}
		if len(inScope.Unread) > 0 {
			facts = append(facts, "bindings naming it whose role could not be read: "+strings.Join(inScope.Unread, "; "))
		}
		if len(inScope.Near) == 0 && len(inScope.Apply) == 0 && len(inScope.Unread) == 0 {
			facts = append(facts, "no RoleBinding "+pick(where != "", "in "+where+" ", "")+"or ClusterRoleBinding names it at all")
		}
		res.Cause = fmt.Sprintf("No role binding gives service account %s %s: %s.", sa, req, strings.Join(facts, "; "))
		if p != nil && sa.Namespace == p.Object.Namespace && sa.Name == "default" && p.Object.Spec.ServiceAccountName == "" {
			res.Cause += " The pod sets no serviceAccountName, so it runs as the namespace's default service account."
		}
		if len(inScope.Near) > 0 {
			res.Fix = fmt.Sprintf("Set the subject's namespace to %s in %s (subjects[].namespace), or bind the role to %s.", sa.Namespace, strings.Join(nearNames(inScope.Near), " and "), sa)
		} else {
			verbs := a.Verb
			if verbs == "list" || verbs == "watch" {
				verbs = "get,list,watch" // a client's informer lists, then watches
			}
			ns := "-n " + orDash(where) + " "
			if where == "" {
				ns = ""
			}
			res.Fix = fmt.Sprintf("Grant it: a Role (ClusterRole at the cluster scope) allowing %s on %s and a binding to the service account, e.g. `oc %screate %s %s-%s --verb=%s --resource=%s` and `oc %screate %s %s-%s --%s=%s-%s --serviceaccount=%s:%s`; or run the pod under a service account that has them (spec.serviceAccountName).",
				verbs, a.resourceText(), ns, pick(where == "", "clusterrole", "role"), sa.Name, a.Resource, verbs, resourceArg(a),
				ns, pick(where == "", "clusterrolebinding", "rolebinding"), sa.Name, a.Resource, pick(where == "", "clusterrole", "role"), sa.Name, a.Resource, sa.Namespace, sa.Name)
		}
	}
	return res
}

// resourceArg is the --resource value of `create role`: resource.group.
func resourceArg(a apiAccess) string {
	r := a.Resource
	if a.Subresource != "" {
		r += "/" + a.Subresource
	}
	if a.Group != "" {
		r += "." + a.Group
	}
	return r
}

// nearNames are the bindings' names of near-miss descriptions ("RoleBinding
// ns/x names ..." → "RoleBinding ns/x").
func nearNames(near []string) []string {
	var out []string
	for _, n := range near {
		name, _, _ := strings.Cut(n, " names ")
		out = append(out, name)
	}
	return out
}
