package manifestwork

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// readsCache is trackerCache remembering what each work reads without
// owning it.
type readsCache struct {
	trackerCache
	reads map[string][]objectwatch.ObjectKey
}

func (c *readsCache) SetReads(user string, objects []objectwatch.ObjectKey) { c.reads[user] = objects }

func (e *env) owners(t *testing.T, name string) []metav1.OwnerReference {
	t.Helper()
	obj, err := e.dynamic.Tracker().Get(configMaps, "team", name)
	require.NoError(t, err)
	return obj.(*unstructured.Unstructured).GetOwnerReferences()
}

// The work's deleteOption decides, at every apply, whether an object carries
// our owner reference: an orphaned one never gets it and loses it when the
// work comes to orphan it, with one patch; it gets it again when the work
// owns it again. Unchanged objects cost no request either way, and orphaned
// objects are read without an owner reference to route their changes.
func TestDeleteOptionDecidesTheOwnerReference(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithDeleteOption(fixture.OrphanOnly(workv1.OrphaningRule{Resource: "configmaps", Namespace: "team", Name: "a"})).
		WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "1"}), fixture.ConfigMap("team", "b", map[string]string{"k": "2"})).
		Build()
	e := newEnv(t, work)
	cache := &readsCache{trackerCache: trackerCache{dynamic: e.dynamic}, reads: map[string][]objectwatch.ObjectKey{}}
	e.c.Objects = cache
	key := fixture.Cluster + "/w"
	keyOf := func(name string) objectwatch.ObjectKey {
		return objectwatch.ObjectKey{Resource: configMaps, Namespace: "team", Name: name}
	}

	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Equal(t, []string{"create configmaps", "create configmaps"}, e.dynamicRequests())
	assert.Empty(t, e.owners(t, "a"), "the orphaning rule names a: created without our owner reference")
	assert.Len(t, e.owners(t, "b"), 1, "b is the work's")
	assert.Equal(t, []objectwatch.ObjectKey{keyOf("a")}, cache.reads[key])

	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "nothing changed: no request")

	orphanAll := e.update(t, func(w *workv1.ManifestWork) {
		w.Spec.DeleteOption = &workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeOrphan}
	})
	require.NoError(t, e.c.reconcile(context.Background(), orphanAll))
	assert.Equal(t, []string{"get configmaps", "patch configmaps"}, e.dynamicRequests(), "b only loses our owner reference")
	assert.Empty(t, e.owners(t, "b"))
	assert.Equal(t, []objectwatch.ObjectKey{keyOf("a"), keyOf("b")}, cache.reads[key])
	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "nothing changed: no request")

	owned := e.update(t, func(w *workv1.ManifestWork) { w.Spec.DeleteOption = nil })
	require.NoError(t, e.c.reconcile(context.Background(), owned))
	assert.Len(t, e.owners(t, "a"), 1, "owned again")
	assert.Len(t, e.owners(t, "b"), 1, "owned again")
	assert.Empty(t, cache.reads[key])
	e.dynamicRequests()
	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "nothing changed: no request")
}
