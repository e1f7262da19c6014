package finalize

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

var (
	cmRes     = ct.Resource(ct.ConfigMaps, "default", "cm", "uid-cm")
	deployRes = ct.Resource(ct.Deployments, "default", "web", "uid-web")
	cmObj     = func() *metav1.PartialObjectMetadata {
		return ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef)
	}
	deployObj = func() *metav1.PartialObjectMetadata {
		return ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OurRef)
	}
)

// objectState is what a test expects of one applied object afterwards.
type objectState struct {
	gvr       schema.GroupVersionResource
	namespace string
	name      string
	gone      bool
	owners    []metav1.OwnerReference // when not gone
}

func TestAppliedReconcile(t *testing.T) {
	finalizerPatch := "patch appliedmanifestworks " + fixture.AppliedName
	cases := []struct {
		name          string
		f             given
		wantWait      bool
		wantErr       bool
		wantFinalizer bool // the AppliedManifestWork keeps its finalizer
		wantObjects   []string
		wantState     []objectState
		wantMessage   string // of the work's Deleting condition; "" for none
	}{{
		name:          "an AppliedManifestWork that is not deleted needs nothing",
		f:             given{work: webWork(), applied: fixture.WebApplied(cmRes), objects: []*metav1.PartialObjectMetadata{cmObj()}},
		wantFinalizer: true,
		wantState:     []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm", owners: []metav1.OwnerReference{fixture.OurRef}}},
	}, {
		name: "another hub's AppliedManifestWork is left to its agent",
		f: given{work: deleting(webWork()), applied: func() *workv1.AppliedManifestWork {
			a := deleting(fixture.WebApplied(cmRes))
			a.Name = "otherhub-web"
			return a
		}(), objects: []*metav1.PartialObjectMetadata{cmObj()}},
		wantFinalizer: true,
		wantState:     []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm", owners: []metav1.OwnerReference{fixture.OurRef}}},
	}, {
		// Agents of one hub for several clusters may share a managed
		// cluster; each sees only its own cluster's works and deleteOptions.
		name: "another agent's AppliedManifestWork of this hub, for a work elsewhere, is left to it",
		f: given{applied: deleting(fixture.NewApplied(fixture.HubHash, "web").AsStored(fixture.AppliedUID, "20").
			WithAgent("agent2").WithResources(cmRes).Build()), objects: []*metav1.PartialObjectMetadata{cmObj()}},
		wantFinalizer: true,
		wantState:     []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm", owners: []metav1.OwnerReference{fixture.OurRef}}},
	}, {
		name: "an AppliedManifestWork of this hub written under another agent ID, for a work of this cluster, is finalized",
		f: given{work: withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeOrphan),
			applied: deleting(fixture.NewApplied(fixture.HubHash, "web").AsStored(fixture.AppliedUID, "20").
				WithAgent("agent-before").WithResources(cmRes).Build()), objects: []*metav1.PartialObjectMetadata{cmObj()}},
		wantObjects: []string{"patch configmaps default/cm"},
		wantState:   []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm"}},
	}, {
		// After a hub switch, the agent's record for its old hub is finalized
		// here, in the foreground whatever a same-named work on the new hub
		// says about objects it does not apply: objects the new record shares
		// only lose the old reference.
		name: "this agent's record for another hub is finalized in the foreground",
		f: given{work: withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeOrphan), applied: func() *workv1.AppliedManifestWork {
			a := deleting(fixture.WebApplied(cmRes))
			a.Name, a.Spec.HubHash, a.Spec.AgentID = "otherhub-web", "otherhub", "agent1"
			return a
		}(), objects: []*metav1.PartialObjectMetadata{cmObj()}},
		wantWait: true, wantFinalizer: true,
		wantObjects: []string{"delete configmaps default/cm"},
		wantState:   []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm", gone: true}},
	}, {
		// The new hub's work never put its reference on what it orphans.
		name: "this agent's record for another hub leaves what the same-named work of this hub applies and orphans",
		f: given{work: withApplied(withDeleteOption(webWork(), workv1.DeletePropagationPolicyTypeOrphan), cmRes), applied: func() *workv1.AppliedManifestWork {
			a := deleting(fixture.WebApplied(cmRes))
			a.Name, a.Spec.HubHash, a.Spec.AgentID = "otherhub-web", "otherhub", "agent1"
			return a
		}(), objects: []*metav1.PartialObjectMetadata{cmObj()}},
		wantObjects: []string{"patch configmaps default/cm"},
		wantState:   []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm"}},
	}, {
		name: "Foreground (the default) deletes every applied resource and waits",
		f: given{work: deleting(webWork()), applied: deleting(fixture.WebApplied(cmRes, deployRes)),
			objects: []*metav1.PartialObjectMetadata{cmObj(), deployObj()}},
		wantWait: true, wantFinalizer: true,
		wantObjects: []string{"delete configmaps default/cm", "delete deployments default/web"},
		wantState: []objectState{
			{gvr: ct.ConfigMaps, namespace: "default", name: "cm", gone: true},
			{gvr: ct.Deployments, namespace: "default", name: "web", gone: true},
		},
		wantMessage: MessageDeleting + "; waiting for configmaps v1 default/cm, deployments apps/v1 default/web to be deleted",
	}, {
		name: "a work that is gone is deleted in the foreground",
		f: given{applied: deleting(fixture.WebApplied(cmRes)),
			objects: []*metav1.PartialObjectMetadata{cmObj()}},
		wantWait: true, wantFinalizer: true,
		wantObjects: []string{"delete configmaps default/cm"},
		wantState:   []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm", gone: true}},
	}, {
		// An evicted work is gone from the hub, and its deleteOption with
		// it: what it orphaned is told by the owner reference it never got.
		name: "a work that is gone leaves what it orphaned, without our owner reference, in place",
		f: given{applied: deleting(fixture.WebApplied(cmRes, deployRes)),
			objects: []*metav1.PartialObjectMetadata{ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm"), deployObj()}},
		wantWait: true, wantFinalizer: true,
		wantObjects: []string{"delete deployments default/web"},
		wantState: []objectState{
			{gvr: ct.ConfigMaps, namespace: "default", name: "cm"},
			{gvr: ct.Deployments, namespace: "default", name: "web", gone: true},
		},
	}, {
		name: "Orphan leaves an object without our owner reference untouched",
		f: given{work: withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeOrphan),
			applied: deleting(fixture.WebApplied(cmRes)),
			objects: []*metav1.PartialObjectMetadata{ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OtherRef)}},
		wantState: []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm", owners: []metav1.OwnerReference{fixture.OtherRef}}},
	}, {
		name: "removes the finalizer once every deleted object is gone",
		f:    given{work: deleting(webWork()), applied: deleting(fixture.WebApplied(cmRes, deployRes))},
	}, {
		name: "Orphan removes our owner reference from every resource, deletes nothing, and lets go",
		f: given{work: withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeOrphan),
			applied: deleting(fixture.WebApplied(cmRes, deployRes)),
			objects: []*metav1.PartialObjectMetadata{cmObj(), deployObj()}},
		wantObjects: []string{"patch configmaps default/cm", "patch deployments default/web"},
		wantState: []objectState{
			{gvr: ct.ConfigMaps, namespace: "default", name: "cm"},
			{gvr: ct.Deployments, namespace: "default", name: "web"},
		},
	}, {
		name: "SelectivelyOrphan orphans what the rules name and deletes the rest",
		f: given{work: withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeSelectivelyOrphan,
			workv1.OrphaningRule{Resource: "configmaps", Namespace: "default", Name: "cm"}),
			applied: deleting(fixture.WebApplied(cmRes, deployRes)),
			objects: []*metav1.PartialObjectMetadata{cmObj(), deployObj()}},
		wantWait: true, wantFinalizer: true,
		wantObjects: []string{"patch configmaps default/cm", "delete deployments default/web"},
		wantState: []objectState{
			{gvr: ct.ConfigMaps, namespace: "default", name: "cm"},
			{gvr: ct.Deployments, namespace: "default", name: "web", gone: true},
		},
		wantMessage: MessageDeleting + "; waiting for deployments apps/v1 default/web to be deleted",
	}, {
		name: "SelectivelyOrphan rules match on group too",
		f: given{work: withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeSelectivelyOrphan,
			workv1.OrphaningRule{Group: "extensions", Resource: "deployments", Namespace: "default", Name: "web"}),
			applied: deleting(fixture.WebApplied(deployRes)),
			objects: []*metav1.PartialObjectMetadata{deployObj()}},
		wantWait: true, wantFinalizer: true,
		wantObjects: []string{"delete deployments default/web"},
		wantState:   []objectState{{gvr: ct.Deployments, namespace: "default", name: "web", gone: true}},
		wantMessage: MessageDeleting + "; waiting for deployments apps/v1 default/web to be deleted",
	}, {
		// Unlike manifestConfigs, orphaning rules name objects exactly, as
		// in OCM's agent: "*" is a name like any other.
		name: "SelectivelyOrphan rules are no globs",
		f: given{work: withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeSelectivelyOrphan,
			workv1.OrphaningRule{Group: "apps", Resource: "deployments", Namespace: "*", Name: "*"},
			workv1.OrphaningRule{Group: "apps", Resource: "deployments", Namespace: "default", Name: "w*"}),
			applied: deleting(fixture.WebApplied(deployRes)),
			objects: []*metav1.PartialObjectMetadata{deployObj()}},
		wantWait: true, wantFinalizer: true,
		wantObjects: []string{"delete deployments default/web"},
		wantState:   []objectState{{gvr: ct.Deployments, namespace: "default", name: "web", gone: true}},
		wantMessage: MessageDeleting + "; waiting for deployments apps/v1 default/web to be deleted",
	}, {
		name: "a terminating object keeps the finalizer, and the Deleting message names it",
		f: given{work: deleting(webWork()), applied: deleting(fixture.WebApplied(cmRes, deployRes)),
			objects: []*metav1.PartialObjectMetadata{ct.Terminating(deployObj())}},
		wantWait: true, wantFinalizer: true,
		wantState:   []objectState{{gvr: ct.Deployments, namespace: "default", name: "web", owners: []metav1.OwnerReference{fixture.OurRef}}},
		wantMessage: MessageDeleting + "; waiting for deployments apps/v1 default/web to be deleted",
	}, {
		name: "a shared object only loses our owner reference",
		f: given{work: deleting(webWork()), applied: deleting(fixture.WebApplied(deployRes)),
			objects: []*metav1.PartialObjectMetadata{ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OtherRef, fixture.OurRef)}},
		wantObjects: []string{"patch deployments default/web"},
		wantState:   []objectState{{gvr: ct.Deployments, namespace: "default", name: "web", owners: []metav1.OwnerReference{fixture.OtherRef}}},
	}, {
		name: "a recreated object (another UID) is never deleted",
		f: given{work: deleting(webWork()), applied: deleting(fixture.WebApplied(deployRes)),
			objects: []*metav1.PartialObjectMetadata{ct.Object(ct.Deployments, "default", "web", "uid-new")}},
		wantState: []objectState{{gvr: ct.Deployments, namespace: "default", name: "web"}},
	}, {
		name: "an object applied but not recorded yet is orphaned by our owner reference",
		f: given{work: withApplied(withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeOrphan), cmRes),
			applied: deleting(fixture.WebApplied()),
			objects: []*metav1.PartialObjectMetadata{ct.Object(ct.ConfigMaps, "default", "cm", "uid-fresh", fixture.OurRef)}},
		wantObjects: []string{"patch configmaps default/cm"},
		wantState:   []objectState{{gvr: ct.ConfigMaps, namespace: "default", name: "cm"}},
	}, {
		name: "an AppliedManifestWork deleted on its own leaves the work's conditions alone",
		f: given{work: webWork(), applied: deleting(fixture.WebApplied(deployRes)),
			objects: []*metav1.PartialObjectMetadata{ct.Terminating(deployObj())}},
		wantWait: true, wantFinalizer: true,
		wantState: []objectState{{gvr: ct.Deployments, namespace: "default", name: "web", owners: []metav1.OwnerReference{fixture.OurRef}}},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.f)
			wait, err := e.applied.reconcile(context.Background(), tc.f.applied)
			if tc.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.wantWait, wait > 0, "wait %s", wait)
			assert.Equal(t, tc.wantObjects, e.objectWrites(), "writes to applied objects")
			for _, want := range tc.wantState {
				got := e.object(t, want.gvr, want.namespace, want.name)
				if want.gone {
					assert.Nil(t, got, "%s %s must be gone", want.gvr.Resource, want.name)
					continue
				}
				if !assert.NotNil(t, got, "%s %s must stay", want.gvr.Resource, want.name) {
					continue
				}
				if want.owners == nil {
					assert.Empty(t, got.OwnerReferences, "%s %s owners", want.gvr.Resource, want.name)
				} else {
					assert.Equal(t, want.owners, got.OwnerReferences, "%s %s owners", want.gvr.Resource, want.name)
				}
			}

			applied, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), tc.f.applied.Name, metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, tc.wantFinalizer, slices.Contains(applied.Finalizers, workv1.AppliedManifestWorkFinalizer), "finalizers %v", applied.Finalizers)
			if tc.wantFinalizer {
				assert.NotContains(t, e.spokeWrites(), finalizerPatch)
			}
			if tc.f.work == nil {
				return
			}
			cond := e.deletingCond(t)
			if tc.wantMessage == "" {
				assert.Nil(t, cond)
				return
			}
			require.NotNil(t, cond)
			assert.Equal(t, tc.wantMessage, cond.Message)
			assert.Equal(t, ReasonWorkDeleting, cond.Reason)
		})
	}
}

