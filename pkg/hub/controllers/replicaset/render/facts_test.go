package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestFactsOf(t *testing.T) {
	mc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
		"metadata": map[string]any{"name": "c1", "labels": map[string]any{"env": "prod"}},
		"status": map[string]any{"clusterClaims": []any{
			map[string]any{"name": "region.open-cluster-management.io", "value": "eu-west-1"},
			"not a claim",
			map[string]any{"value": "no name"},
		}},
	}}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "c1", Labels: map[string]string{"env": "staging"}}}
	groups := []GroupRef{{Placement: "p", Name: "canary"}}
	tests := []struct {
		name string
		mc   *unstructured.Unstructured
		ns   *corev1.Namespace
		want ClusterFacts
	}{
		{name: "the ManagedCluster wins", mc: mc, ns: ns, want: ClusterFacts{Name: "c1", Labels: map[string]string{"env": "prod"},
			Claims: map[string]string{"region.open-cluster-management.io": "eu-west-1"}, Groups: groups}},
		{name: "the namespace's labels without one", ns: ns, want: ClusterFacts{Name: "c1", Labels: map[string]string{"env": "staging"},
			Claims: map[string]string{}, Groups: groups}},
		{name: "neither", want: ClusterFacts{Name: "c1", Labels: map[string]string{}, Claims: map[string]string{}, Groups: groups}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, FactsOf("c1", tt.mc, tt.ns, groups))
		})
	}
}
