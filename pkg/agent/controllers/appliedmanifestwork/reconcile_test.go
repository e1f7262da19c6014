package appliedmanifestwork

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/controllers/cleanup"
	ct "github.com/manifestwork/work/pkg/agent/controllers/controllertest"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	fakework "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
)

// manifest is one entry of a work's status.resourceStatus.manifests.
func manifestStatus(gvr schema.GroupVersionResource, namespace, name string, applied bool) workv1.ManifestCondition {
	status := metav1.ConditionTrue
	if !applied {
		status = metav1.ConditionFalse
	}
	return workv1.ManifestCondition{
		ResourceMeta: workv1.ManifestResourceMeta{
			Group: gvr.Group, Version: gvr.Version, Resource: gvr.Resource, Namespace: namespace, Name: name,
		},
		Conditions: []metav1.Condition{{Type: workv1.ManifestApplied, Status: status, Reason: "Test"}},
	}
}

// newWork is the work "web" at generation 2 whose status describes that
// generation and lists manifests.
func newWork(manifests ...workv1.ManifestCondition) *workv1.ManifestWork {
	for i := range manifests {
		manifests[i].ResourceMeta.Ordinal = int32(i)
	}
	return &workv1.ManifestWork{
		ObjectMeta: metav1.ObjectMeta{Namespace: ct.Cluster, Name: "web", Generation: 2, ResourceVersion: "10"},
		Status: workv1.ManifestWorkStatus{
			Conditions: []metav1.Condition{{
				Type: workv1.WorkApplied, Status: metav1.ConditionTrue, Reason: workv1.WorkAppliedReasonComplete, ObservedGeneration: 2,
			}},
			ResourceStatus: workv1.ManifestResourceStatus{Manifests: manifests},
		},
	}
}

func newApplied(resources ...workv1.AppliedManifestResourceMeta) *workv1.AppliedManifestWork {
	return &workv1.AppliedManifestWork{
		ObjectMeta: metav1.ObjectMeta{
			Name: ct.AppliedName, UID: ct.AppliedUID, ResourceVersion: "20",
			Finalizers: []string{workv1.AppliedManifestWorkFinalizer},
		},
		Spec:   workv1.AppliedManifestWorkSpec{HubHash: ct.HubHash, ManifestWorkName: "web"},
		Status: workv1.AppliedManifestWorkStatus{AppliedResources: resources},
	}
}

// env is a controller over fake clients, with its fakes exposed.
type env struct {
	c        *Controller
	spoke    *fakework.Clientset
	metadata *metadatafake.FakeMetadataClient
	// appliedIndexer is what the AppliedManifestWork lister reads.
	appliedIndexer cache.Indexer
}

// newEnv builds the controller; applied may be nil (none yet), objects is
// what exists on the managed ct.Cluster, and objectCache (may be nil) what the
// watch cache holds.
func newEnv(t *testing.T, applied *workv1.AppliedManifestWork, objectCache ct.Cache, objects ...*metav1.PartialObjectMetadata) *env {
	t.Helper()
	spoke := fakework.NewSimpleClientset()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if applied != nil {
		require.NoError(t, spoke.Tracker().Add(applied.DeepCopy()))
		require.NoError(t, indexer.Add(applied.DeepCopy()))
	}
	md := ct.NewClient(t, objects...)
	var objectsCache cleanup.ObjectCache
	if objectCache != nil {
		objectsCache = objectCache
	}
	c := &Controller{
		Deps:    Deps{ClusterName: ct.Cluster, HubHash: ct.HubHash, SpokeClient: spoke, Metadata: md, Objects: objectsCache},
		applied: worklisters.NewAppliedManifestWorkLister(indexer),
		cleaner: &cleanup.Cleaner{Client: md, Objects: objectsCache},
	}
	return &env{c: c, spoke: spoke, metadata: md, appliedIndexer: indexer}
}

// appliedResources is the AppliedManifestWork status the fake API holds.
func (e *env) appliedResources(t *testing.T) []workv1.AppliedManifestResourceMeta {
	t.Helper()
	got, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), ct.AppliedName, metav1.GetOptions{})
	require.NoError(t, err)
	return got.Status.AppliedResources
}

func (e *env) spokeWrites() []string { return ct.Writes(e.spoke.Actions()) }

