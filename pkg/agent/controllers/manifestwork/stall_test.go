package manifestwork

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// reachability is a managed cluster whose Outage is the function's.
type reachability func() (time.Time, string, bool)

func (f reachability) Outage() (time.Time, string, bool) { return f() }

// failingWatches is a synced cache of what the fake dynamic client holds,
// with the function as its WatchFailure.
type failingWatches struct {
	trackerCache
	failure func(objectwatch.Use) (objectwatch.WatchFailure, bool)
}

func (f failingWatches) WatchFailure(u objectwatch.Use) (objectwatch.WatchFailure, bool) {
	return f.failure(u)
}

// A failure that keeps a work from progressing shows on the work as Stalled
// once it has lasted ten seconds, with one status patch, and not before; it
// is removed, in the patch of the pass that works again, once it clears.
// While the AppliedManifestWork cannot be had or the cluster does not
// answer, nothing is applied; a type that cannot be watched is applied all
// the same.
func TestStalled(t *testing.T) {
	t0 := time.Unix(10000, 0)
	refused := apierrors.NewForbidden(schema.GroupResource{Group: workv1.GroupName, Resource: "appliedmanifestworks"}, "x",
		errors.New("denied by a ValidatingAdmissionPolicy"))
	notListed := apierrors.NewForbidden(configMaps.GroupResource(), "", errors.New(`cannot list resource "configmaps"`))
	type step struct {
		at    time.Duration
		fault bool // the fault is there during this pass

		wantStalled    string // reason of Stalled=True; "" when absent
		wantStatus     bool   // a status patch is sent
		wantApplied    bool   // objects are written
		wantRetry      bool   // the work's backoff retries it
		wantWithin     time.Duration
		wantNotWatched bool // the ConfigMap's InSync says NotWatched
	}
	cases := []struct {
		name  string
		fault func(e *env, on *bool) // installs the fault, begun at t0, there while on
		steps []step
	}{{
		name: "the AppliedManifestWork cannot be created",
		fault: func(e *env, on *bool) {
			e.spoke.PrependReactor("create", "appliedmanifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
				return *on, nil, refused
			})
		},
		steps: []step{
			{at: 0, fault: true, wantRetry: true, wantWithin: stalled.Threshold},
			{at: 4 * time.Second, fault: true, wantRetry: true, wantWithin: 6 * time.Second},
			{at: 10 * time.Second, fault: true, wantStalled: stalled.ReasonAppliedManifestWorkUnavailable, wantStatus: true, wantRetry: true},
			{at: time.Minute, fault: true, wantStalled: stalled.ReasonAppliedManifestWorkUnavailable, wantRetry: true},
			{at: 2 * time.Minute, wantStatus: true, wantApplied: true},
		},
	}, {
		name: "the managed cluster does not answer",
		fault: func(e *env, on *bool) {
			e.c.Cluster = reachability(func() (time.Time, string, bool) { return t0, "dial tcp: connection refused", *on })
		},
		steps: []step{
			{at: 5 * time.Second, fault: true, wantRetry: true, wantWithin: 5 * time.Second},
			{at: 10 * time.Second, fault: true, wantStalled: stalled.ReasonManagedClusterUnreachable, wantStatus: true, wantRetry: true},
			{at: 30 * time.Second, fault: true, wantStalled: stalled.ReasonManagedClusterUnreachable, wantRetry: true},
			{at: 40 * time.Second, wantStatus: true, wantApplied: true},
		},
	}, {
		name: "a resource type cannot be watched",
		fault: func(e *env, on *bool) {
			e.c.Objects = failingWatches{trackerCache{e.dynamic}, func(u objectwatch.Use) (objectwatch.WatchFailure, bool) {
				return objectwatch.WatchFailure{Err: notListed, Since: t0}, *on && u.Resource == configMaps
			}}
		},
		steps: []step{
			{at: time.Second, fault: true, wantStatus: true, wantApplied: true, wantRetry: true, wantWithin: 9 * time.Second},
			{at: 10 * time.Second, fault: true, wantStalled: stalled.ReasonResourceTypeNotWatched, wantStatus: true, wantNotWatched: true},
			{at: 20 * time.Second, fault: true, wantStalled: stalled.ReasonResourceTypeNotWatched, wantNotWatched: true},
			{at: 30 * time.Second, wantStatus: true},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
				WithManifest(fixture.Namespace("team"), fixture.ConfigMap("team", "settings", nil)).Build()
			e := newEnv(t, work)
			var at time.Duration
			e.c.now = func() time.Time { return t0.Add(at) }
			var on bool
			tc.fault(e, &on)
			for _, s := range tc.steps {
				at, on = s.at, s.fault
				e.hub.ClearActions()
				e.dynamic.ClearActions()

				err := e.c.reconcile(context.Background(), e.work(t))

				var later *retryLater
				if s.wantRetry {
					require.ErrorAs(t, err, &later, "at %s", s.at)
					assert.Equal(t, s.wantWithin, later.within, "at %s", s.at)
				} else {
					assert.NoError(t, err, "at %s", s.at)
				}
				var statusPatches []string
				for _, w := range ct.Writes(e.hub.Actions()) {
					if w == "patch manifestworks/status "+fixture.Cluster+"/w" {
						statusPatches = append(statusPatches, w)
					}
				}
				assert.Equal(t, s.wantStatus, len(statusPatches) == 1, "at %s: one status patch or none: %v", s.at, statusPatches)
				assert.Equal(t, s.wantApplied, len(ct.Writes(e.dynamic.Actions())) > 0, "at %s", s.at)
				got := e.work(t)
				assert.Equal(t, s.wantStalled, stalledReason(got), "at %s", s.at)
				if len(got.Status.ResourceStatus.Manifests) == 2 {
					inSync := apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[1].Conditions, ConditionInSync)
					require.NotNil(t, inSync)
					assert.Equal(t, s.wantNotWatched, inSync.Reason == InSyncReasonNotWatched, "at %s: %v", s.at, inSync)
				}
			}
		})
	}
}

