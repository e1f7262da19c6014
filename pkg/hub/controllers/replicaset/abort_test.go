package replicaset

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// on is a work of version v that carries v's hash label, as the controller
// writes it.
func on(t *testing.T, w *workv1.ManifestWork, v string) *workv1.ManifestWork {
	w.Labels[revision.HashLabel] = hashOf(t, v)
	return labelled(w)
}

// abortSet is the replica set at version v, rolled out Progressive two at
// a time with no failure allowed (cfg adds to that), with annotations.
func abortSet(v string, cfg workv1alpha1.RolloutConfig, annotations map[string]string) *workv1alpha1.ManifestWorkReplicaSet {
	rs := revisionSet(v, annotations)
	rs.Spec.PlacementRefs[0].RolloutStrategy = progressive(intstr.FromInt32(2), cfg)
	return rs
}

// runs maps each cluster with a work to "<version>@<hash label's version>".
func (h *harness) runs() map[string]string {
	byHash := map[string]string{}
	for _, v := range []string{"1", "2", "3"} {
		byHash[hashOf(h.t, v)] = v
	}
	out := map[string]string{}
	for _, w := range h.c.labelledWorks(replicaSet(workv1alpha1.RolloutStrategy{})) {
		for _, v := range []string{"1", "2", "3"} {
			if sameSpec(w.Spec, template(v)) {
				out[w.Namespace] = v + "@" + byHash[w.Labels[revision.HashLabel]]
			}
		}
	}
	return out
}

func abortAnnotations(onFailure string, more ...string) map[string]string {
	a := map[string]string{}
	if onFailure != "" {
		a[OnFailureAnnotation] = onFailure
	}
	for i := 0; i+1 < len(more); i += 2 {
		a[more[i]] = more[i+1]
	}
	return a
}

