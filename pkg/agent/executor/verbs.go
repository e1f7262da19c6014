package executor

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
// orphan it), as OCM's agent asks for it: the agent deletes the object, as
// itself, when the work or the manifest goes, and does not create on an
// executor's behalf what that executor could not remove.
const ownedVerb = "delete"

const rbacGroup = "rbac.authorization.k8s.io"

// rbacKinds are the resources whose writes the API server checks for
// escalation beyond the verbs on them: a Role or ClusterRole may only grant
// what its writer holds (or escalate on it), a binding only refer to a role
// whose rights its writer holds (or bind on it). The agent holds both
// escalate and bind, so for these it also creates the object as the
// executor in a server-side dry run, and the API server's own rules decide.
// rbacContent is, for each, what of the object those rules read.
var rbacKinds = map[schema.GroupResource][]string{
	{Group: rbacGroup, Resource: "roles"}:               {"rules"},
	{Group: rbacGroup, Resource: "clusterroles"}:        {"rules", "aggregationRule"},
	{Group: rbacGroup, Resource: "rolebindings"}:        {"roleRef"},
	{Group: rbacGroup, Resource: "clusterrolebindings"}: {"roleRef"},
}

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
	return out
}

// needsDryRun tells whether applying an object of resource gr with a
// strategy is also tried as the executor in a dry run: every write of an
// RBAC kind. ReadOnly writes nothing, so escalates nothing.
func needsDryRun(gr schema.GroupResource, strategy workv1.UpdateStrategyType) bool {
	_, ok := rbacKinds[gr]
	return ok && strategy != workv1.UpdateStrategyTypeReadOnly
}

// rbacDigest is what a dry run of an RBAC object decides on, besides the
// executor's own rights: the fields of the object the API server's
// escalation checks read. Two objects with the same digest get the same
// answer while the executor's rights (and the role a binding refers to)
// stay as they are.
func rbacDigest(gr schema.GroupResource, obj *unstructured.Unstructured) string {
	fields := map[string]any{}
	for _, f := range rbacKinds[gr] {
		if v, ok := obj.Object[f]; ok {
			fields[f] = v
		}
	}
	raw, err := json.Marshal(fields) // sorted keys: one digest per content
	if err != nil {
		return "" // never remembered (see Authorizer.dryRun)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// roleRefOf names the role a binding refers to, as RoleRef.key does; ""
// for another object or a binding without a usable roleRef (the API server
// refuses it by itself).
func roleRefOf(gr schema.GroupResource, obj *unstructured.Unstructured) string {
	if rbacKinds[gr] == nil || gr.Resource != "rolebindings" && gr.Resource != "clusterrolebindings" {
		return ""
	}
	kind, _, _ := unstructured.NestedString(obj.Object, "roleRef", "kind")
	name, _, _ := unstructured.NestedString(obj.Object, "roleRef", "name")
	if name == "" || kind != "Role" && kind != "ClusterRole" {
		return ""
	}
	return RoleKey(kind, obj.GetNamespace(), name)
}

// RoleKey names a role: "ClusterRole/<name>" or "Role/<namespace>/<name>".
func RoleKey(kind, namespace, name string) string {
	if kind == "ClusterRole" {
		return "ClusterRole/" + name
	}
	return "Role/" + namespace + "/" + name
}
