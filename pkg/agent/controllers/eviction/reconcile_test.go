package eviction

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
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workfake "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

const (
	agentID  = "agent-a"
	workName = "web"
	grace    = 10 * time.Minute
)

var (
	ourHub   = appliedwork.HubHash("https://hub.example:6443")
	otherHub = appliedwork.HubHash("https://old-hub.example:6443")
	// now is whole seconds: evictionStartTime is stored with second precision.
	now = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
)

// fakeClock is a clock.PassiveClock standing still at a given time.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time                  { return c.now }
func (c *fakeClock) Since(t time.Time) time.Duration { return c.now.Sub(t) }

// appliedWork is the AppliedManifestWork of the work "web" that the agent agent
// of hubHash keeps, recording one ConfigMap; evictionStart may be nil.
func appliedWork(hubHash, agent string, evictionStart *time.Time) *workv1.AppliedManifestWork {
	b := fixture.NewApplied(hubHash, workName).AsStored("amw-uid", "17").WithAgent(agent).
		WithResources(workv1.AppliedManifestResourceMeta{
			ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "default", Name: "cm"},
			Version:            "v1", UID: "cm-uid",
		})
	if evictionStart != nil {
		b.WithEvictionStart(*evictionStart)
	}
	return b.Build()
}

func ago(d time.Duration) *time.Time {
	t := now.Add(-d)
	return &t
}

type harness struct {
	c     *Controller
	spoke *workfake.Clientset
}

// newFixture serves works from the hub cache and applied from the managed
// cluster (client and cache).
func newHarness(t *testing.T, applied *workv1.AppliedManifestWork, works ...*workv1.ManifestWork) *harness {
	t.Helper()
	workIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, w := range works {
		require.NoError(t, workIndexer.Add(w))
	}
	appliedIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	require.NoError(t, appliedIndexer.Add(applied))
	spoke := workfake.NewSimpleClientset(applied)
	return &harness{
		spoke: spoke,
		c: &Controller{
			Deps: Deps{
				Agent: appliedwork.Agent{ClusterName: fixture.Cluster, HubHash: ourHub, AgentID: agentID}, GracePeriod: grace,
				SpokeClient: spoke, Clock: &fakeClock{now: now},
			},
			works:   worklisters.NewManifestWorkLister(workIndexer).ManifestWorks(fixture.Cluster),
			applied: worklisters.NewAppliedManifestWorkLister(appliedIndexer),
		},
	}
}

func (f *harness) reconcile(t *testing.T, applied *workv1.AppliedManifestWork) (time.Duration, error) {
	t.Helper()
	f.spoke.ClearActions()
	return f.c.reconcile(t.Context(), applied)
}

// writes returns the requests that changed something on the managed cluster.
func (f *harness) writes() []clienttesting.Action {
	var out []clienttesting.Action
	for _, a := range f.spoke.Actions() {
		if a.GetVerb() != "get" && a.GetVerb() != "list" && a.GetVerb() != "watch" {
			out = append(out, a)
		}
	}
	return out
}

func (f *harness) stored(t *testing.T, name string) (*workv1.AppliedManifestWork, error) {
	t.Helper()
	return f.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), name, metav1.GetOptions{})
}

// patchOf decodes the one status patch among the writes.
func patchOf(t *testing.T, writes []clienttesting.Action) map[string]any {
	t.Helper()
	require.Len(t, writes, 1)
	p, ok := writes[0].(clienttesting.PatchAction)
	require.True(t, ok, "want a patch, got %s", writes[0].GetVerb())
	assert.Equal(t, "status", p.GetSubresource())
	var doc map[string]any
	require.NoError(t, json.Unmarshal(p.GetPatch(), &doc))
	assert.Equal(t, map[string]any{"resourceVersion": "17"}, doc["metadata"], "the decision was made on this version")
	return doc
}

// requeueAfter asserts that next is d plus the slack: never early, at most
// two seconds late.
func requeueAfter(t *testing.T, d, next time.Duration) {
	t.Helper()
	assert.GreaterOrEqual(t, next, d+evictionSlack)
	assert.LessOrEqual(t, next, d+2*evictionSlack)
}

func TestReconcileStartsEviction(t *testing.T) {
	tests := map[string]struct {
		applied *workv1.AppliedManifestWork
		works   []*workv1.ManifestWork
	}{
		"its work is gone from our hub": {
			applied: appliedWork(ourHub, agentID, nil),
			works:   []*workv1.ManifestWork{fixture.NewWork(fixture.Cluster, "another").Build()},
		},
		"it comes from another hub": {
			applied: appliedWork(otherHub, agentID, nil),
			works:   []*workv1.ManifestWork{fixture.NewWork(fixture.Cluster, workName).Build()}, // a work of the same name on our hub does not adopt it
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := newHarness(t, tt.applied, tt.works...)

			next, err := f.reconcile(t, tt.applied)
			require.NoError(t, err)

			doc := patchOf(t, f.writes())
			assert.Equal(t, map[string]any{"evictionStartTime": now.Format(time.RFC3339)}, doc["status"])
			got, err := f.stored(t, tt.applied.Name)
			require.NoError(t, err)
			require.NotNil(t, got.Status.EvictionStartTime)
			assert.True(t, got.Status.EvictionStartTime.Time.Equal(now), "evictionStartTime %s", got.Status.EvictionStartTime)
			assert.Equal(t, tt.applied.Status.AppliedResources, got.Status.AppliedResources, "the rest of the status is kept")
			requeueAfter(t, grace, next)
		})
	}
}