// Each case starts from revision 1 (complete before, the stable one) and
// revision 2 (the spec's) recorded (held: aborted, as a restarted
// controller finds it), c1 on revision 2 and failing, c2 on
// revision 2 and succeeded, c3 still on revision 1, unless it says
// otherwise, and runs one sync.
func TestAbort(t *testing.T) {
	failed := func(t *testing.T) *workv1.ManifestWork { return on(t, degradedWork("c1"), "2") }
	failedAt2 := func(t *testing.T) *workv1.ManifestWork {
		w := failed(t)
		w.Spec = template("2")
		return w
	}
	// allOn1: every cluster on revision 1 (after going back).
	allOn1 := func(t *testing.T) []runtime.Object {
		return []runtime.Object{on(t, succeeded(work("c1", rsName, "1")), "1"), on(t, succeeded(work("c2", rsName, "1")), "1"),
			on(t, succeeded(work("c3", rsName, "1")), "1")}
	}
	// stoppedAt2: c1 failed on revision 2, c2 succeeded on it, c3 waits on 1.
	stoppedAt2 := func(t *testing.T) []runtime.Object {
		return []runtime.Object{failedAt2(t), on(t, succeeded(work("c2", rsName, "2")), "2"), on(t, succeeded(work("c3", rsName, "1")), "1")}
	}
	tests := []struct {
		name        string
		v           string // the spec's version
		cfg         workv1alpha1.RolloutConfig
		given       map[string]string // the replica set's annotations
		works       func(t *testing.T) []runtime.Object
		noRevisions bool // the controller records no revision
		held        bool // the status says that revision 2 was aborted (as a restarted controller finds it)
		// want
		runs      map[string]string
		aborted   string // status/reason of RolloutAborted; "" absent
		inMessage []string
		stopped   string // status/reason of RolloutStopped; "" absent
		events    []string
		after     map[string]string // its annotations after the sync
	}{{
		name:    "maxFailures reached: every cluster on revision 2 goes back to revision 1 at once",
		v:       "2",
		given:   abortAnnotations(OnFailureAbort, StableRevisionAnnotation, hashOf(t, "1")),
		works:   stoppedAt2,
		runs:    map[string]string{"c1": "1@1", "c2": "1@1", "c3": "1@1"},
		aborted: "True/" + ReasonAborted,
		inMessage: []string{
			"Revision 2 (hash " + hashOf(t, "2") + ") failed on c1; c1, c2 went back to revision 1 (hash " + hashOf(t, "1") + ")",
			"The spec's template is revision 2", "summary.updated counts the clusters on it",
		},
		events: []string{"Warning RolloutAborted Revision 2 (hash " + hashOf(t, "2") + ") failed on c1; c1, c2 went back"},
		after: map[string]string{OnFailureAnnotation: OnFailureAbort, StableRevisionAnnotation: hashOf(t, "1"),
			AbortedRevisionAnnotation: hashOf(t, "2")},
	}, {
		name: "past the progressDeadline: the same",
		v:    "2", cfg: deadline("10m"),
		given: abortAnnotations(OnFailureAbort, StableRevisionAnnotation, hashOf(t, "1")),
		works: func(t *testing.T) []runtime.Object {
			return []runtime.Object{on(t, reported(work("c1", rsName, "2"), metav1.ConditionTrue, metav1.ConditionFalse, 20*time.Minute), "2"),
				on(t, succeeded(work("c2", rsName, "2")), "2"), on(t, succeeded(work("c3", rsName, "1")), "1")}
		},
		runs:      map[string]string{"c1": "1@1", "c2": "1@1", "c3": "1@1"},
		aborted:   "True/" + ReasonAborted,
		inMessage: []string{"failed on c1; c1, c2 went back to revision 1"},
		events:    []string{"Warning RolloutAborted Revision 2"},
		after: map[string]string{OnFailureAnnotation: OnFailureAbort, StableRevisionAnnotation: hashOf(t, "1"),
			AbortedRevisionAnnotation: hashOf(t, "2")},
	}, {
		name:      "no stable revision: Abort stops, and says why",
		v:         "2",
		given:     abortAnnotations(OnFailureAbort),
		works:     stoppedAt2,
		runs:      map[string]string{"c1": "2@2", "c2": "2@2", "c3": "1@1"},
		aborted:   "False/" + ReasonNoStableRevision,
		inMessage: []string{"no revision has been complete on every selected cluster", "the rollout stops (Stop)"},
		stopped:   "True/" + ReasonMaxFailuresReached,
		events:    []string{"Warning RolloutStopped"},
		after:     map[string]string{OnFailureAnnotation: OnFailureAbort},
	}, {
		name: "revisions not recorded: Abort stops, and says why",
		v:    "2", noRevisions: true,
		given:     abortAnnotations(OnFailureAbort, StableRevisionAnnotation, hashOf(t, "1")),
		works:     stoppedAt2,
		runs:      map[string]string{"c1": "2@2", "c2": "2@2", "c3": "1@1"},
		aborted:   "False/" + ReasonNoStableRevision,
		inMessage: []string{"revisions are not recorded"},
		stopped:   "True/" + ReasonMaxFailuresReached,
		events:    []string{"Warning RolloutStopped"},
		after:     map[string]string{OnFailureAnnotation: OnFailureAbort, StableRevisionAnnotation: hashOf(t, "1")},
	}, {
		name:    "Stop, the default: the rollout stops as before",
		v:       "2",
		given:   abortAnnotations("", StableRevisionAnnotation, hashOf(t, "1")),
		works:   stoppedAt2,
		runs:    map[string]string{"c1": "2@2", "c2": "2@2", "c3": "1@1"},
		stopped: "True/" + ReasonMaxFailuresReached,
		events:  []string{"Warning RolloutStopped"},
		after:   map[string]string{StableRevisionAnnotation: hashOf(t, "1")},
	}, {
		name:    "a bad value: Stop, and RolloutAborted says why",
		v:       "2",
		given:   abortAnnotations("Rollback", StableRevisionAnnotation, hashOf(t, "1")),
		works:   stoppedAt2,
		runs:    map[string]string{"c1": "2@2", "c2": "2@2", "c3": "1@1"},
		aborted: "False/" + ReasonInvalidOnFailure,
		inMessage: []string{`The annotation work.manifestwork.io/on-failure is "Rollback", not Stop or Abort: ` +
			"failures stop the rollout (Stop)"},
		stopped: "True/" + ReasonMaxFailuresReached,
		events:  []string{"Warning RolloutStopped"},
		after:   map[string]string{OnFailureAnnotation: "Rollback", StableRevisionAnnotation: hashOf(t, "1")},
	}, {
		name:  "held: a cluster that joins gets the stable revision, nothing else is written",
		held:  true,
		v:     "2",
		given: abortAnnotations(OnFailureAbort, StableRevisionAnnotation, hashOf(t, "1"), AbortedRevisionAnnotation, hashOf(t, "2")),
		works: func(t *testing.T) []runtime.Object {
			return []runtime.Object{on(t, succeeded(work("c1", rsName, "1")), "1"), on(t, succeeded(work("c2", rsName, "1")), "1")}
		},
		runs:      map[string]string{"c1": "1@1", "c2": "1@1", "c3": "1@1"},
		aborted:   "True/" + ReasonAborted,
		inMessage: []string{"Revision 2 (hash " + hashOf(t, "2") + ") failed on c1; c1, c2 went back to revision 1"},
		after: map[string]string{OnFailureAnnotation: OnFailureAbort, StableRevisionAnnotation: hashOf(t, "1"),
			AbortedRevisionAnnotation: hashOf(t, "2")},
	}, {
		name:  "held: a new template clears the abort and rolls out",
		held:  true,
		v:     "3",
		given: abortAnnotations(OnFailureAbort, StableRevisionAnnotation, hashOf(t, "1"), AbortedRevisionAnnotation, hashOf(t, "2")),
		works: allOn1,
		runs:  map[string]string{"c1": "3@3", "c2": "3@3", "c3": "1@1"},
		after: map[string]string{OnFailureAnnotation: OnFailureAbort, StableRevisionAnnotation: hashOf(t, "1")},
	}, {
		name:    "held: the failing template applied again stays held",
		held:    true,
		v:       "2",
		given:   abortAnnotations(OnFailureAbort, StableRevisionAnnotation, hashOf(t, "1"), AbortedRevisionAnnotation, hashOf(t, "2")),
		works:   allOn1,
		runs:    map[string]string{"c1": "1@1", "c2": "1@1", "c3": "1@1"},
		aborted: "True/" + ReasonAborted,
		after: map[string]string{OnFailureAnnotation: OnFailureAbort, StableRevisionAnnotation: hashOf(t, "1"),
			AbortedRevisionAnnotation: hashOf(t, "2")},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := abortSet(tt.v, tt.cfg, tt.given)
			if tt.held {
				rs.Status.Conditions = []metav1.Condition{{Type: ConditionRolloutAborted, Status: metav1.ConditionTrue, Reason: ReasonAborted,
					Message: "Revision 2 (hash " + hashOf(t, "2") + ") failed on c1; c1, c2 went back to revision 1 (hash " + hashOf(t, "1") + ")"}}
			}
			objs := append([]runtime.Object{rs, placement(plName, 3, 1),
				decision(plName, 0, "c1", "c2", "c3")}, tt.works(t)...)
			var kube *kubefake.Clientset
			if !tt.noRevisions {
				kube = kubefake.NewClientset(storedRevision(t, "1", 1), storedRevision(t, "2", 2))
			}
			h := newHarnessWith(t, kube, objs...)
			h.sync()

			assert.Equal(t, tt.runs, h.runs())
			rs = h.replicaSet()
			assert.Equal(t, tt.aborted, conditionReason(rs, ConditionRolloutAborted))
			msg := conditionMessage(rs, ConditionRolloutAborted)
			for _, s := range tt.inMessage {
				assert.Contains(t, msg, s)
			}
			assert.Equal(t, tt.stopped, conditionReason(rs, ConditionRolloutStopped))
			events := ct.Recorded(h.events)
			require.Len(t, events, len(tt.events), "%v", events)
			for i, e := range tt.events {
				assert.True(t, strings.HasPrefix(events[i], e), "%s\nwant prefix %s", events[i], e)
			}
			assert.Equal(t, tt.after, rs.Annotations)
			if tt.aborted == "True/"+ReasonAborted {
				assert.Equal(t, "Aborted: see the condition RolloutAborted",
					apimeta.FindStatusCondition(rs.Status.Conditions, workv1alpha1.ConditionPlacementRolledOut).Message)
				assert.Equal(t, 0, rs.Status.Summary.Updated, "no cluster runs the spec's template")
				assert.Equal(t, "True/"+workv1alpha1.ReasonAsExpected, conditionReason(rs, workv1alpha1.ConditionPlacementVerified),
					"the placement's clusters are there, on the stable revision")
			}

			writes, _ := h.sync()
			assert.Empty(t, writes, "a second sync writes nothing")
			assert.Empty(t, ct.Recorded(h.events), "nor sends an Event again")
		})
	}
}

