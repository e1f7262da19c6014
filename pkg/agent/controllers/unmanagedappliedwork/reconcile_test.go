package unmanagedappliedwork

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
)

const (
	cluster  = "cluster1"
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

func newApplied(hubHash, agent string, evictionStart *time.Time) *workv1.AppliedManifestWork {
	a := &workv1.AppliedManifestWork{
		ObjectMeta: metav1.ObjectMeta{
			Name: appliedwork.Name(hubHash, workName), UID: "amw-uid", ResourceVersion: "17",
			Finalizers: []string{workv1.AppliedManifestWorkFinalizer},
		},
		Spec: workv1.AppliedManifestWorkSpec{HubHash: hubHash, AgentID: agent, ManifestWorkName: workName},
		Status: workv1.AppliedManifestWorkStatus{AppliedResources: []workv1.AppliedManifestResourceMeta{{
			ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "default", Name: "cm"},
			Version:            "v1", UID: "cm-uid",
		}}},
	}
	if evictionStart != nil {
		a.Status.EvictionStartTime = &metav1.Time{Time: *evictionStart}
	}
	return a
}

func newWork(name string) *workv1.ManifestWork {
	return &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Namespace: cluster, Name: name}}
}

func ago(d time.Duration) *time.Time {
	t := now.Add(-d)
	return &t
}

type fixture struct {
	c     *Controller
	spoke *workfake.Clientset
}

// newFixture serves works from the hub cache and applied from the managed
// cluster (client and cache).
func newFixture(t *testing.T, applied *workv1.AppliedManifestWork, works ...*workv1.ManifestWork) *fixture {
	t.Helper()
	workIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, w := range works {
		require.NoError(t, workIndexer.Add(w))
	}
	appliedIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	require.NoError(t, appliedIndexer.Add(applied))
	spoke := workfake.NewSimpleClientset(applied)
	return &fixture{
		spoke: spoke,
		c: &Controller{
			Deps: Deps{
				ClusterName: cluster, HubHash: ourHub, AgentID: agentID, GracePeriod: grace,
				SpokeClient: spoke, Clock: &fakeClock{now: now},
			},
			works:   worklisters.NewManifestWorkLister(workIndexer).ManifestWorks(cluster),
			applied: worklisters.NewAppliedManifestWorkLister(appliedIndexer),
		},
	}
}

func (f *fixture) reconcile(t *testing.T, applied *workv1.AppliedManifestWork) (time.Duration, error) {
	t.Helper()
	f.spoke.ClearActions()
	return f.c.reconcile(t.Context(), applied)
}

// writes returns the requests that changed something on the managed cluster.
func (f *fixture) writes() []clienttesting.Action {
	var out []clienttesting.Action
	for _, a := range f.spoke.Actions() {
		if a.GetVerb() != "get" && a.GetVerb() != "list" && a.GetVerb() != "watch" {
			out = append(out, a)
		}
	}
	return out
}

func (f *fixture) stored(t *testing.T, name string) (*workv1.AppliedManifestWork, error) {
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
			applied: newApplied(ourHub, agentID, nil),
			works:   []*workv1.ManifestWork{newWork("another")},
		},
		"it comes from another hub": {
			applied: newApplied(otherHub, agentID, nil),
			works:   []*workv1.ManifestWork{newWork(workName)}, // a work of the same name on our hub does not adopt it
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, tt.applied, tt.works...)

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
			applied := newApplied(ourHub, agentID, ago(elapsed))
			f := newFixture(t, applied)

			next, err := f.reconcile(t, applied)
			require.NoError(t, err)

			assert.Empty(t, f.writes())
			requeueAfter(t, grace-elapsed, next)
		})
	}
}

func TestReconcileEvictsAfterTheGracePeriod(t *testing.T) {
	tests := map[string]*workv1.AppliedManifestWork{
		"work gone, grace period just over":   newApplied(ourHub, agentID, ago(grace)),
		"work gone, long ago":                 newApplied(ourHub, agentID, ago(30*grace)),
		"another hub, grace period just over": newApplied(otherHub, agentID, ago(grace)),
	}
	for name, applied := range tests {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, applied, newWork("another"))

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
	applied := newApplied(ourHub, agentID, ago(grace))
	f := newFixture(t, applied)
	require.NoError(t, f.spoke.Tracker().Delete(workv1.SchemeGroupVersion.WithResource("appliedmanifestworks"), "", applied.Name))

	_, err := f.reconcile(t, applied)

	assert.NoError(t, err)
}

func TestReconcileCancelsEvictionWhenTheWorkReturns(t *testing.T) {
	for name, elapsed := range map[string]time.Duration{"during the grace period": grace / 2, "after it": 2 * grace} {
		t.Run(name, func(t *testing.T) {
			applied := newApplied(ourHub, agentID, ago(elapsed))
			f := newFixture(t, applied, newWork(workName))

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
	deleting := newApplied(ourHub, agentID, ago(2*grace))
	deleting.DeletionTimestamp = &metav1.Time{Time: now}
	beingDeletedWork := newWork(workName)
	beingDeletedWork.DeletionTimestamp = &metav1.Time{Time: now}
	beingDeletedWork.Finalizers = []string{workv1.ManifestWorkFinalizer}
	tests := map[string]struct {
		applied *workv1.AppliedManifestWork
		works   []*workv1.ManifestWork
	}{
		"its work is on the hub":                    {applied: newApplied(ourHub, agentID, nil), works: []*workv1.ManifestWork{newWork(workName)}},
		"its work is being deleted by the agent":    {applied: newApplied(ourHub, agentID, nil), works: []*workv1.ManifestWork{beingDeletedWork}},
		"another agent's, work gone":                {applied: newApplied(ourHub, "agent-b", nil)},
		"another agent's, another hub, long marked": {applied: newApplied(otherHub, "agent-b", ago(30*grace))},
		"another agent's, without agent ID":         {applied: newApplied(otherHub, "", nil)},
		"already being deleted":                     {applied: deleting},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, tt.applied, tt.works...)

			next, err := f.reconcile(t, tt.applied)
			require.NoError(t, err)

			assert.Empty(t, f.writes())
			assert.Zero(t, next)
		})
	}
}

func TestReconcileConflict(t *testing.T) {
	applied := newApplied(ourHub, agentID, nil)
	f := newFixture(t, applied)
	f.spoke.PrependReactor("patch", "appliedmanifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(workv1.Resource("appliedmanifestworks"), applied.Name, errors.New("changed"))
	})

	_, err := f.reconcile(t, applied)

	require.Error(t, err)
	assert.True(t, apierrors.IsConflict(err), "a conflict stays recognisable, so sync requeues: %v", err)
}

func TestQueueKeys(t *testing.T) {
	f := newFixture(t, newApplied(ourHub, agentID, nil))

	assert.Equal(t, []string{appliedwork.Name(ourHub, workName)}, f.c.appliedWorkKey(newApplied(ourHub, agentID, nil)))
	assert.Equal(t, []string{appliedwork.Name(otherHub, workName)}, f.c.appliedWorkKey(newApplied(otherHub, agentID, nil)))
	assert.Empty(t, f.c.appliedWorkKey(newApplied(ourHub, "agent-b", nil)), "other agents' are not queued")
	assert.Equal(t, []string{appliedwork.Name(ourHub, "api")}, f.c.workKey(newWork("api")))
}