func TestReconcileWaitsForTheGracePeriod(t *testing.T) {
	for name, elapsed := range map[string]time.Duration{"just started": 0, "half way": grace / 2, "one second left": grace - time.Second} {
		t.Run(name, func(t *testing.T) {
			applied := appliedWork(ourHub, agentID, ago(elapsed))
			f := newHarness(t, applied)

			next, err := f.reconcile(t, applied)
			require.NoError(t, err)

			assert.Empty(t, f.writes())
			requeueAfter(t, grace-elapsed, next)
		})
	}
}

func TestReconcileEvictsAfterTheGracePeriod(t *testing.T) {
	tests := map[string]*workv1.AppliedManifestWork{
		"work gone, grace period just over":   appliedWork(ourHub, agentID, ago(grace)),
		"work gone, long ago":                 appliedWork(ourHub, agentID, ago(30*grace)),
		"another hub, grace period just over": appliedWork(otherHub, agentID, ago(grace)),
	}
	for name, applied := range tests {
		t.Run(name, func(t *testing.T) {
			f := newHarness(t, applied, fixture.NewWork(fixture.Cluster, "another").Build())

			next, err := f.reconcile(t, applied)
			require.NoError(t, err)

			writes := f.writes()
			require.Len(t, writes, 1)
			del, ok := writes[0].(clienttesting.DeleteAction)
			require.True(t, ok, "want a delete, got %s", writes[0].GetVerb())
			assert.Equal(t, applied.Name, del.GetName())
			require.NotNil(t, del.GetDeleteOptions().Preconditions)
			assert.Equal(t, applied.UID, *del.GetDeleteOptions().Preconditions.UID)
			_, err = f.stored(t, applied.Name)
			assert.True(t, apierrors.IsNotFound(err), "deleted: %v", err)
			assert.Zero(t, next, "nothing left to wait for")
		})
	}
}

func TestReconcileEvictionOfAnAlreadyDeletedAppliedWork(t *testing.T) {
	applied := appliedWork(ourHub, agentID, ago(grace))
	f := newHarness(t, applied)
	require.NoError(t, f.spoke.Tracker().Delete(workv1.SchemeGroupVersion.WithResource("appliedmanifestworks"), "", applied.Name))

	_, err := f.reconcile(t, applied)

	assert.NoError(t, err)
}

func TestReconcileCancelsEvictionWhenTheWorkReturns(t *testing.T) {
	for name, elapsed := range map[string]time.Duration{"during the grace period": grace / 2, "after it": 2 * grace} {
		t.Run(name, func(t *testing.T) {
			applied := appliedWork(ourHub, agentID, ago(elapsed))
			f := newHarness(t, applied, fixture.NewWork(fixture.Cluster, workName).Build())

			next, err := f.reconcile(t, applied)
			require.NoError(t, err)

			doc := patchOf(t, f.writes())
			assert.Equal(t, map[string]any{"evictionStartTime": nil}, doc["status"])
			got, err := f.stored(t, applied.Name)
			require.NoError(t, err)
			assert.Nil(t, got.Status.EvictionStartTime)
			assert.Equal(t, applied.Status.AppliedResources, got.Status.AppliedResources)
			assert.Zero(t, next)
		})
	}
}

func TestReconcileLeavesAlone(t *testing.T) {
	deleting := appliedWork(ourHub, agentID, ago(2*grace))
	deleting.DeletionTimestamp = &metav1.Time{Time: now}
	beingDeletedWork := fixture.NewWork(fixture.Cluster, workName).Build()
	beingDeletedWork.DeletionTimestamp = &metav1.Time{Time: now}
	beingDeletedWork.Finalizers = []string{workv1.ManifestWorkFinalizer}
	tests := map[string]struct {
		applied *workv1.AppliedManifestWork
		works   []*workv1.ManifestWork
	}{
		"its work is on the hub":                    {applied: appliedWork(ourHub, agentID, nil), works: []*workv1.ManifestWork{fixture.NewWork(fixture.Cluster, workName).Build()}},
		"its work is being deleted by the agent":    {applied: appliedWork(ourHub, agentID, nil), works: []*workv1.ManifestWork{beingDeletedWork}},
		"another agent's, work gone":                {applied: appliedWork(ourHub, "agent-b", nil)},
		"another agent's, another hub, long marked": {applied: appliedWork(otherHub, "agent-b", ago(30*grace))},
		"another agent's, without agent ID":         {applied: appliedWork(otherHub, "", nil)},
		"already being deleted":                     {applied: deleting},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := newHarness(t, tt.applied, tt.works...)

			next, err := f.reconcile(t, tt.applied)
			require.NoError(t, err)

			assert.Empty(t, f.writes())
			assert.Zero(t, next)
		})
	}
}

func TestReconcileConflict(t *testing.T) {
	applied := appliedWork(ourHub, agentID, nil)
	f := newHarness(t, applied)
	f.spoke.PrependReactor("patch", "appliedmanifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(workv1.Resource("appliedmanifestworks"), applied.Name, errors.New("changed"))
	})

	_, err := f.reconcile(t, applied)

	require.Error(t, err)
	assert.True(t, apierrors.IsConflict(err), "a conflict stays recognisable, so sync requeues: %v", err)
}

func TestQueueKeys(t *testing.T) {
	f := newHarness(t, appliedWork(ourHub, agentID, nil))

	assert.Equal(t, []string{appliedwork.Name(ourHub, workName)}, f.c.appliedWorkKey(appliedWork(ourHub, agentID, nil)))
	assert.Equal(t, []string{appliedwork.Name(otherHub, workName)}, f.c.appliedWorkKey(appliedWork(otherHub, agentID, nil)))
	assert.Empty(t, f.c.appliedWorkKey(appliedWork(ourHub, "agent-b", nil)), "other agents' are not queued")
}