// Objects deleted this pass are looked at again soon; a wait on objects
// that were already terminating polls more slowly. Neither writes anything
// while nothing changes.
func TestAppliedWaitsAndThenLetsGo(t *testing.T) {
	work := deleting(webWork())
	applied := deleting(fixture.WebApplied(cmRes, deployRes))
	e := newEnv(t, given{work: work, applied: applied,
		objects: []*metav1.PartialObjectMetadata{cmObj(), ct.Terminating(deployObj())}})

	wait, err := e.applied.reconcile(context.Background(), applied)
	require.NoError(t, err)
	assert.LessOrEqual(t, wait, 2*settleInterval, "just deleted: look again soon")
	assert.Equal(t, []string{"delete configmaps default/cm"}, e.objectWrites())
	assert.Equal(t, MessageDeleting+"; waiting for configmaps v1 default/cm, deployments apps/v1 default/web to be deleted", e.deletingCond(t).Message)

	// The config map is gone now; the deployment is still held.
	e.clearActions()
	e.applied.works = listerOf(t, e.hubWork(t))
	wait, err = e.applied.reconcile(context.Background(), applied)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, wait, pollInterval)
	assert.Empty(t, e.objectWrites())
	assert.Equal(t, []string{"patch manifestworks/status " + fixture.Cluster + "/web"}, e.hubWrites(), "message now names only the deployment")
	assert.Equal(t, MessageDeleting+"; waiting for deployments apps/v1 default/web to be deleted", e.deletingCond(t).Message)

	// Nothing changed: no writes at all.
	e.clearActions()
	e.applied.works = listerOf(t, e.hubWork(t))
	_, err = e.applied.reconcile(context.Background(), applied)
	require.NoError(t, err)
	assert.Empty(t, e.hubWrites())
	assert.Empty(t, e.spokeWrites())
	assert.Empty(t, e.objectWrites())

	// The deployment's finalizer is released and it goes.
	require.NoError(t, e.metadata.Tracker().Delete(ct.Deployments, "default", "web"))
	e.clearActions()
	wait, err = e.applied.reconcile(context.Background(), applied)
	require.NoError(t, err)
	assert.Zero(t, wait)
	assert.Equal(t, []string{"patch appliedmanifestworks " + fixture.AppliedName}, e.spokeWrites())
	assert.NotContains(t, e.spokeApplied(t).Finalizers, workv1.AppliedManifestWorkFinalizer)
}