// The stable revision is remembered when a rollout completes with Abort;
// a later failure of the next template sends the clusters back to it, one
// write per work and one for the annotation; a stale cache of the replica
// set (without the annotation) keeps the hold.
func TestAbortRemembersTheStableRevision(t *testing.T) {
	kube := kubefake.NewClientset()
	rs := abortSet("1", none, abortAnnotations(OnFailureAbort))
	h := newHarnessWith(t, kube, rs, placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"),
		on(t, succeeded(work("c1", rsName, "1")), "1"), on(t, succeeded(work("c2", rsName, "1")), "1"),
		on(t, succeeded(work("c3", rsName, "1")), "1"))
	writes, _ := h.sync()
	assert.Contains(t, writes, "patch manifestworkreplicasets "+rsKey)
	assert.Equal(t, hashOf(t, "1"), h.replicaSet().Annotations[StableRevisionAnnotation], "complete: revision 1 is stable")

	h.setTemplate("2")
	h.sync()
	require.Equal(t, map[string]string{"c1": "2@2", "c2": "2@2", "c3": "1@1"}, h.runs())
	w := degradedWork("c1")
	w.Spec, w.Labels, w.Generation = template("2"), h.work("c1", rsName).Labels, h.work("c1", rsName).Generation
	for i := range w.Status.Conditions {
		w.Status.Conditions[i].ObservedGeneration = w.Generation
	}
	stale := h.replicaSet()
	h.put(w)
	writes, _ = h.sync()
	if len(writes) == 4 {
		slices.Sort(writes[1:3]) // the works are written in parallel, in any order
	}
	assert.Equal(t, []string{
		"patch manifestworkreplicasets " + rsKey,
		"patch manifestworks c1/" + rsName,
		"patch manifestworks c2/" + rsName,
		"patch manifestworkreplicasets/status " + rsKey,
	}, writes, "the annotation, one write per work going back, the status")
	assert.Equal(t, map[string]string{"c1": "1@1", "c2": "1@1", "c3": "1@1"}, h.runs())
	assert.Len(t, ct.Recorded(h.events), 1)
	assert.Equal(t, "aborted", snapshotOf(h.replicaSet().Status.Conditions, false, fleet{}).rollout)

	require.NoError(t, h.informers.Work().V1alpha1().ManifestWorkReplicaSets().Informer().GetIndexer().Update(stale))
	require.NoError(t, h.c.sync(t.Context(), ct.NewSyncContext(rsKey)))
	h.refresh()
	assert.Equal(t, map[string]string{"c1": "1@1", "c2": "1@1", "c3": "1@1"}, h.runs(), "a stale cache does not roll revision 2 out again")
	assert.Empty(t, ct.Recorded(h.events))
	assert.Equal(t, hashOf(t, "2"), h.replicaSet().Annotations[AbortedRevisionAnnotation])
}

