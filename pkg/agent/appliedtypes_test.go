package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// At start the agent watches what its records hold, type by type and
// namespace by namespace, for the works of its own cluster only: records of
// another hub, or of the same hub's works for other clusters sharing the
// managed cluster, are not its to look at.
func TestAppliedTypesAreThisClustersWorks(t *testing.T) {
	configMaps := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	namespaces := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	cm := func(ns, name string) workv1.AppliedManifestResourceMeta {
		return workv1.AppliedManifestResourceMeta{Version: "v1",
			ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: ns, Name: name}}
	}
	works := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, w := range []*workv1.ManifestWork{
		fixture.NewWork(fixture.Cluster, "web").Build(),
		fixture.NewWork(fixture.Cluster, "db").Build(),
		fixture.NewWork("other-cluster", "theirs").Build(),
	} {
		require.NoError(t, works.Add(w))
	}
	applied := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, a := range []*workv1.AppliedManifestWork{
		fixture.NewApplied(fixture.HubHash, "web").WithResources(cm("app", "one"), cm("app", "two"),
			workv1.AppliedManifestResourceMeta{Version: "v1", ResourceIdentifier: workv1.ResourceIdentifier{Resource: "namespaces", Name: "app"}}).Build(),
		fixture.NewApplied(fixture.HubHash, "db").WithResources(cm("data", "three")).Build(),
		fixture.NewApplied(fixture.HubHash, "theirs").WithAgent("other-cluster").WithResources(cm("elsewhere", "x")).Build(),
		fixture.NewApplied("another-hub", "web").WithResources(cm("old", "y")).Build(),
	} {
		require.NoError(t, applied.Add(a))
	}

	got := appliedTypes(worklisters.NewAppliedManifestWorkLister(applied),
		worklisters.NewManifestWorkLister(works).ManifestWorks(fixture.Cluster), fixture.HubHash)
	assert.ElementsMatch(t, []objectwatch.Use{
		{Resource: configMaps, Namespace: "app"},
		{Resource: namespaces},
		{Resource: configMaps, Namespace: "data"},
	}, got)
}