func stalledReason(w *workv1.ManifestWork) string {
	c := apimeta.FindStatusCondition(w.Status.Conditions, stalled.ConditionType)
	if c == nil {
		return ""
	}
	if c.Status != metav1.ConditionTrue {
		return fmt.Sprintf("%s=%s", c.Reason, c.Status)
	}
	return c.Reason
}

// The Stalled condition and the manifest's InSync say what failed, in the
// API server's words, and what to do.
func TestStalledMessages(t *testing.T) {
	t0 := time.Unix(10000, 0)
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(3).WithFinalizer().
		WithManifest(fixture.Namespace("team"), fixture.ConfigMap("team", "settings", nil)).Build()
	notListed := apierrors.NewForbidden(configMaps.GroupResource(), "", errors.New(`User "agent" cannot list resource "configmaps"`))
	cases := []struct {
		name          string
		setup         func(e *env)
		wantMessage   string
		wantManifest1 string // InSync message of the ConfigMap; "" when not looked at
	}{{
		name: "AppliedManifestWork refused",
		setup: func(e *env) {
			e.spoke.PrependReactor("create", "appliedmanifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: workv1.GroupName, Resource: "appliedmanifestworks"},
					"x", errors.New("no"))
			})
		},
		wantMessage: `Nothing of the work is applied: cannot create AppliedManifestWork ` + fixture.HubHash + `-w: ` +
			`appliedmanifestworks.work.open-cluster-management.io "x" is forbidden: no; the agent retries with backoff, at least every minute`,
	}, {
		name: "managed cluster down",
		setup: func(e *env) {
			e.c.Cluster = reachability(func() (time.Time, string, bool) { return t0, "dial tcp: connection refused", true })
		},
		wantMessage: "The managed cluster's API server has not answered the agent since 1970-01-01T02:46:40Z (dial tcp: connection refused); " +
			"the work is applied as soon as it answers again",
	}, {
		name: "ConfigMaps not watched",
		setup: func(e *env) {
			e.c.Objects = failingWatches{trackerCache{e.dynamic}, func(u objectwatch.Use) (objectwatch.WatchFailure, bool) {
				return objectwatch.WatchFailure{Err: notListed, Since: t0}, u.Resource == configMaps
			}}
		},
		wantMessage: `The agent cannot list or watch configmaps: configmaps is forbidden: User "agent" cannot list resource "configmaps"; ` +
			"changes made to their objects on the managed cluster are not seen: grant the agent list and watch on them",
		wantManifest1: `The agent cannot list or watch configmaps, so changes made to the object are not seen: ` +
			`configmaps is forbidden: User "agent" cannot list resource "configmaps"`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, work)
			e.c.now = func() time.Time { return t0.Add(stalled.Threshold) }
			e.c.mem.of(cache.NewObjectName(fixture.Cluster, "w")).appliedUnavailable(t0)
			tc.setup(e)
			_ = e.c.reconcile(context.Background(), work)
			got := e.work(t)
			cond := apimeta.FindStatusCondition(got.Status.Conditions, stalled.ConditionType)
			require.NotNil(t, cond)
			assert.Equal(t, tc.wantMessage, cond.Message)
			assert.Equal(t, int64(3), cond.ObservedGeneration)
			if tc.wantManifest1 != "" {
				inSync := apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[1].Conditions, ConditionInSync)
				require.NotNil(t, inSync)
				assert.Equal(t, metav1.ConditionUnknown, inSync.Status)
				assert.Equal(t, tc.wantManifest1, inSync.Message)
				workInSync := apimeta.FindStatusCondition(got.Status.Conditions, ConditionInSync)
				require.NotNil(t, workInSync)
				assert.Equal(t, metav1.ConditionUnknown, workInSync.Status)
			}
		})
	}
}