// A work that cannot go back on the pass that aborts (a conflict) goes back
// on the next pass, and RolloutAborted then names it with the others, still
// saying where the revision failed; no second Event.
func TestAbortRetriesTheWorksThatDidNotGoBack(t *testing.T) {
	h := failingOnC1(t)
	conflicts := 1
	h.client.PrependReactor("patch", "manifestworks", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetNamespace() != "c2" || conflicts == 0 {
			return false, nil, nil
		}
		conflicts--
		return true, nil, apierrors.NewConflict(workv1.Resource("manifestworks"), rsName, errors.New("modified"))
	})
	h.client.ClearActions()
	require.Error(t, h.c.sync(t.Context(), ct.NewSyncContext(rsKey)))
	h.refresh()
	assert.Equal(t, map[string]string{"c1": "1@1", "c2": "2@2", "c3": "1@1"}, h.runs())
	assert.Contains(t, conditionMessage(h.replicaSet(), ConditionRolloutAborted), "failed on c1; c1 went back to revision 1")
	assert.Len(t, ct.Recorded(h.events), 1)

	h.sync()
	assert.Equal(t, map[string]string{"c1": "1@1", "c2": "1@1", "c3": "1@1"}, h.runs())
	assert.Contains(t, conditionMessage(h.replicaSet(), ConditionRolloutAborted), "failed on c1; c1, c2 went back to revision 1")
	assert.Empty(t, ct.Recorded(h.events))
}

// When the status cannot be written on the pass that aborts, the Warning
// Event is sent on the next pass that writes it, and once only.
func TestAbortEventSentOnceTheStatusIsWritten(t *testing.T) {
	h := failingOnC1(t)
	refusals := 1
	h.client.PrependReactor("patch", "manifestworkreplicasets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "status" || refusals == 0 {
			return false, nil, nil
		}
		refusals--
		return true, nil, errors.New("the hub is busy")
	})
	require.Error(t, h.c.sync(t.Context(), ct.NewSyncContext(rsKey)))
	h.refresh()
	assert.Equal(t, map[string]string{"c1": "1@1", "c2": "1@1", "c3": "1@1"}, h.runs())
	assert.Empty(t, ct.Recorded(h.events))

	h.sync()
	assert.Equal(t, "True/"+ReasonAborted, conditionReason(h.replicaSet(), ConditionRolloutAborted))
	assert.Len(t, ct.Recorded(h.events), 1)
	h.sync()
	assert.Empty(t, ct.Recorded(h.events))
}

// failingOnC1 is a harness whose replica set, with Abort and revision 1 as
// its stable revision, runs revision 2: degraded on c1, succeeded on c2,
// not yet on c3.
func failingOnC1(t *testing.T) *harness {
	t.Helper()
	kube := kubefake.NewClientset(storedRevision(t, "1", 1), storedRevision(t, "2", 2))
	rs := abortSet("2", none, abortAnnotations(OnFailureAbort, StableRevisionAnnotation, hashOf(t, "1")))
	failed := on(t, degradedWork("c1"), "2")
	failed.Spec = template("2")
	return newHarnessWith(t, kube, rs, placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"),
		failed, on(t, succeeded(work("c2", rsName, "2")), "2"), on(t, succeeded(work("c3", rsName, "1")), "1"))
}
