package agent

import (
	"context"
	"testing"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/controllers/appliedresources"
	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	"github.com/manifestwork/work/pkg/agent/controllers/finalize"
	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	"github.com/manifestwork/work/pkg/agent/controllers/statusfeedback"
	"github.com/manifestwork/work/pkg/agent/executor"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// routed is what each queue of the event routing received.
type routed struct {
	apply, available, record, done, finalize, feedback []any
}

// recordingRouter is a router of this agent whose every queue records what
// is added.
func recordingRouter() (router, func() routed) {
	r := router{
		agent:  appliedwork.Agent{ClusterName: fixture.Cluster, HubHash: fixture.HubHash},
		queues: map[string]factory.SyncContext{},
	}
	for _, t := range triggers {
		r.queues[t.to] = ct.NewSyncContext("")
	}
	added := func(controller string) []any { return r.queues[controller].(*ct.SyncContext).Q.Added }
	return r, func() routed {
		return routed{
			apply: added(manifestwork.ControllerName), available: added(availability.ControllerName),
			record: added(appliedresources.ControllerName), done: added(finalize.AppliedControllerName),
			finalize: added(finalize.ControllerName), feedback: added(statusfeedback.ControllerName),
		}
	}
}

// recordingQueue is the queue of the named controller of a recordingRouter.
func recordingQueue(r router, controller string) *ct.RecordingQueue {
	return r.queue(controller).Queue().(*ct.RecordingQueue)
}

func TestOnObjectChange(t *testing.T) {
	for _, tt := range []struct {
		name        string
		appliedName string
		want        routed
	}{{
		name:        "an object of this hub's work requeues the work for apply, availability (the feedback controller's for a work with rules) and, a moment later, records, and its AppliedManifestWork",
		appliedName: fixture.AppliedName,
		want: routed{
			apply: []any{fixture.Cluster + "/web"}, available: []any{fixture.Cluster + "/web"}, record: []any{fixture.Cluster + "/web"},
			feedback: []any{fixture.Cluster + "/web"}, done: []any{fixture.AppliedName},
		},
	}, {
		name:        "an object of another hub's work only requeues its AppliedManifestWork, which may wait for it to go",
		appliedName: "otherhub-web",
		want:        routed{done: []any{"otherhub-web"}},
	}, {
		name:        "an AppliedManifestWork name of this hub without a work name names no work",
		appliedName: fixture.HubHash + "-",
		want:        routed{done: []any{fixture.HubHash + "-"}},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			r, got := recordingRouter()
			r.onObjectChange(tt.appliedName)
			assert.Equal(t, tt.want, got())
			for _, key := range tt.want.record {
				delay, _ := recordingQueue(r, appliedresources.ControllerName).Delay(key)
				assert.Equal(t, recordsDelay, delay, "the records of a burst of changes are written once, after it")
			}
			for _, key := range tt.want.apply {
				_, delayed := recordingQueue(r, manifestwork.ControllerName).Delay(key)
				assert.False(t, delayed, "drift is repaired at once")
			}
		})
	}
}

func TestOnExecutorChange(t *testing.T) {
	works := []*workv1.ManifestWork{
		fixture.NewWork(fixture.Cluster, "by-sa1").WithExecutor("default", "sa1").Build(),
		fixture.NewWork(fixture.Cluster, "by-sa2").WithExecutor("default", "sa2").Build(),
		fixture.NewWork(fixture.Cluster, "as-agent").Build(),
		func() *workv1.ManifestWork { // an executor the agent cannot use: never retried for RBAC
			w := fixture.NewWork(fixture.Cluster, "bad-executor").Build()
			w.Spec.Executor = &workv1.ManifestWorkExecutor{Subject: workv1.ManifestWorkExecutorSubject{Type: "User"}}
			return w
		}(),
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, w := range works {
		require.NoError(t, indexer.Add(w))
	}
	lister := worklisters.NewManifestWorkLister(indexer).ManifestWorks(fixture.Cluster)

	sa1Work, sa2Work := fixture.Cluster+"/by-sa1", fixture.Cluster+"/by-sa2"
	sa1Applied, sa2Applied := fixture.HubHash+"-by-sa1", fixture.HubHash+"-by-sa2"
	for _, tt := range []struct {
		name string
		user string
		want routed
	}{{
		name: "one executor's RBAC changed: its works are applied, recorded and finalized again",
		user: "system:serviceaccount:default:sa1",
		want: routed{apply: []any{sa1Work}, record: []any{sa1Work}, done: []any{sa1Applied}},
	}, {
		name: "everyone's RBAC may have changed: every work with an executor",
		user: executor.AllExecutors,
		want: routed{apply: []any{sa1Work, sa2Work}, record: []any{sa1Work, sa2Work}, done: []any{sa1Applied, sa2Applied}},
	}, {
		name: "an executor no work names: nothing",
		user: "system:serviceaccount:default:nobody",
		want: routed{},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			router, got := recordingRouter()
			router.onExecutorChange(lister)(context.Background(), tt.user)
			r := got()
			// The lister lists in no fixed order.
			assert.ElementsMatch(t, tt.want.apply, r.apply, "apply")
			assert.ElementsMatch(t, tt.want.record, r.record, "record")
			assert.ElementsMatch(t, tt.want.done, r.done, "done")
			assert.Empty(t, r.available, "availability does not depend on RBAC")
			assert.Empty(t, r.finalize)
			assert.Empty(t, r.feedback)
		})
	}
}

