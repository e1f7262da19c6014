package finalize

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

func TestWorkReconcile(t *testing.T) {
	workStatus := "patch manifestworks/status " + fixture.Cluster + "/web"
	workFinalizer := "patch manifestworks " + fixture.Cluster + "/web"
	deleteApplied := "delete appliedmanifestworks " + fixture.AppliedName
	withDeleting := func(w *workv1.ManifestWork, msg string) *workv1.ManifestWork {
		w.Status.Conditions = append(w.Status.Conditions, deletingCondition(w, msg))
		return w
	}
	cases := []struct {
		name          string
		f             given
		wantWait      bool
		wantHub       []string
		wantSpoke     []string
		wantFinalizer bool   // the work still has our finalizer afterwards
		wantMessage   string // of the Deleting condition; "" for none
	}{{
		name:          "a work that is not deleted needs nothing",
		f:             given{work: webWork(), applied: fixture.WebApplied()},
		wantFinalizer: true,
	}, {
		name: "a deleted work without our finalizer needs nothing",
		f: given{work: func() *workv1.ManifestWork {
			w := deleting(webWork())
			w.Finalizers = []string{"example.com/other"}
			return w
		}(), applied: fixture.WebApplied()},
	}, {
		name:     "marks the work Deleting and deletes its AppliedManifestWork",
		f:        given{work: deleting(webWork()), applied: fixture.WebApplied()},
		wantWait: true, wantHub: []string{workStatus}, wantSpoke: []string{deleteApplied}, wantFinalizer: true,
		wantMessage: MessageDeleting + "; waiting for AppliedManifestWork " + fixture.AppliedName + " to be deleted",
	}, {
		name: "waits for an AppliedManifestWork being finalized, without writes",
		f: given{
			work:    withDeleting(deleting(webWork()), "waiting for deployments apps/v1 default/web to be deleted"),
			applied: deleting(fixture.WebApplied()),
		},
		wantWait: true, wantFinalizer: true,
		wantMessage: MessageDeleting + "; waiting for deployments apps/v1 default/web to be deleted",
	}, {
		name:     "asks the API about an AppliedManifestWork the cache has not seen yet",
		f:        given{work: deleting(webWork()), inAPIOnly: labelled(fixture.WebApplied())},
		wantWait: true, wantHub: []string{workStatus}, wantSpoke: []string{deleteApplied}, wantFinalizer: true,
		wantMessage: MessageDeleting + "; waiting for AppliedManifestWork " + fixture.AppliedName + " to be deleted",
	}, {
		// Written by OCM's agent: labelled, the applied controller finalizes it.
		name:     "labels an AppliedManifestWork the cache cannot see before deleting it",
		f:        given{work: deleting(webWork()), inAPIOnly: fixture.WebApplied()},
		wantWait: true, wantHub: []string{workStatus}, wantFinalizer: true,
		wantSpoke:   []string{"patch appliedmanifestworks " + fixture.AppliedName, deleteApplied},
		wantMessage: MessageDeleting + "; waiting for AppliedManifestWork " + fixture.AppliedName + " to be deleted",
	}, {
		name: "gives an AppliedManifestWork without finalizer ours before deleting it",
		f: given{work: deleting(webWork()), applied: func() *workv1.AppliedManifestWork {
			a := fixture.WebApplied()
			a.Finalizers = nil
			return a
		}()},
		wantWait: true, wantHub: []string{workStatus}, wantFinalizer: true,
		wantSpoke:   []string{"patch appliedmanifestworks " + fixture.AppliedName, deleteApplied},
		wantMessage: MessageDeleting + "; waiting for AppliedManifestWork " + fixture.AppliedName + " to be deleted",
	}, {
		name:    "removes the finalizer once the AppliedManifestWork is gone",
		f:       given{work: withDeleting(deleting(webWork()), "waiting for something")},
		wantHub: []string{workFinalizer}, wantMessage: MessageDeleting + "; waiting for something",
	}, {
		name:        "sets the Deleting condition even when there was nothing to wait for",
		f:           given{work: deleting(webWork())},
		wantHub:     []string{workStatus, workFinalizer},
		wantMessage: MessageDeleting + "; waiting for AppliedManifestWork " + fixture.AppliedName + " to be deleted",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.f)
			wait, err := e.work.reconcile(context.Background(), tc.f.work)
			require.NoError(t, err)
			assert.Equal(t, tc.wantWait, wait > 0, "wait %s", wait)
			assert.Equal(t, tc.wantHub, e.hubWrites(), "hub writes")
			assert.Equal(t, tc.wantSpoke, e.spokeWrites(), "managed cluster writes")

			w := e.hubWork(t)
			if w == nil {
				assert.False(t, tc.wantFinalizer, "work is gone")
				return
			}
			assert.Equal(t, tc.wantFinalizer, slices.Contains(w.Finalizers, workv1.ManifestWorkFinalizer), "finalizers %v", w.Finalizers)
			if tc.wantMessage == "" {
				assert.Nil(t, e.deletingCond(t))
				return
			}
			cond := e.deletingCond(t)
			require.NotNil(t, cond)
			assert.Equal(t, metav1.ConditionTrue, cond.Status)
			assert.Equal(t, ReasonWorkDeleting, cond.Reason)
			assert.Equal(t, tc.wantMessage, cond.Message)
		})
	}
}

