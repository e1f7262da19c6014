package appliedresources

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

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
	"k8s.io/client-go/tools/record"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	fakework "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// manifestStatus is one entry of a work's status.resourceStatus.manifests.
func manifestStatus(gvr schema.GroupVersionResource, namespace, name string, applied bool) workv1.ManifestCondition {
	status := metav1.ConditionTrue
	if !applied {
		status = metav1.ConditionFalse
	}
	return fixture.ManifestStatus(gvr, namespace, name, fixture.AppliedCondition(status))
}

// webWork is the work "web" at generation 2 whose status describes that
// generation and lists manifests.
func webWork(manifests ...workv1.ManifestCondition) *workv1.ManifestWork {
	return fixture.NewWork(fixture.Cluster, "web").WithGeneration(2).WithResourceVersion("10").
		WithCondition(metav1.Condition{
			Type: workv1.WorkApplied, Status: metav1.ConditionTrue, Reason: workv1.WorkAppliedReasonComplete, ObservedGeneration: 2,
		}).
		WithManifestStatus(manifests...).Build()
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
// what exists on the managed cluster, and objectCache (may be nil) what the
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
	var objectsCache appliedwork.ObjectCache
	if objectCache != nil {
		objectsCache = objectCache
	}
	c := &Controller{
		Deps:    Deps{Agent: appliedwork.Agent{ClusterName: fixture.Cluster, HubHash: fixture.HubHash}, SpokeClient: spoke, Metadata: md, Objects: objectsCache},
		applied: worklisters.NewAppliedManifestWorkLister(indexer),
		cleaner: &appliedwork.Cleaner{Client: md, Objects: objectsCache},
		now:     time.Now,
	}
	return &env{c: c, spoke: spoke, metadata: md, appliedIndexer: indexer}
}

// appliedResources is the AppliedManifestWork status the fake API holds.
func (e *env) appliedResources(t *testing.T) []workv1.AppliedManifestResourceMeta {
	t.Helper()
	got, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), fixture.AppliedName, metav1.GetOptions{})
	require.NoError(t, err)
	return got.Status.AppliedResources
}

func (e *env) spokeWrites() []string { return ct.Writes(e.spoke.Actions()) }

