package executor

import (
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// strategyVerbs are the verbs an executor must hold on the object of a
// manifest for the agent to apply it with each update strategy. They are the
// verbs OCM's agent asks for, whatever the strategy, so that RBAC written for
// it grants and denies the same: every writing strategy reads, creates,
// updates and patches (the owner reference is a patch of its own). Only
// ReadOnly differs: it never writes, so it asks for get alone.
var strategyVerbs = map[workv1.UpdateStrategyType][]string{
	workv1.UpdateStrategyTypeUpdate:          writeVerbs,
	workv1.UpdateStrategyTypeCreateOnly:      writeVerbs,
	workv1.UpdateStrategyTypeServerSideApply: writeVerbs,
	workv1.UpdateStrategyTypeReadOnly:        {"get"},
}

var writeVerbs = []string{"create", "update", "patch", "get"}

// ownedVerb is asked for as well when the work owns the object (it does not
// orphan it): the agent deletes it on the executor's behalf when the work or
// the manifest goes, and, as OCM's agent, makes sure of that before it
// creates something it could not remove.
const ownedVerb = "delete"

const (
	rbacGroup    = "rbac.authorization.k8s.io"
	escalateVerb = "escalate"
	bindVerb     = "bind"
)

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
// strategy takes; orphaned says the work does not own the object.
func applyAccesses(gvr schema.GroupVersionResource, obj *unstructured.Unstructured, strategy workv1.UpdateStrategyType, orphaned bool) []Access {
	if strategy == "" {
		strategy = workv1.UpdateStrategyTypeUpdate
	}
	base := Access{Group: gvr.Group, Resource: gvr.Resource, Namespace: obj.GetNamespace(), Name: obj.GetName()}
	verbs := strategyVerbs[strategy]
	if strategy != workv1.UpdateStrategyTypeReadOnly && !orphaned {
		verbs = append(slices.Clip(verbs), ownedVerb)
	}
	var out []Access
	for _, verb := range verbs {
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
		a.Verb = escalateVerb
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
	return Access{Verb: bindVerb, Group: rbacGroup, Resource: resource, Namespace: obj.GetNamespace(), Name: name}, true
}