// Objects of one type are watched namespace by namespace: a watch refused
// in one namespace marks the manifests there only, and the Stalled message
// names the type once however many namespaces refuse it.
func TestWatchRefusedInSomeNamespaces(t *testing.T) {
	t0 := time.Unix(10000, 0)
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(3).WithFinalizer().
		WithManifest(fixture.ConfigMap("a", "one", nil), fixture.ConfigMap("b", "two", nil), fixture.ConfigMap("c", "three", nil)).Build()
	notListed := apierrors.NewForbidden(configMaps.GroupResource(), "", errors.New(`User "agent" cannot list resource "configmaps"`))
	e := newEnv(t, work)
	e.c.now = func() time.Time { return t0.Add(stalled.Threshold) }
	e.c.Objects = failingWatches{trackerCache{e.dynamic}, func(u objectwatch.Use) (objectwatch.WatchFailure, bool) {
		return objectwatch.WatchFailure{Err: notListed, Since: t0}, u.Namespace != "b"
	}}
	_ = e.c.reconcile(context.Background(), work)
	got := e.work(t)
	cond := apimeta.FindStatusCondition(got.Status.Conditions, stalled.ConditionType)
	require.NotNil(t, cond)
	assert.Equal(t, `The agent cannot list or watch configmaps: configmaps is forbidden: User "agent" cannot list resource "configmaps"; `+
		"changes made to their objects on the managed cluster are not seen: grant the agent list and watch on them", cond.Message)
	for i, want := range []metav1.ConditionStatus{metav1.ConditionUnknown, metav1.ConditionTrue, metav1.ConditionUnknown} {
		inSync := apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[i].Conditions, ConditionInSync)
		require.NotNil(t, inSync, "manifest %d", i)
		assert.Equal(t, want, inSync.Status, "manifest %d", i)
	}
}