func TestReconcile(t *testing.T) {
	cm := ct.Resource(ct.ConfigMaps, "default", "cm", "uid-cm")
	deploy := ct.Resource(ct.Deployments, "default", "web", "uid-web")
	cmObj := ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", ct.OurRef)
	deployObj := ct.Object(ct.Deployments, "default", "web", "uid-web", ct.OurRef)
	statusPatch := []string{"patch appliedmanifestworks/status " + ct.AppliedName}

	cases := []struct {
		name        string
		work        *workv1.ManifestWork
		applied     *workv1.AppliedManifestWork
		cache       ct.Cache
		objects     []*metav1.PartialObjectMetadata
		wantErr     bool
		wantRecheck bool                                 // an applied object was missing
		want        []workv1.AppliedManifestResourceMeta // status left in the API
		wantSpoke   []string                             // writes to AppliedManifestWorks
		wantObjs    []string                             // writes to applied objects
	}{{
		name:    "records applied resources with the UIDs of the live objects",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true), manifestStatus(ct.Deployments, "default", "web", true)),
		applied: newApplied(),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy}, wantSpoke: statusPatch,
	}, {
		name:    "takes the UIDs from the watch cache when it has them",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: newApplied(),
		cache:   ct.Cache{}.Put(ct.ConfigMaps, cmObj),
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "writes nothing when nothing changed",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true), manifestStatus(ct.Deployments, "default", "web", true)),
		applied: newApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy},
	}, {
		name:    "follows a recreated object to its new UID",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: newApplied(ct.Resource(ct.ConfigMaps, "default", "cm", "uid-old")),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "does not record a manifest that is not applied",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", false)),
		applied: newApplied(),
		objects: []*metav1.PartialObjectMetadata{cmObj},
	}, {
		name:    "keeps the record of a manifest that failed to apply this time",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", false)),
		applied: newApplied(cm),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm},
	}, {
		name:    "does not record an object that is gone, and looks again soon",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: newApplied(), wantRecheck: true,
	}, {
		name: "does not record a ReadOnly manifest",
		work: func() *workv1.ManifestWork {
			w := newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))
			w.Spec.ManifestConfigs = []workv1.ManifestConfigOption{{
				ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "default", Name: "cm"},
				UpdateStrategy:     &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeReadOnly},
			}}
			return w
		}(),
		applied: newApplied(),
		objects: []*metav1.PartialObjectMetadata{ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm")},
	}, {
		name:    "deletes a resource dropped from the work",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: newApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
		wantObjs: []string{"delete deployments default/web"},
	}, {
		name:    "never deletes a dropped resource whose object was recreated",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: newApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, ct.Object(ct.Deployments, "default", "web", "uid-new", ct.OurRef)},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "only releases a dropped resource that another work shares",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: newApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, ct.Object(ct.Deployments, "default", "web", "uid-web", ct.OtherRef, ct.OurRef)},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
		wantObjs: []string{"patch deployments default/web"},
	}, {
		name:    "forgets a dropped resource that is already gone",
		work:    newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: newApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name: "does not prune while the work status is behind its spec",
		work: func() *workv1.ManifestWork {
			w := newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))
			w.Generation = 3
			return w
		}(),
		applied: newApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy},
	}, {
		name: "does not prune a resource that a manifest not mapped this time may be",
		work: func() *workv1.ManifestWork {
			w := newWork(manifestStatus(ct.Deployments, "default", "web", false))
			w.Status.ResourceStatus.Manifests[0].ResourceMeta.Resource = "" // its type is not served right now
			return w
		}(),
		applied:  newApplied(cm, deploy),
		objects:  []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:     []workv1.AppliedManifestResourceMeta{deploy},
		wantObjs: []string{"delete configmaps default/cm"}, wantSpoke: statusPatch,
	}, {
		name: "does not prune while a manifest cannot be decoded",
		work: func() *workv1.ManifestWork {
			w := newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true), manifestStatus(ct.Deployments, "default", "web", false))
			w.Status.ResourceStatus.Manifests[1].ResourceMeta = workv1.ManifestResourceMeta{Ordinal: 1}
			return w
		}(),
		applied: newApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy},
	}, {
		name:      "clears the list when the work applies nothing",
		work:      newWork(),
		applied:   newApplied(cm),
		objects:   []*metav1.PartialObjectMetadata{cmObj},
		wantSpoke: statusPatch, wantObjs: []string{"delete configmaps default/cm"},
	}, {
		name: "leaves a work that is being deleted to the finalize controllers",
		work: func() *workv1.ManifestWork {
			w := newWork()
			now := metav1.Now()
			w.DeletionTimestamp = &now
			return w
		}(),
		applied: newApplied(cm),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm},
	}, {
		name: "leaves an AppliedManifestWork that is being deleted alone",
		work: newWork(),
		applied: func() *workv1.AppliedManifestWork {
			a := newApplied(cm)
			now := metav1.Now()
			a.DeletionTimestamp = &now
			return a
		}(),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.applied, tc.cache, tc.objects...)
			after, err := e.c.reconcile(context.Background(), tc.work)
			assert.Equal(t, tc.wantRecheck, after > 0, "recheck after %s", after)
			if tc.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.wantSpoke, e.spokeWrites(), "writes to AppliedManifestWorks")
			assert.Equal(t, tc.wantObjs, ct.Writes(e.metadata.Actions()), "writes to applied objects")
			assert.Equal(t, tc.want, e.appliedResources(t))
		})
	}
}

