package rules

import "testing"

// TestRbacGrantJoin: the rbacGrant decider decides when no binding grants
// the refused request (naming the bindings that name the account and why
// they do not apply, a subject in another namespace among them) or when the
// account holds it in its own namespace and the request went elsewhere; it
// rules the signature out when a binding grants the request.
func TestRbacGrantJoin(t *testing.T) {
	testDeciderTable(t, "rbacGrant", []deciderCase{
		{Signature: "rbac-forbidden-serviceaccount", Case: "an init container waits for a Job as the namespace's default service account, which may not read Jobs", Decided: true,
			CauseHas: []string{"shop:default", "RoleBinding shop/system:image-pullers", "does not allow get on jobs (API group batch)", "no serviceAccountName"}},
		{Signature: "rbac-forbidden-serviceaccount", Case: "the bindings name the controller's service account in the namespace of the example manifests", Decided: true,
			CauseHas: []string{"ClusterRoleBinding ingress names ServiceAccount ingress in namespace ingress-system, not shop:ingress", "subject's namespace differs"}},
		{Signature: "rbac-forbidden-serviceaccount", Case: "a running operator takes its leader-election lease in a namespace other than its own, where its binding is", Decided: true,
			CauseHas: []string{"in its own namespace shop", "namespace ops-system, another namespace", "Namespace ops-system is not in the gather"}},
		{Signature: "rbac-forbidden-serviceaccount", Case: "near miss, a binding in the namespace grants the verb (the refusal predates it)", RuledOut: true},
	})
}