// A resource that cannot be cleaned up keeps the finalizer; the others are
// still cleaned, and the error makes the queue retry.
func TestAppliedFailureKeepsTheFinalizer(t *testing.T) {
	applied := deleting(fixture.WebApplied(cmRes, deployRes))
	e := newEnv(t, given{work: withDeleteOption(deleting(webWork()), workv1.DeletePropagationPolicyTypeOrphan), applied: applied,
		objects: []*metav1.PartialObjectMetadata{cmObj(), deployObj()}})
	e.metadata.PrependReactor("patch", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "cm", nil)
	})

	_, err := e.applied.reconcile(context.Background(), applied)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "removing owner reference from configmaps default/cm")
	assert.Empty(t, e.object(t, ct.Deployments, "default", "web").OwnerReferences, "the deployment was still released")
	assert.Empty(t, e.spokeWrites(), "finalizer kept")
}

// The finalizer patch keeps other finalizers and carries the resourceVersion.
func TestAppliedRemovesOnlyOurFinalizer(t *testing.T) {
	applied := deleting(fixture.WebApplied())
	applied.Finalizers = []string{"example.com/first", workv1.AppliedManifestWorkFinalizer}
	e := newEnv(t, given{applied: applied})
	wait, err := e.applied.reconcile(context.Background(), applied)
	require.NoError(t, err)
	assert.Zero(t, wait)
	assert.Equal(t, []string{"example.com/first"}, e.spokeApplied(t).Finalizers)
}

