package manifest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	fakediscovery "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func object(apiVersion, kind, namespace, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}

func TestMapper(t *testing.T) {
	disco := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{}}
	disco.Resources = []*metav1.APIResourceList{{
		GroupVersion: "v1",
		APIResources: []metav1.APIResource{
			{Name: "configmaps", Kind: "ConfigMap", Namespaced: true},
			{Name: "namespaces", Kind: "Namespace"},
		},
	}}
	now := time.Unix(1000, 0)
	m := NewMapper(disco)
	m.now = func() time.Time { return now }

	mapping, err := m.Map(object("v1", "ConfigMap", "ns", "a"))
	require.NoError(t, err)
	assert.Equal(t, "configmaps", mapping.Resource.Resource)
	assert.True(t, mapping.Namespaced)

	mapping, err = m.Map(object("v1", "ConfigMap", "", "a"))
	require.EqualError(t, err, `ConfigMap "a" is namespaced but the manifest has no metadata.namespace`)
	assert.Equal(t, "configmaps", mapping.Resource.Resource, "the resource is known all the same")

	ns := object("v1", "Namespace", "stray", "team")
	mapping, err = m.Map(ns)
	require.NoError(t, err)
	assert.False(t, mapping.Namespaced)
	assert.Empty(t, ns.GetNamespace(), "a cluster-scoped object loses its namespace")

	widget := object("example.com/v1", "Widget", "ns", "w")
	_, err = m.Map(widget)
	var unknown *UnknownKindError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, `the server doesn't have a resource type "Widget"`, err.Error(), "OCM's message")

	// The CRD arrives; a retry within minRefresh does not re-read discovery,
	// one after it does and finds the kind.
	disco.Resources = append(disco.Resources, &metav1.APIResourceList{
		GroupVersion: "example.com/v1",
		APIResources: []metav1.APIResource{{Name: "widgets", Kind: "Widget", Namespaced: true}},
	})
	_, err = m.Map(widget)
	require.ErrorAs(t, err, &unknown)
	now = now.Add(minRefresh)
	mapping, err = m.Map(widget)
	require.NoError(t, err)
	assert.Equal(t, "widgets", mapping.Resource.Resource)
}

// A kind that never comes does not use up the re-reads of discovery that
// another kind's retry needs: the bound is per kind.
func TestMapperRefreshBoundPerKind(t *testing.T) {
	disco := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{}}
	disco.Resources = []*metav1.APIResourceList{{GroupVersion: "v1",
		APIResources: []metav1.APIResource{{Name: "configmaps", Kind: "ConfigMap", Namespaced: true}}}}
	now := time.Unix(1000, 0)
	m := NewMapper(disco)
	m.now = func() time.Time { return now }

	typo := object("example.com/v1", "Wigdet", "ns", "w")
	gadget := object("example.com/v1", "Gadget", "ns", "g")
	var unknown *UnknownKindError
	_, err := m.Map(gadget)
	require.ErrorAs(t, err, &unknown)

	now = now.Add(minRefresh)
	_, err = m.Map(typo) // re-reads discovery for its own kind
	require.ErrorAs(t, err, &unknown)

	// Gadget's CRD is established a moment later: its retry re-reads
	// discovery although the typo's miss just did.
	disco.Resources = append(disco.Resources, &metav1.APIResourceList{GroupVersion: "example.com/v1",
		APIResources: []metav1.APIResource{{Name: "gadgets", Kind: "Gadget", Namespaced: true}}})
	mapping, err := m.Map(gadget)
	require.NoError(t, err)
	assert.Equal(t, "gadgets", mapping.Resource.Resource)

	_, err = m.Map(typo)
	require.ErrorAs(t, err, &unknown)

	now = now.Add(minRefresh)
	_, err = m.Map(typo)
	require.ErrorAs(t, err, &unknown)

}

// The mapping names the object as the managed cluster does: a cluster-scoped
// kind has no namespace, whatever its manifest says.
func TestMapIdentity(t *testing.T) {
	disco := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{}}
	disco.Resources = []*metav1.APIResourceList{{GroupVersion: "rbac.authorization.k8s.io/v1", APIResources: []metav1.APIResource{
		{Name: "roles", Kind: "Role", Namespaced: true},
		{Name: "clusterroles", Kind: "ClusterRole"},
	}}}
	rbac := "rbac.authorization.k8s.io/v1"
	cases := []struct {
		name    string
		obj     *unstructured.Unstructured
		want    workv1.ResourceIdentifier
		wantErr bool
	}{
		{"namespaced", object(rbac, "Role", "team", "r"),
			workv1.ResourceIdentifier{Group: "rbac.authorization.k8s.io", Resource: "roles", Namespace: "team", Name: "r"}, false},
		{"namespaced without namespace", object(rbac, "Role", "", "r"),
			workv1.ResourceIdentifier{Group: "rbac.authorization.k8s.io", Resource: "roles", Name: "r"}, true},
		{"cluster-scoped", object(rbac, "ClusterRole", "", "c"),
			workv1.ResourceIdentifier{Group: "rbac.authorization.k8s.io", Resource: "clusterroles", Name: "c"}, false},
		{"cluster-scoped with a namespace", object(rbac, "ClusterRole", "team", "c"),
			workv1.ResourceIdentifier{Group: "rbac.authorization.k8s.io", Resource: "clusterroles", Name: "c"}, false},
	}
	m := NewMapper(disco)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mapping, err := m.Map(tc.obj)
			assert.Equal(t, tc.wantErr, err != nil, "error: %v", err)
			assert.Equal(t, tc.want, mapping.Identifier())
			assert.Equal(t, tc.want.Namespace, tc.obj.GetNamespace(), "the object sent to the API server")
		})
	}
}
