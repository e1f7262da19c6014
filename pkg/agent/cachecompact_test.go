package agent

import (
	"fmt"
	goruntime "runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

func sameBytes(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func TestCompactForCache(t *testing.T) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	work := fixture.NewWork(fixture.Cluster, "w").
		WithCondition(fixture.AppliedCondition(metav1.ConditionTrue)).
		WithManifestStatus(fixture.ManifestStatus(gvr, "ns", "cm", fixture.AppliedCondition(metav1.ConditionTrue))).
		Build()
	work.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "work-agent"}}
	applied := fixture.NewApplied(fixture.HubHash, "w").WithResources(workv1.AppliedManifestResourceMeta{
		ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "ns", Name: "cm"}, Version: "v1", UID: "u1",
	}).Build()
	applied.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "work-agent"}}

	t.Run("values unchanged, managedFields dropped", func(t *testing.T) {
		c := newCacheCompactor()
		for _, obj := range []runtime.Object{fixture.Decoded(work), fixture.Decoded(applied)} {
			want := obj.DeepCopyObject().(metav1.Object)
			want.SetManagedFields(nil)
			out, err := c.transform(obj)
			require.NoError(t, err)
			assert.Equal(t, want, out)
		}
	})

	t.Run("repeated strings are shared between cached objects, across garbage collections", func(t *testing.T) {
		c := newCacheCompactor()
		one, err := c.transform(fixture.Decoded(work))
		require.NoError(t, err)
		goruntime.GC() // the table, not only the objects, keeps the shared copies
		two, err := c.transform(fixture.Decoded(work))
		require.NoError(t, err)
		a, b := one.(*workv1.ManifestWork).Status, two.(*workv1.ManifestWork).Status
		assert.True(t, sameBytes(a.Conditions[0].Reason, b.Conditions[0].Reason), "work condition reason")
		assert.True(t, sameBytes(a.Conditions[0].Message, b.Conditions[0].Message), "work condition message")
		ma, mb := a.ResourceStatus.Manifests[0], b.ResourceStatus.Manifests[0]
		assert.True(t, sameBytes(ma.Conditions[0].Type, mb.Conditions[0].Type), "manifest condition type")
		assert.True(t, sameBytes(ma.ResourceMeta.Resource, mb.ResourceMeta.Resource), "manifest resource")
		assert.True(t, sameBytes(ma.ResourceMeta.Namespace, mb.ResourceMeta.Namespace), "manifest namespace")

		x, err := c.transform(fixture.Decoded(applied))
		require.NoError(t, err)
		goruntime.GC()
		y, err := c.transform(fixture.Decoded(applied))
		require.NoError(t, err)
		rx, ry := x.(*workv1.AppliedManifestWork).Status.AppliedResources[0], y.(*workv1.AppliedManifestWork).Status.AppliedResources[0]
		assert.True(t, sameBytes(rx.Resource, ry.Resource), "applied resource")
		assert.True(t, sameBytes(rx.Namespace, ry.Namespace), "applied namespace")
	})

	t.Run("lists are kept in arrays of their length", func(t *testing.T) {
		big := fixture.NewWork(fixture.Cluster, "big")
		bigApplied := fixture.NewApplied(fixture.HubHash, "big")
		for i := range 20 {
			name := fmt.Sprintf("cm%d", i)
			big.WithManifest(fixture.ConfigMap("ns", name, nil)).
				WithManifestStatus(fixture.ManifestStatus(gvr, "ns", name, fixture.AppliedCondition(metav1.ConditionTrue),
					metav1.Condition{Type: workv1.ManifestAvailable, Status: metav1.ConditionTrue, Reason: "Test"},
					metav1.Condition{Type: workv1.ManifestHealthy, Status: metav1.ConditionTrue, Reason: "Test"}))
			bigApplied.WithResources(workv1.AppliedManifestResourceMeta{
				ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "ns", Name: name}, Version: "v1", UID: "u" + name,
			})
		}
		c := newCacheCompactor()
		in := fixture.Decoded(big.Build())
		require.Greater(t, cap(in.Status.ResourceStatus.Manifests), 20, "the decoder leaves room")
		want := in.DeepCopy()
		out, err := c.transform(in)
		require.NoError(t, err)
		got := out.(*workv1.ManifestWork)
		assert.Equal(t, want, got, "the values are kept")
		assert.Equal(t, 20, cap(got.Spec.Workload.Manifests), "spec manifests")
		assert.Equal(t, 20, cap(got.Status.ResourceStatus.Manifests), "manifest statuses")
		assert.Equal(t, 3, cap(got.Status.ResourceStatus.Manifests[7].Conditions), "a manifest's conditions")

		appliedIn := fixture.Decoded(bigApplied.Build())
		out, err = c.transform(appliedIn)
		require.NoError(t, err)
		assert.Equal(t, 20, cap(out.(*workv1.AppliedManifestWork).Status.AppliedResources), "applied resources")
	})

	t.Run("manifests with the same conditions share one list", func(t *testing.T) {
		applied := fixture.AppliedCondition(metav1.ConditionTrue)
		available := metav1.Condition{Type: workv1.ManifestAvailable, Status: metav1.ConditionTrue, Reason: "Test"}
		other := available
		other.Message = "another message"
		w := fixture.NewWork(fixture.Cluster, "shared").
			WithManifestStatus(fixture.ManifestStatus(gvr, "ns", "a", applied, available)).
			WithManifestStatus(fixture.ManifestStatus(gvr, "ns", "b", applied, other)).
			WithManifestStatus(fixture.ManifestStatus(gvr, "ns", "c", applied, available)).
			WithManifestStatus(fixture.ManifestStatus(gvr, "ns", "d", applied, other)).
			Build()
		in := fixture.Decoded(w)
		want := in.DeepCopy()
		out, err := newCacheCompactor().transform(in)
		require.NoError(t, err)
		got := out.(*workv1.ManifestWork)
		assert.Equal(t, want, got, "the values are kept")
		first := func(i int) *metav1.Condition { return &got.Status.ResourceStatus.Manifests[i].Conditions[0] }
		assert.Same(t, first(0), first(2), "equal lists share an array")
		assert.Same(t, first(1), first(3), "equal lists share an array")
		assert.NotSame(t, first(0), first(1), "a list that differs has its own")
	})

	t.Run("tombstones pass as they are", func(t *testing.T) {
		tombstone := cache.DeletedFinalStateUnknown{Key: "ns/w", Obj: work}
		out, err := newCacheCompactor().transform(tombstone)
		require.NoError(t, err)
		assert.Equal(t, tombstone, out)
	})
}
