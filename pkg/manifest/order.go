package manifest

import (
	"sort"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// tiers put the kinds that others depend on first: definitions before their
// custom resources, namespaces before what lives in them, RBAC and service
// accounts before workloads that run as them, configuration before its users.
var tiers = map[schema.GroupKind]int{
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: 0,
	{Kind: "Namespace"}: 1,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:        2,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: 2,
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:               2,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:        2,
	{Kind: "ServiceAccount"}:                                         3,
	{Kind: "ConfigMap"}:                                              4,
	{Kind: "Secret"}:                                                 4,
}

// lastTier holds every kind not named in tiers.
const lastTier = 5

// Tier is the apply tier of a kind; lower tiers are applied first.
func Tier(gk schema.GroupKind) int {
	if t, ok := tiers[gk]; ok {
		return t
	}
	return lastTier
}

// Order returns the indexes 0..len(kinds)-1 in apply order: by tier, and in
// spec order within a tier. A manifest that could not be decoded has a zero
// GroupKind and sorts with the last tier.
func Order(kinds []schema.GroupKind) []int {
	idx := make([]int, len(kinds))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return Tier(kinds[idx[a]]) < Tier(kinds[idx[b]])
	})
	return idx
}