func TestReconcile(t *testing.T) {
	cm := ct.Resource(ct.ConfigMaps, "default", "cm", "uid-cm")
	deploy := ct.Resource(ct.Deployments, "default", "web", "uid-web")
	cmObj := ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef)
	deployObj := ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OurRef)
	statusPatch := []string{"patch appliedmanifestworks/status " + fixture.AppliedName}

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
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true), manifestStatus(ct.Deployments, "default", "web", true)),
		applied: fixture.WebApplied(),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy}, wantSpoke: statusPatch,
	}, {
		name:    "takes the UIDs from the watch cache when it has them",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(),
		cache:   ct.Cache{}.Put(ct.ConfigMaps, cmObj),
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "writes nothing when nothing changed",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true), manifestStatus(ct.Deployments, "default", "web", true)),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy},
	}, {
		name:    "follows a recreated object to its new UID",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(ct.Resource(ct.ConfigMaps, "default", "cm", "uid-old")),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "records a manifest that is not applied when its object exists, as OCM",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", false)),
		applied: fixture.WebApplied(),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "does not record a manifest that is not applied and has no object",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", false)),
		applied: fixture.WebApplied(),
	}, {
		name:    "lists in OCM's order: group, version, resource, namespace, name",
		work:    webWork(manifestStatus(ct.Deployments, "default", "web", true), manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(deploy, cm),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy}, wantSpoke: statusPatch,
	}, {
		name:    "keeps the record of a manifest that failed to apply this time",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", false)),
		applied: fixture.WebApplied(cm),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm},
	}, {
		name:    "does not record an object that is gone, and looks again soon",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(), wantRecheck: true,
	}, {
		name:    "records a ReadOnly manifest whose object exists, as OCM",
		work:    readOnly(webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))),
		applied: fixture.WebApplied(),
		objects: []*metav1.PartialObjectMetadata{ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm")},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "does not record a ReadOnly manifest without object, nor look again",
		work:    readOnly(webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))),
		applied: fixture.WebApplied(),
	}, {
		name:    "never touches a recorded ReadOnly object dropped from the work",
		work:    webWork(manifestStatus(ct.Deployments, "default", "web", true)),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm"), deployObj},
		want:    []workv1.AppliedManifestResourceMeta{deploy}, wantSpoke: statusPatch,
	}, {
		name:    "deletes a resource dropped from the work",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
		wantObjs: []string{"delete deployments default/web"},
	}, {
		name:    "never deletes a dropped resource whose object was recreated",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, ct.Object(ct.Deployments, "default", "web", "uid-new", fixture.OurRef)},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "only releases a dropped resource that another work shares",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OtherRef, fixture.OurRef)},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
		wantObjs: []string{"patch deployments default/web"},
	}, {
		name:    "a dropped resource that the work's deleteOption orphans stays, and only loses our owner reference",
		work:    orphaning(webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)), fixture.OrphanAll()),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
		wantObjs: []string{"patch deployments default/web"},
	}, {
		name: "a dropped resource that a SelectivelyOrphan rule names stays",
		work: orphaning(webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
			fixture.OrphanOnly(workv1.OrphaningRule{Group: "apps", Resource: "deployments", Namespace: "default", Name: "web"})),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
		wantObjs: []string{"patch deployments default/web"},
	}, {
		name:    "a dropped orphaned resource without our owner reference is not touched, and leaves the record",
		work:    orphaning(webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)), fixture.OrphanAll()),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, ct.Object(ct.Deployments, "default", "web", "uid-web")},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "a dropped resource without our owner reference is never deleted",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OtherRef)},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name:    "forgets a dropped resource that is already gone",
		work:    webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm}, wantSpoke: statusPatch,
	}, {
		name: "does not prune while the work status is behind its spec",
		work: func() *workv1.ManifestWork {
			w := webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))
			w.Generation = 3
			return w
		}(),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy},
	}, {
		name: "does not prune a resource that a manifest not mapped this time may be",
		work: func() *workv1.ManifestWork {
			w := webWork(manifestStatus(ct.Deployments, "default", "web", false))
			w.Status.ResourceStatus.Manifests[0].ResourceMeta.Resource = "" // its type is not served right now
			return w
		}(),
		applied:  fixture.WebApplied(cm, deploy),
		objects:  []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:     []workv1.AppliedManifestResourceMeta{deploy},
		wantObjs: []string{"delete configmaps default/cm"}, wantSpoke: statusPatch,
	}, {
		name: "does not prune while a manifest cannot be decoded",
		work: func() *workv1.ManifestWork {
			w := webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true), manifestStatus(ct.Deployments, "default", "web", false))
			w.Status.ResourceStatus.Manifests[1].ResourceMeta = workv1.ManifestResourceMeta{Ordinal: 1}
			return w
		}(),
		applied: fixture.WebApplied(cm, deploy),
		objects: []*metav1.PartialObjectMetadata{cmObj, deployObj},
		want:    []workv1.AppliedManifestResourceMeta{cm, deploy},
	}, {
		name:      "clears the list when the work applies nothing",
		work:      webWork(),
		applied:   fixture.WebApplied(cm),
		objects:   []*metav1.PartialObjectMetadata{cmObj},
		wantSpoke: statusPatch, wantObjs: []string{"delete configmaps default/cm"},
	}, {
		name: "leaves a work that is being deleted to the finalize controllers",
		work: func() *workv1.ManifestWork {
			w := webWork()
			now := metav1.Now()
			w.DeletionTimestamp = &now
			return w
		}(),
		applied: fixture.WebApplied(cm),
		objects: []*metav1.PartialObjectMetadata{cmObj},
		want:    []workv1.AppliedManifestResourceMeta{cm},
	}, {
		name: "leaves an AppliedManifestWork that is being deleted alone",
		work: webWork(),
		applied: func() *workv1.AppliedManifestWork {
			a := fixture.WebApplied(cm)
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

// readOnly is work with every ConfigMap read only.
func readOnly(work *workv1.ManifestWork) *workv1.ManifestWork {
	work.Spec.ManifestConfigs = []workv1.ManifestConfigOption{{
		ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "*", Name: "*"},
		UpdateStrategy:     &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeReadOnly},
	}}
	return work
}