func TestReconcileWithoutAppliedWorkDoesNothing(t *testing.T) {
	e := newEnv(t, nil, nil, ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", ct.OurRef))
	_, err := e.c.reconcile(context.Background(), newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)))
	require.NoError(t, err)
	assert.Empty(t, e.spoke.Actions())
	assert.Empty(t, e.metadata.Actions())
}

// The delete of a dropped resource is conditional on the recorded UID.
func TestPruneDeletesWithUIDPrecondition(t *testing.T) {
	deploy := ct.Resource(ct.Deployments, "default", "web", "uid-web")
	e := newEnv(t, newApplied(deploy), nil, ct.Object(ct.Deployments, "default", "web", "uid-web", ct.OurRef))
	_, err := e.c.reconcile(context.Background(), newWork())
	require.NoError(t, err)

	var found bool
	for _, a := range e.metadata.Actions() {
		if del, ok := a.(clienttesting.DeleteActionImpl); ok {
			found = true
			require.NotNil(t, del.DeleteOptions.Preconditions)
			assert.Equal(t, types.UID("uid-web"), *del.DeleteOptions.Preconditions.UID)
		}
	}
	assert.True(t, found, "no delete in %v", e.metadata.Actions())
}

// A dropped resource that cannot be deleted now keeps its record, so the
// retry still knows about it, and the reconcile fails so that it is retried.
func TestPruneFailureKeepsTheRecord(t *testing.T) {
	cm := ct.Resource(ct.ConfigMaps, "default", "cm", "uid-cm")
	deploy := ct.Resource(ct.Deployments, "default", "web", "uid-web")
	e := newEnv(t, newApplied(cm, deploy), nil,
		ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", ct.OurRef), ct.Object(ct.Deployments, "default", "web", "uid-web", ct.OurRef))
	e.metadata.PrependReactor("delete", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", nil)
	})

	_, err := e.c.reconcile(context.Background(), newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "deployments apps/v1 default/web")
	assert.Equal(t, []workv1.AppliedManifestResourceMeta{cm, deploy}, e.appliedResources(t))
	assert.Empty(t, e.spokeWrites(), "nothing changed in the status")
}

// The status patch carries the resourceVersion it was computed from.
func TestStatusPatchCarriesResourceVersion(t *testing.T) {
	e := newEnv(t, newApplied(), nil, ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", ct.OurRef))
	_, err := e.c.reconcile(context.Background(), newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)))
	require.NoError(t, err)

	var patch clienttesting.PatchActionImpl
	for _, a := range e.spoke.Actions() {
		if p, ok := a.(clienttesting.PatchActionImpl); ok {
			patch = p
		}
	}
	assert.Equal(t, types.MergePatchType, patch.GetPatchType())
	var body struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(patch.GetPatch(), &body))
	assert.Equal(t, "20", body.Metadata.ResourceVersion)
}

// A status write that meets a newer AppliedManifestWork than the cache had
// is retried quietly once the cache has caught up.
func TestSyncRetriesAConflictQuietly(t *testing.T) {
	e := newEnv(t, newApplied(), nil, ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", ct.OurRef))
	e.spoke.PrependReactor("patch", "appliedmanifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "appliedmanifestworks"}, ct.AppliedName, nil)
	})
	works := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	require.NoError(t, works.Add(newWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))))
	e.c.works = worklisters.NewManifestWorkLister(works).ManifestWorks(ct.Cluster)

	syncCtx := ct.NewSyncContext(ct.Cluster + "/web")
	require.NoError(t, e.c.sync(context.Background(), syncCtx))
	assert.Equal(t, []any{ct.Cluster + "/web"}, syncCtx.Q.Added)

	gone := ct.NewSyncContext(ct.Cluster + "/gone")
	require.NoError(t, e.c.sync(context.Background(), gone))
	assert.Empty(t, gone.Q.Added)
}