// The AppliedManifestWork is deleted only if it is the one that was read,
// and in the background, so that the garbage collector leaves the applied
// objects to the applied controller.
func TestWorkDeletesAppliedWorkConditionally(t *testing.T) {
	e := newEnv(t, given{work: deleting(webWork()), applied: fixture.WebApplied()})
	_, err := e.work.reconcile(context.Background(), deleting(webWork()))
	require.NoError(t, err)

	var del *clienttesting.DeleteActionImpl
	for _, a := range e.spoke.Actions() {
		if d, ok := a.(clienttesting.DeleteActionImpl); ok {
			del = &d
		}
	}
	require.NotNil(t, del)
	opts := del.GetDeleteOptions()
	require.NotNil(t, opts.Preconditions)
	assert.Equal(t, types.UID(fixture.AppliedUID), *opts.Preconditions.UID)
	require.NotNil(t, opts.PropagationPolicy)
	assert.Equal(t, metav1.DeletePropagationBackground, *opts.PropagationPolicy)
}

// Removing our finalizer keeps the others.
func TestWorkRemovesOnlyOurFinalizer(t *testing.T) {
	work := deleting(webWork())
	work.Finalizers = []string{"example.com/first", workv1.ManifestWorkFinalizer, "example.com/last"}
	e := newEnv(t, given{work: work})
	_, err := e.work.reconcile(context.Background(), work)
	require.NoError(t, err)
	assert.Equal(t, []string{"example.com/first", "example.com/last"}, e.hubWork(t).Finalizers)
}

func TestWorkSyncRequeuesWhileWaiting(t *testing.T) {
	e := newEnv(t, given{work: deleting(webWork()), applied: deleting(fixture.WebApplied())})
	syncCtx := ct.NewSyncContext(fixture.Cluster + "/web")
	require.NoError(t, e.work.sync(context.Background(), syncCtx))
	assert.Equal(t, []any{fixture.Cluster + "/web"}, syncCtx.Q.Added)

	other := ct.NewSyncContext("elsewhere/web")
	require.NoError(t, e.work.sync(context.Background(), other))
	assert.Empty(t, other.Q.Added, "a key of another namespace is ignored")
}

// Once the finalizer is removed, the cached copy that still carries it is
// nothing to act on: no second read of the AppliedManifestWork, no second
// patch of the work.
func TestWorkReleasedIsNotFinalizedTwice(t *testing.T) {
	work := deleting(webWork())
	work.Finalizers = append(work.Finalizers, "example.com/other") // keeps it on the hub
	e := newEnv(t, given{work: work})
	ct.VersionPatches(e.hub)
	syncCtx := ct.NewSyncContext(fixture.Cluster + "/web")
	require.NoError(t, e.work.sync(context.Background(), syncCtx))
	assert.NotContains(t, e.hubWork(t).Finalizers, workv1.ManifestWorkFinalizer)

	e.clearActions()
	require.NoError(t, e.work.sync(context.Background(), syncCtx), "the lister still has the finalizer")
	assert.Empty(t, e.hubWrites())
	assert.Empty(t, e.spoke.Actions(), "no read of the AppliedManifestWork either")
}

// labelled gives an AppliedManifestWork this cluster's label.
func labelled(a *workv1.AppliedManifestWork) *workv1.AppliedManifestWork {
	a.Labels = map[string]string{appliedwork.ClusterLabel: fixture.Cluster}
	return a
}
