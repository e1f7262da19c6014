package executor

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// strategyVerbs are the verbs each update strategy sends for a manifest:
// reads, the write that creates the object and the write that changes it.
// Server-side apply creates through a patch, which the API server only
// allows with create as well.
var strategyVerbs = map[workv1.UpdateStrategyType][]string{
	workv1.UpdateStrategyTypeUpdate:          {"get", "create", "update"},
	workv1.UpdateStrategyTypeCreateOnly:      {"get", "create"},
	workv1.UpdateStrategyTypeServerSideApply: {"get", "create", "patch"},
	workv1.UpdateStrategyTypeReadOnly:        {"get"},
}

const rbacGroup = "rbac.authorization.k8s.io"

// Writing RBAC objects takes more than the verbs on them: the API server lets
// a user write a Role or ClusterRole only with escalate on it (or every
// permission it grants), and a binding only with bind on the role it refers
// to (or every permission of that role). The agent holds both, so it checks
// the executor for the explicit verbs.
var (
	escalated = map[schema.GroupResource]bool{
		{Group: rbacGroup, Resource: "roles"}:        true,
		{Group: rbacGroup, Resource: "clusterroles"}: true,
	}
	bindings = map[schema.GroupResource]bool{
		{Group: rbacGroup, Resource: "rolebindings"}:        true,
		{Group: rbacGroup, Resource: "clusterrolebindings"}: true,
	}
)

// applyAccesses are the accesses that applying obj as resource gvr with a
// strategy takes.
func applyAccesses(gvr schema.GroupVersionResource, obj *unstructured.Unstructured, strategy workv1.UpdateStrategyType) []Access {
	if strategy == "" {
		strategy = workv1.UpdateStrategyTypeUpdate
	}
	base := Access{Group: gvr.Group, Resource: gvr.Resource, Namespace: obj.GetNamespace(), Name: obj.GetName()}
	var out []Access
	for _, verb := range strategyVerbs[strategy] {
		a := base
		a.Verb = verb
		out = append(out, a)
	}
	if strategy == workv1.UpdateStrategyTypeReadOnly {
		return out
	}
	gr := gvr.GroupResource()
	if escalated[gr] {
		a := base
		a.Verb = "escalate"
		out = append(out, a)
	}
	if bindings[gr] {
		if a, ok := bindAccess(obj); ok {
			out = append(out, a)
		}
	}
	return out
}

// bindAccess is bind on the role a binding refers to, in the binding's
// namespace (empty for a ClusterRoleBinding), as the API server checks it.
func bindAccess(obj *unstructured.Unstructured) (Access, bool) {
	kind, _, _ := unstructured.NestedString(obj.Object, "roleRef", "kind")
	name, _, _ := unstructured.NestedString(obj.Object, "roleRef", "name")
	resource := map[string]string{"Role": "roles", "ClusterRole": "clusterroles"}[kind]
	if resource == "" || name == "" {
		return Access{}, false // the API server refuses such a binding by itself
	}
	return Access{Verb: "bind", Group: rbacGroup, Resource: resource, Namespace: obj.GetNamespace(), Name: name}, true
}
