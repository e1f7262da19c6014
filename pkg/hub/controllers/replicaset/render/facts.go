package render

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ManagedClusterResource is OCM's ManagedCluster, which a hub serves when
// OCM's registration runs there: the facts of a cluster come from it when
// the hub has the cluster's, from the labels of the cluster's namespace
// otherwise.
var ManagedClusterResource = schema.GroupVersionResource{Group: "cluster.open-cluster-management.io", Version: "v1", Resource: "managedclusters"}

// FactsOf are what rules select the cluster by and variables read: the
// labels and claims (status.clusterClaims) of its ManagedCluster when mc is
// not nil, else the labels of its namespace ns (nil: none), with the
// decision groups it is in. Neither object is changed.
func FactsOf(name string, mc *unstructured.Unstructured, ns *corev1.Namespace, groups []GroupRef) ClusterFacts {
	f := ClusterFacts{Name: name, Labels: map[string]string{}, Claims: map[string]string{}, Groups: groups}
	switch {
	case mc != nil:
		maps.Copy(f.Labels, mc.GetLabels())
		claims, _, _ := unstructured.NestedSlice(mc.Object, "status", "clusterClaims")
		for _, c := range claims {
			claim, ok := c.(map[string]any)
			if !ok {
				continue
			}
			n, _ := claim["name"].(string)
			v, _ := claim["value"].(string)
			if n != "" {
				f.Claims[n] = v
			}
		}
	case ns != nil:
		maps.Copy(f.Labels, ns.Labels)
	}
	return f
}