// orphaning is work with deleteOption set.
func orphaning(work *workv1.ManifestWork, option workv1.DeleteOption) *workv1.ManifestWork {
	work.Spec.DeleteOption = &option
	return work
}

func TestReconcileWithoutAppliedWorkDoesNothing(t *testing.T) {
	e := newEnv(t, nil, nil, ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef))
	_, err := e.c.reconcile(context.Background(), webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)))
	require.NoError(t, err)
	assert.Empty(t, e.spoke.Actions())
	assert.Empty(t, e.metadata.Actions())
}

// The delete of a dropped resource is conditional on the recorded UID.
func TestPruneDeletesWithUIDPrecondition(t *testing.T) {
	deploy := ct.Resource(ct.Deployments, "default", "web", "uid-web")
	e := newEnv(t, fixture.WebApplied(deploy), nil, ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OurRef))
	_, err := e.c.reconcile(context.Background(), webWork())
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
	e := newEnv(t, fixture.WebApplied(cm, deploy), nil,
		ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef), ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OurRef))
	e.metadata.PrependReactor("delete", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", nil)
	})

	_, err := e.c.reconcile(context.Background(), webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "deployments apps/v1 default/web")
	assert.Equal(t, []workv1.AppliedManifestResourceMeta{cm, deploy}, e.appliedResources(t))
	assert.Empty(t, e.spokeWrites(), "nothing changed in the status")
}

// A dropped resource that keeps failing to be pruned is reported on the
// work as one Warning Event once it has failed for ten seconds, not before
// and not on every retry; after a success, a new failure counts again.
func TestPruneFailureThatLastsIsAnEvent(t *testing.T) {
	cm := ct.Resource(ct.ConfigMaps, "default", "cm", "uid-cm")
	deploy := ct.Resource(ct.Deployments, "default", "web", "uid-web")
	e := newEnv(t, fixture.WebApplied(cm, deploy), nil,
		ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef), ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OurRef))
	refuse := true
	e.metadata.PrependReactor("delete", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		return refuse, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", errors.New("no"))
	})
	events := record.NewFakeRecorder(10)
	e.c.Events = events
	t0, at := time.Unix(10000, 0), time.Duration(0)
	e.c.now = func() time.Time { return t0.Add(at) }
	work := webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))
	want := "Warning PruneFailed Cannot remove what was dropped from the work; retrying: pruning deployments apps/v1 default/web: deleting deployments default/web: " +
		`deployments.apps "web" is forbidden: no`
	for _, s := range []struct {
		at     time.Duration
		refuse bool
		want   []string
	}{
		{at: 0, refuse: true},
		{at: 9 * time.Second, refuse: true},
		{at: 10 * time.Second, refuse: true, want: []string{want}},
		{at: time.Minute, refuse: true},
		{at: 2 * time.Minute},
	} {
		at, refuse = s.at, s.refuse
		_, err := e.c.reconcile(context.Background(), work)
		assert.Equal(t, s.refuse, err != nil, "at %s: %v", s.at, err)
		assert.Equal(t, s.want, ct.Recorded(events), "at %s", s.at)
	}
	assert.False(t, e.c.pruneFailures.Succeeded(fixture.Cluster+"/web"), "forgotten once pruned")
}

// The status patch carries the resourceVersion it was computed from.
func TestStatusPatchCarriesResourceVersion(t *testing.T) {
	e := newEnv(t, fixture.WebApplied(), nil, ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef))
	_, err := e.c.reconcile(context.Background(), webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)))
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
	e := newEnv(t, fixture.WebApplied(), nil, ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef))
	e.spoke.PrependReactor("patch", "appliedmanifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "appliedmanifestworks"}, fixture.AppliedName, nil)
	})
	works := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	require.NoError(t, works.Add(webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))))
	e.c.works = worklisters.NewManifestWorkLister(works).ManifestWorks(fixture.Cluster)

	syncCtx := ct.NewSyncContext(fixture.Cluster + "/web")
	require.NoError(t, e.c.sync(context.Background(), syncCtx))
	assert.Equal(t, []any{fixture.Cluster + "/web"}, syncCtx.Q.Added)

	gone := ct.NewSyncContext(fixture.Cluster + "/gone")
	require.NoError(t, e.c.sync(context.Background(), gone))
	assert.Empty(t, gone.Q.Added)
}