// A failure not reported yet is looked at again when it is due to be, even
// when the work's backoff would wait longer; one reported already leaves the
// backoff alone.
func TestSyncRetriesWhenAFailureIsDueToBeReported(t *testing.T) {
	t0 := time.Unix(10000, 0)
	key := fixture.Cluster + "/w"
	cases := []struct {
		name      string
		retries   int // of the work already
		down      time.Duration
		wantDelay time.Duration
	}{
		{"due before the backoff's next retry", 5, 9*time.Second + 800*time.Millisecond, 200 * time.Millisecond},
		{"due after it", 0, time.Second, retryFirst},
		{"reported already", 5, time.Minute, 16 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, fixture.NewWork(fixture.Cluster, "w").WithFinalizer().WithManifest(fixture.ConfigMap("team", "a", nil)).Build())
			e.c.now = func() time.Time { return t0.Add(tc.down) }
			e.c.Cluster = reachability(func() (time.Time, string, bool) { return t0, "refused", true })
			for range tc.retries {
				e.c.mem.of(cache.NewObjectName(fixture.Cluster, "w")).backoff()
			}
			syncCtx := ct.NewSyncContext(key)
			require.NoError(t, e.c.sync(context.Background(), syncCtx))
			delay, ok := syncCtx.Q.Delay(key)
			require.True(t, ok)
			assert.Equal(t, tc.wantDelay, delay)
		})
	}
}

// An outage that lasts has every work reconciled at once, also those
// waiting for a retry, for their Stalled condition.
func TestReconcileAllOnALastingOutage(t *testing.T) {
	e := newEnv(t, fixture.NewWork(fixture.Cluster, "w").Build())
	require.NoError(t, e.works.Add(fixture.NewWork(fixture.Cluster, "other").Build()))
	syncCtx := ct.NewSyncContext("")
	e.c.SyncContext = syncCtx
	e.c.mem.of(cache.NewObjectName(fixture.Cluster, "w")).schedule(retry{at: time.Now().Add(time.Minute)})

	e.c.ReconcileAll()

	assert.ElementsMatch(t, []any{fixture.Cluster + "/w", fixture.Cluster + "/other"}, syncCtx.Q.Added)
	_, pending := e.c.retryPending(cache.NewObjectName(fixture.Cluster, "w"), 0)
	assert.False(t, pending, "the scheduled retry does not hold it back")
}

// A manifest that could not be prepared (here, one without a name) is not
// watched for, even when its type is watched for another manifest and that
// watch is refused: its InSync says it was not compared, and its Applied
// says why.
func TestUnpreparedManifestIsNotMarkedNotWatched(t *testing.T) {
	t0 := time.Unix(10000, 0)
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(3).WithFinalizer().
		WithManifest(fixture.ConfigMap("a", "one", nil)).
		WithRawManifest(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"a"}}`).Build()
	notListed := apierrors.NewForbidden(configMaps.GroupResource(), "", errors.New(`User "agent" cannot list resource "configmaps"`))
	e := newEnv(t, work)
	e.c.now = func() time.Time { return t0.Add(stalled.Threshold) }
	e.c.Objects = failingWatches{trackerCache{e.dynamic}, func(objectwatch.Use) (objectwatch.WatchFailure, bool) {
		return objectwatch.WatchFailure{Err: notListed, Since: t0}, true
	}}
	_ = e.c.reconcile(context.Background(), work)
	manifests := e.work(t).Status.ResourceStatus.Manifests
	require.Len(t, manifests, 2)
	for i, want := range []string{InSyncReasonNotWatched, InSyncReasonNotCompared} {
		inSync := apimeta.FindStatusCondition(manifests[i].Conditions, ConditionInSync)
		require.NotNil(t, inSync, "manifest %d", i)
		assert.Equal(t, want, inSync.Reason, "manifest %d", i)
	}
	assert.False(t, apimeta.IsStatusConditionTrue(manifests[1].Conditions, workv1.ManifestApplied))
}
