package objectwatch

import (
	goruntime "runtime"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/sharedstrings"
	"github.com/manifestwork/work/test/fixture"
)

func withRV(o *metav1.PartialObjectMetadata, rv string) *metav1.PartialObjectMetadata {
	o = o.DeepCopy()
	o.ResourceVersion = rv
	return o
}

func TestDriftHandler(t *testing.T) {
	owned := object("ns1", "cm1", workOwner("amw-a"))
	shared := object("ns1", "cm1", workOwner("amw-a"), workOwner("amw-b"))
	unowned := object("ns1", "cm1")

	cases := []struct {
		name  string
		event func(h driftHandler)
		want  []string
	}{
		{"add after sync of someone else's create", func(h driftHandler) { h.OnAdd(withRV(owned, "7"), false) }, []string{"amw-a"}},
		{"add after sync of the agent's own create", func(h driftHandler) { h.OnAdd(withRV(owned, "5"), false) }, nil},
		{"add after sync of an object changed since the agent's create", func(h driftHandler) {
			h.OnAdd(withRV(owned, "6"), false)
		}, []string{"amw-a"}},
		{"add after sync of an unowned object", func(h driftHandler) { h.OnAdd(withRV(unowned, "7"), false) }, nil},
		{"add from initial list", func(h driftHandler) { h.OnAdd(owned, true) }, nil},
		{"update with new RV", func(h driftHandler) { h.OnUpdate(withRV(owned, "1"), withRV(owned, "2")) }, []string{"amw-a"}},
		{"update with same RV", func(h driftHandler) { h.OnUpdate(withRV(owned, "1"), withRV(owned, "1")) }, nil},
		{"update of unowned object", func(h driftHandler) { h.OnUpdate(withRV(unowned, "1"), withRV(unowned, "2")) }, nil},
		{"update adds a second owner", func(h driftHandler) { h.OnUpdate(withRV(owned, "1"), withRV(shared, "2")) }, []string{"amw-a", "amw-b"}},
		{"update removes our owner", func(h driftHandler) { h.OnUpdate(withRV(owned, "1"), withRV(unowned, "2")) }, []string{"amw-a"}},
		{"update with a non-object", func(h driftHandler) { h.OnUpdate("junk", withRV(owned, "2")) }, nil},
		{"delete", func(h driftHandler) { h.OnDelete(shared) }, []string{"amw-a", "amw-b"}},
		{"delete of unowned object", func(h driftHandler) { h.OnDelete(unowned) }, nil},
		{"delete tombstone", func(h driftHandler) {
			h.OnDelete(cache.DeletedFinalStateUnknown{Key: "ns1/cm1", Obj: owned})
		}, []string{"amw-a"}},
		{"delete tombstone without object", func(h driftHandler) {
			h.OnDelete(cache.DeletedFinalStateUnknown{Key: "ns1/cm1"})
		}, nil},
		{"delete of a non-object", func(h driftHandler) { h.OnDelete(42) }, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			h := driftHandler{logger: klog.Background(), onChange: func(name string) { got = append(got, name) },
				wrote: func(namespace, name, rv string) bool { return namespace == "ns1" && name == "cm1" && rv == "5" }}
			tc.event(h)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDeletedObjectMeta(t *testing.T) {
	m, err := deletedObjectMeta(cache.DeletedFinalStateUnknown{Key: "ns1/cm1", Obj: object("ns1", "cm1")})
	require.NoError(t, err)
	assert.Equal(t, "cm1", m.GetName())

	_, err = deletedObjectMeta(cache.DeletedFinalStateUnknown{Key: "ns1/cm1", Obj: "junk"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ns1/cm1", "the error names the tombstone's key")

	_, err = deletedObjectMeta(nil)
	require.Error(t, err)
}

func TestAppliedManifestWorkOwners(t *testing.T) {
	ref := func(apiVersion, kind, name string) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: "uid"}
	}
	cases := []struct {
		name string
		refs [][]metav1.OwnerReference // owner references of each object passed
		want []string
	}{
		{"no owners", [][]metav1.OwnerReference{nil}, nil},
		{"ours", [][]metav1.OwnerReference{{workOwner("a")}}, []string{"a"}},
		{"other version of our group", [][]metav1.OwnerReference{{ref("work.open-cluster-management.io/v1beta1", "AppliedManifestWork", "a")}}, []string{"a"}},
		{"other group", [][]metav1.OwnerReference{{ref("example.io/v1", "AppliedManifestWork", "a")}}, nil},
		{"core group", [][]metav1.OwnerReference{{ref("v1", "AppliedManifestWork", "a")}}, nil},
		{"other kind in our group", [][]metav1.OwnerReference{{ref("work.open-cluster-management.io/v1", "ManifestWork", "a")}}, nil},
		{"malformed apiVersion", [][]metav1.OwnerReference{{ref("work.open-cluster-management.io/v1/x", "AppliedManifestWork", "a")}}, nil},
		{"empty name", [][]metav1.OwnerReference{{ref("work.open-cluster-management.io/v1", "AppliedManifestWork", "")}}, nil},
		{"sorted and distinct across objects", [][]metav1.OwnerReference{
			{workOwner("b"), workOwner("a")},
			{workOwner("a"), ref("apps/v1", "ReplicaSet", "rs")},
		}, []string{"a", "b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var objs []metav1.Object
			for _, refs := range tc.refs {
				objs = append(objs, object("ns1", "x", refs...))
			}
			assert.Equal(t, tc.want, appliedManifestWorkOwners(objs...))
		})
	}
}

func TestStripMetadata(t *testing.T) {
	managed := []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}
	cases := []struct {
		name        string
		annotations map[string]string
	}{
		{"no annotations", nil},
		{"kubectl's last-applied copy", map[string]string{"kubectl.kubernetes.io/last-applied-configuration": "{}"}},
		{"any annotation", map[string]string{"open-cluster-management.io/object-hash": "abc"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := object("ns1", "cm1")
			in.ManagedFields = managed
			in.Annotations = tc.annotations
			in.Labels = map[string]string{"app": "web"}
			version := ContentVersion(in)

			out, err := stripMetadata(sharedstrings.New(16))(in)
			require.NoError(t, err)
			got, ok := out.(*metav1.PartialObjectMetadata)
			require.True(t, ok)
			assert.Nil(t, got.ManagedFields)
			assert.Nil(t, got.Labels)
			assert.Nil(t, got.Annotations)
			assert.Equal(t, strconv.FormatUint(version, 16)+" ", got.SelfLink, "the content version is kept, and the last writer (unknown: no times)")
			assert.Equal(t, version, ContentVersion(got), "the cached copy has the object's content version")
			assert.Equal(t, "cm1", got.Name, "identity kept")

			again, err := stripMetadata(sharedstrings.New(16))(got)
			require.NoError(t, err)
			assert.Equal(t, got, again, "stripping is idempotent")
		})
	}

	tombstone := cache.DeletedFinalStateUnknown{Key: "ns1/cm1", Obj: object("ns1", "cm1")}
	out, err := stripMetadata(sharedstrings.New(16))(tombstone)
	require.NoError(t, err)
	assert.Equal(t, tombstone, out, "non-objects pass through")
}

func sameBytes(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func TestStrippedObjectsShareRepeatedStrings(t *testing.T) {
	cm := func(name string) *metav1.PartialObjectMetadata {
		o := object("ns1", name, workOwner("hub-work1"))
		o.TypeMeta = metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"}
		o.UID, o.ResourceVersion = types.UID("uid-"+name), "7"
		o.Finalizers = []string{"example.com/keep"}
		o.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "work-agent"}}
		return o
	}

	t.Run("metadata-only cache", func(t *testing.T) {
		strip := stripMetadata(sharedstrings.New(16))
		first, second := fixture.Decoded(cm("cm1")), fixture.Decoded(cm("cm2"))
		want := first.DeepCopy()
		out, err := strip(first)
		require.NoError(t, err)
		a := out.(*metav1.PartialObjectMetadata)
		goruntime.GC() // the table, not only the objects, keeps the shared copies
		out, err = strip(second)
		require.NoError(t, err)
		b := out.(*metav1.PartialObjectMetadata)

		assert.Equal(t, want.TypeMeta, a.TypeMeta, "values kept")
		assert.Equal(t, want.OwnerReferences, a.OwnerReferences)
		assert.Equal(t, want.Finalizers, a.Finalizers)
		assert.Equal(t, want.Namespace, a.Namespace)
		assert.Equal(t, want.UID, a.UID)

		ra, rb := a.OwnerReferences[0], b.OwnerReferences[0]
		for what, pair := range map[string][2]string{
			"owner name": {ra.Name, rb.Name}, "owner uid": {string(ra.UID), string(rb.UID)},
			"owner apiVersion": {ra.APIVersion, rb.APIVersion}, "owner kind": {ra.Kind, rb.Kind},
			"namespace": {a.Namespace, b.Namespace}, "finalizer": {a.Finalizers[0], b.Finalizers[0]},
			"apiVersion": {a.APIVersion, b.APIVersion}, "kind": {a.Kind, b.Kind},
		} {
			assert.True(t, sameBytes(pair[0], pair[1]), what)
		}
		assert.False(t, sameBytes(string(a.UID), string(b.UID)), "what does not repeat is not shared")
	})

	t.Run("cache that keeps fields", func(t *testing.T) {
		keep := keepFields(deploymentFields, sharedstrings.New(16))
		one, two := deploymentObject(), deploymentObject()
		two.SetName("web2")
		one, two = fixture.Decoded(one), fixture.Decoded(two)
		wantOwners := one.GetOwnerReferences()
		out, err := keep(one)
		require.NoError(t, err)
		a := out.(*unstructured.Unstructured)
		out, err = keep(two)
		require.NoError(t, err)
		b := out.(*unstructured.Unstructured)

		assert.Equal(t, wantOwners, a.GetOwnerReferences(), "values kept")
		assert.True(t, sameBytes(a.GetOwnerReferences()[0].Name, b.GetOwnerReferences()[0].Name), "owner name")
		assert.True(t, sameBytes(a.GetNamespace(), b.GetNamespace()), "namespace")
		assert.True(t, sameBytes(a.GetAPIVersion(), b.GetAPIVersion()), "apiVersion")
	})
}
