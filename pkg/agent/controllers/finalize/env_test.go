package finalize

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	metadatafake "k8s.io/client-go/metadata/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	fakework "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// webWork is the work "web", not being deleted, with our finalizer.
func webWork() *workv1.ManifestWork {
	return fixture.NewWork(fixture.Cluster, "web").WithGeneration(1).WithResourceVersion("10").WithFinalizer().Build()
}

// deleting marks a work or an AppliedManifestWork as being deleted.
func deleting[T metav1.Object](obj T) T {
	now := metav1.Now()
	obj.SetDeletionTimestamp(&now)
	return obj
}

// withDeleteOption sets the work's deleteOption.
func withDeleteOption(work *workv1.ManifestWork, policy workv1.DeletePropagationPolicyType, rules ...workv1.OrphaningRule) *workv1.ManifestWork {
	work.Spec.DeleteOption = &workv1.DeleteOption{PropagationPolicy: policy}
	if len(rules) > 0 {
		work.Spec.DeleteOption.SelectivelyOrphan = &workv1.SelectivelyOrphan{OrphaningRules: rules}
	}
	return work
}

// withApplied lists resources in the work's status as applied.
func withApplied(work *workv1.ManifestWork, resources ...workv1.AppliedManifestResourceMeta) *workv1.ManifestWork {
	for i, r := range resources {
		work.Status.ResourceStatus.Manifests = append(work.Status.ResourceStatus.Manifests, workv1.ManifestCondition{
			ResourceMeta: workv1.ManifestResourceMeta{
				Ordinal: int32(i), Group: r.Group, Version: r.Version, Resource: r.Resource, Namespace: r.Namespace, Name: r.Name,
			},
			Conditions: []metav1.Condition{{Type: workv1.ManifestApplied, Status: metav1.ConditionTrue, Reason: "Test"}},
		})
	}
	return work
}

// env holds both controllers over the same fakes.
type env struct {
	work     *WorkController
	applied  *AppliedController
	hub      *fakework.Clientset
	spoke    *fakework.Clientset
	metadata *metadatafake.FakeMetadataClient
	events   *record.FakeRecorder
}

// given is what exists when a test starts. Objects in cached are in the
// watch cache (which is then synced for their types); inAPIOnly are
// AppliedManifestWorks the API has but the lister has not seen yet.
type given struct {
	work      *workv1.ManifestWork // nil: gone from the hub
	applied   *workv1.AppliedManifestWork
	inAPIOnly *workv1.AppliedManifestWork
	objects   []*metav1.PartialObjectMetadata
	cached    ct.Cache
}

func newEnv(t *testing.T, f given) *env {
	t.Helper()
	hub := fakework.NewSimpleClientset()
	spoke := fakework.NewSimpleClientset()
	works := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	applied := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if f.work != nil {
		require.NoError(t, hub.Tracker().Add(f.work.DeepCopy()))
		require.NoError(t, works.Add(f.work.DeepCopy()))
	}
	if f.applied != nil {
		require.NoError(t, spoke.Tracker().Add(f.applied.DeepCopy()))
		require.NoError(t, applied.Add(f.applied.DeepCopy()))
	}
	if f.inAPIOnly != nil {
		require.NoError(t, spoke.Tracker().Add(f.inAPIOnly.DeepCopy()))
	}
	md := ct.NewClient(t, f.objects...)
	var objects appliedwork.ObjectCache
	if f.cached != nil {
		objects = f.cached
	}
	worksLister := worklisters.NewManifestWorkLister(works).ManifestWorks(fixture.Cluster)
	appliedLister := worklisters.NewAppliedManifestWorkLister(applied)
	events := record.NewFakeRecorder(100)
	return &env{
		events: events,
		work: &WorkController{
			WorkDeps: WorkDeps{Agent: appliedwork.Agent{ClusterName: fixture.Cluster, HubHash: fixture.HubHash}, Writes: workwriter.Shared{Client: hub}, SpokeClient: spoke, Events: events},
			works:    worksLister, applied: appliedLister,
			writer: workwriter.New(workwriter.Shared{Client: hub}, ControllerName, workwriter.Guarded),
			now:    time.Now,
		},
		applied: &AppliedController{
			AppliedDeps: AppliedDeps{Agent: appliedwork.Agent{ClusterName: fixture.Cluster, HubHash: fixture.HubHash, AgentID: "agent1"}, Writes: workwriter.Shared{Client: hub}, SpokeClient: spoke, Metadata: md, Objects: objects,
				Events: events},
			works: worksLister, applied: appliedLister,
			cleaner: &appliedwork.Cleaner{Client: md, Objects: objects},
			writer:  workwriter.New(workwriter.Shared{Client: hub}, AppliedControllerName, workwriter.Plain),
			now:     time.Now,
		},
		hub: hub, spoke: spoke, metadata: md,
	}
}

func (e *env) hubWrites() []string    { return ct.Writes(e.hub.Actions()) }
func (e *env) spokeWrites() []string  { return ct.Writes(e.spoke.Actions()) }
func (e *env) objectWrites() []string { return ct.Writes(e.metadata.Actions()) }

func (e *env) clearActions() {
	e.hub.ClearActions()
	e.spoke.ClearActions()
	e.metadata.ClearActions()
}

// object is an applied object as the fake managed fixture.Cluster holds it, or nil.
func (e *env) object(t *testing.T, gvr schema.GroupVersionResource, namespace, name string) *metav1.PartialObjectMetadata {
	t.Helper()
	return ct.Stored(t, e.metadata, gvr, namespace, name)
}

// hubWork is the work as the fake hub holds it, or nil.
func (e *env) hubWork(t *testing.T) *workv1.ManifestWork {
	t.Helper()
	w, err := e.hub.WorkV1().ManifestWorks(fixture.Cluster).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return w
}

// spokeApplied is the AppliedManifestWork as the fake managed fixture.Cluster holds
// it, or nil.
func (e *env) spokeApplied(t *testing.T) *workv1.AppliedManifestWork {
	t.Helper()
	a, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), fixture.AppliedName, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return a
}

// deletingCond is the work's Deleting condition in the fake hub, or nil.
func (e *env) deletingCond(t *testing.T) *metav1.Condition {
	t.Helper()
	w := e.hubWork(t)
	if w == nil {
		return nil
	}
	return apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkDeleting)
}

// listerOf is a work lister holding work, as the informer would after the
// hub's latest change.
func listerOf(t *testing.T, work *workv1.ManifestWork) worklisters.ManifestWorkNamespaceLister {
	t.Helper()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	require.NoError(t, indexer.Add(work))
	return worklisters.NewManifestWorkLister(indexer).ManifestWorks(fixture.Cluster)
}