func TestAppliedQueueKeys(t *testing.T) {
	e := newEnv(t, given{})
	assert.Equal(t, []string{fixture.AppliedName}, e.applied.appliedKey(fixture.WebApplied()))
	other := fixture.WebApplied()
	other.Name = "otherhub-web"
	assert.Empty(t, e.applied.appliedKey(other))
}

func TestWaitingMessage(t *testing.T) {
	assert.Equal(t, "waiting for a to be deleted", waitingMessage([]string{"a"}))
	assert.Equal(t, "waiting for a, b, c, d, e and 2 more to be deleted",
		waitingMessage([]string{"a", "b", "c", "d", "e", "f", "g"}))
}

func TestJittered(t *testing.T) {
	for range 20 {
		d := jittered(time.Second)
		assert.GreaterOrEqual(t, d, time.Second)
		assert.LessOrEqual(t, d, 1500*time.Millisecond)
	}
}

// sync puts a waiting AppliedManifestWork back in the queue, and turns a
// conflict (the cache was behind a write) into a quiet retry.
func TestAppliedSyncRequeues(t *testing.T) {
	applied := deleting(fixture.WebApplied(deployRes))
	e := newEnv(t, given{work: deleting(webWork()), applied: applied,
		objects: []*metav1.PartialObjectMetadata{ct.Terminating(deployObj())}})
	syncCtx := ct.NewSyncContext(fixture.AppliedName)
	require.NoError(t, e.applied.sync(context.Background(), syncCtx))
	assert.Equal(t, []any{fixture.AppliedName}, syncCtx.Q.Added)
	require.Len(t, syncCtx.Q.After, 1)
	assert.GreaterOrEqual(t, syncCtx.Q.After[0], pollInterval)

	e.hub.PrependReactor("patch", "manifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "manifestworks"}, "web", nil)
	})
	e.applied.works = listerOf(t, withDeleteOption(deleting(webWork()), ""))
	require.NoError(t, e.applied.sync(context.Background(), syncCtx), "a conflict is not reported")
	require.Len(t, syncCtx.Q.After, 2)
	assert.Less(t, syncCtx.Q.After[1], pollInterval)
}

