package finalize

import (
	"context"
	"errors"
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

	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// A deletion step that keeps failing is named in the work's Deleting
// condition once it has failed for ten seconds, not before: the deletion
// waits for it. Once it works, the deletion goes on.
func TestDeletionFailuresThatLastAreNamed(t *testing.T) {
	t0 := time.Unix(10000, 0)
	waitingForApplied := MessageDeleting + "; waiting for AppliedManifestWork " + fixture.AppliedName + " to be deleted"
	type step struct {
		at    time.Duration
		fault bool
		// wantMessage is the message of the work's Deleting condition;
		// "" when it has none.
		wantMessage string
	}
	cases := []struct {
		name string
		// setup installs the fault, there while on; run runs one pass.
		setup func(e *env, on *bool)
		run   func(t *testing.T, e *env) error
		steps []step
	}{{
		name:  "the AppliedManifestWork cannot be deleted",
		setup: func(e *env, on *bool) { refuse(&e.spoke.Fake, "delete", "appliedmanifestworks", on) },
		run: func(t *testing.T, e *env) error {
			e.work.works = listerOf(t, e.hubWork(t))
			_, err := e.work.reconcile(context.Background(), e.hubWork(t))
			return err
		},
		steps: []step{
			{at: 0, fault: true, wantMessage: waitingForApplied},
			{at: 9 * time.Second, fault: true, wantMessage: waitingForApplied},
			{at: 10 * time.Second, fault: true, wantMessage: waitingForApplied + "; cannot delete AppliedManifestWork " + fixture.AppliedName +
				": appliedmanifestworks \"x\" is forbidden: the agent may not"},
		},
	}, {
		name:  "an applied object cannot be deleted",
		setup: func(e *env, on *bool) { refuse(&e.metadata.Fake, "delete", "configmaps", on) },
		run: func(t *testing.T, e *env) error {
			e.applied.works = listerOf(t, e.hubWork(t))
			_, err := e.applied.reconcile(context.Background(), deleting(fixture.WebApplied(cmRes)))
			return err
		},
		steps: []step{
			{at: 0, fault: true, wantMessage: MessageDeleting + "; waiting for configmaps v1 default/cm to be deleted"},
			{at: 10 * time.Second, fault: true, wantMessage: MessageDeleting + "; waiting for configmaps v1 default/cm to be deleted; " +
				"deleting configmaps default/cm: configmaps \"x\" is forbidden: the agent may not"},
			{at: 11 * time.Second, wantMessage: MessageDeleting + "; waiting for configmaps v1 default/cm to be deleted"},
		},
	}, {
		name:  "the AppliedManifestWork's finalizer cannot be removed",
		setup: func(e *env, on *bool) { refuse(&e.spoke.Fake, "patch", "appliedmanifestworks", on) },
		run: func(t *testing.T, e *env) error {
			e.applied.works = listerOf(t, e.hubWork(t))
			_, err := e.applied.reconcile(context.Background(), deleting(fixture.WebApplied()))
			return err
		},
		steps: []step{
			{at: 0, fault: true},
			{at: 9 * time.Second, fault: true},
			{at: 10 * time.Second, fault: true, wantMessage: MessageDeleting + "; waiting for AppliedManifestWork " + fixture.AppliedName + " to be finalized; " +
				"cannot remove the finalizer of AppliedManifestWork " + fixture.AppliedName + ": appliedmanifestworks \"x\" is forbidden: the agent may not"},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, given{work: deleting(webWork()), applied: fixture.WebApplied(cmRes),
				objects: []*metav1.PartialObjectMetadata{cmObj()}})
			var at time.Duration
			now := func() time.Time { return t0.Add(at) }
			e.work.now, e.applied.now = now, now
			var on bool
			tc.setup(e, &on)
			for _, s := range tc.steps {
				at, on = s.at, s.fault
				err := tc.run(t, e)
				assert.Equal(t, s.fault, err != nil, "at %s: %v", s.at, err)
				cond := e.deletingCond(t)
				if s.wantMessage == "" {
					assert.Nil(t, cond, "at %s", s.at)
				} else {
					require.NotNil(t, cond, "at %s", s.at)
					assert.Equal(t, s.wantMessage, cond.Message, "at %s", s.at)
				}
				assert.Contains(t, e.hubWork(t).Finalizers, workv1.ManifestWorkFinalizer)
			}
		})
	}
}

// A work deleted while Stalled loses that condition when it is marked
// Deleting, in the same patch: applying it is over.
func TestDeletingRemovesStalled(t *testing.T) {
	work := deleting(webWork())
	work.Status.Conditions = []metav1.Condition{{Type: stalled.ConditionType, Status: metav1.ConditionTrue,
		Reason: stalled.ReasonManagedClusterUnreachable, Message: "down", LastTransitionTime: metav1.Now()}}
	e := newEnv(t, given{work: work, applied: fixture.WebApplied()})

	_, err := e.work.reconcile(context.Background(), work)
	require.NoError(t, err)
	got := e.hubWork(t)
	assert.Nil(t, apimeta.FindStatusCondition(got.Status.Conditions, stalled.ConditionType))
	assert.NotNil(t, apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkDeleting))
	assert.Equal(t, []string{"patch manifestworks/status " + fixture.Cluster + "/web"}, e.hubWrites(), "one patch")
}

// refuse has the fake answer verb on resource with Forbidden while *on.
func refuse(fake *clienttesting.Fake, verb, resource string, on *bool) {
	fake.PrependReactor(verb, resource, func(clienttesting.Action) (bool, runtime.Object, error) {
		return *on, nil, apierrors.NewForbidden(schema.GroupResource{Resource: resource}, "x", errors.New("the agent may not"))
	})
}