// A watch that starts failing or works again requeues the works that use
// the type for apply, where their Stalled and InSync conditions are set,
// and for their health, which the watch's cache may show changed; the
// agent's own start, which uses watches too, is no work.
func TestOnWatchFailure(t *testing.T) {
	for _, tt := range []struct {
		name string
		user string
		want routed
	}{
		{"a work of this cluster", fixture.Cluster + "/web", routed{apply: []any{fixture.Cluster + "/web"},
			available: []any{fixture.Cluster + "/web"}, feedback: []any{fixture.Cluster + "/web"}}},
		{"the agent's start", appliedTypesUser, routed{}},
		{"a key of another namespace", "other/web", routed{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, got := recordingRouter()
			r.onWatchFailure(tt.user)
			assert.Equal(t, tt.want, got())
		})
	}
}

// A new watch whose cache has synced requeues the works owning what it
// listed, for apply and for their health; neither records nor the
// AppliedManifestWork: an object its first list brought is no change of them.
func TestOnListed(t *testing.T) {
	for _, tt := range []struct {
		name        string
		appliedName string
		want        routed
	}{
		{"an object of this hub's work", fixture.AppliedName, routed{apply: []any{fixture.Cluster + "/web"},
			available: []any{fixture.Cluster + "/web"}, feedback: []any{fixture.Cluster + "/web"}}},
		{"an object of another hub's work", "otherhub-web", routed{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, got := recordingRouter()
			r.onListed(tt.appliedName)
			assert.Equal(t, tt.want, got())
		})
	}
}

// When a cluster answers again, what failed meanwhile in the shared queues
// is retried at once, and nothing else is queued.
func TestRetryFailedInSharedQueues(t *testing.T) {
	works := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	applied := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, name := range []string{"failed", "fine"} {
		require.NoError(t, works.Add(&workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Namespace: "cluster1", Name: name}}))
		require.NoError(t, applied.Add(&workv1.AppliedManifestWork{ObjectMeta: metav1.ObjectMeta{Name: "hash-" + name}}))
	}
	r := newRouter(appliedwork.Agent{ClusterName: "cluster1", HubHash: "hash"}, events.NewLoggingEventRecorder(eventComponent, clock.RealClock{}))
	available, done := r.queue(availability.ControllerName).Queue(), r.queue(finalize.AppliedControllerName).Queue()
	for range 10 {
		available.AddRateLimited("cluster1/failed")
		done.AddRateLimited("hash-failed")
	}

	r.retryFailed(worklisters.NewManifestWorkLister(works).ManifestWorks("cluster1"), worklisters.NewAppliedManifestWorkLister(applied))()

	assert.Equal(t, 1, available.Len(), "the failed work is queued at once, the fine one is not")
	assert.Equal(t, 1, done.Len(), "the failed AppliedManifestWork is queued at once, the fine one is not")
	assert.Zero(t, available.NumRequeues("cluster1/failed"), "backoff forgotten")
	assert.Zero(t, done.NumRequeues("hash-failed"), "backoff forgotten")
	assert.Zero(t, r.queue(appliedresources.ControllerName).Queue().Len(), "nothing failed there")
}