func TestAppliedSyncIgnoresWhatIsGone(t *testing.T) {
	e := newEnv(t, given{})
	syncCtx := ct.NewSyncContext(fixture.AppliedName)
	require.NoError(t, e.applied.sync(context.Background(), syncCtx))
	assert.Empty(t, syncCtx.Q.Added)
}

// The agent deletes what a deleted work applied as itself, as OCM's agent
// does: an executor that lost its rights since the apply (here it has none)
// holds nothing back, and the work is released.
func TestAppliedDeletesAsTheAgent(t *testing.T) {
	work := deleting(webWork())
	work.Spec.Executor = &workv1.ManifestWorkExecutor{Subject: workv1.ManifestWorkExecutorSubject{
		Type: workv1.ExecutorSubjectTypeServiceAccount, ServiceAccount: &workv1.ManifestWorkSubjectServiceAccount{Namespace: "default", Name: "executor1"}}}
	applied := deleting(fixture.WebApplied(cmRes, deployRes))
	e := newEnv(t, given{work: work, applied: applied, objects: []*metav1.PartialObjectMetadata{cmObj(), deployObj()}})

	_, err := e.applied.reconcile(context.Background(), applied)
	require.NoError(t, err)
	assert.Equal(t, []string{"delete configmaps default/cm", "delete deployments default/web"}, e.objectWrites())

	e.clearActions()
	_, err = e.applied.reconcile(context.Background(), applied)
	require.NoError(t, err)
	assert.Len(t, e.spokeWrites(), 1, "both gone: the finalizer goes")
}
