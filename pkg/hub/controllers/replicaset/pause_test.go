package replicaset

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

func paused(rs *workv1alpha1.ManifestWorkReplicaSet) *workv1alpha1.ManifestWorkReplicaSet {
	rs.Annotations = map[string]string{PausedAnnotation: "true"}
	return rs
}

// A paused rollout writes no work, whatever it would do otherwise, and says
// so; once resumed it does what it held back, and the condition goes.
func TestPauseAndResume(t *testing.T) {
	v2 := func(rs *workv1alpha1.ManifestWorkReplicaSet) *workv1alpha1.ManifestWorkReplicaSet {
		rs.Spec.ManifestWorkTemplate = template("2")
		return rs
	}
	tests := []struct {
		name         string
		objs         []runtime.Object
		wantVersions map[string]string // while paused
		wantMessage  string
		wantResumed  map[string]string // after the resume
		complete     bool              // every selected cluster has the current template
	}{{
		name:         "a new replica set creates no work",
		objs:         []runtime.Object{paused(replicaSet(all(none))), placement(plName, 2, 1), decision(plName, 0, "c1", "c2")},
		wantVersions: map[string]string{},
		wantMessage: `The annotation work.manifestwork.io/rollout-paused is "true": 0 of 2 selected clusters have the current template;` +
			" no work is created, updated or deleted until it is removed; waiting: c1, c2",
		wantResumed: map[string]string{"c1": "1", "c2": "1"},
	}, {
		name: "a template change stops where it is",
		objs: []runtime.Object{withFinalizer(paused(v2(replicaSet(progressiveOne)))), placement(plName, 3, 1),
			decision(plName, 0, "c1", "c2", "c3"),
			succeeded(work("c1", rsName, "2")), succeeded(work("c2", rsName, "1")), succeeded(work("c3", rsName, "1"))},
		wantVersions: map[string]string{"c1": "2", "c2": "1", "c3": "1"},
		wantMessage:  "1 of 3 selected clusters have the current template",
		wantResumed:  map[string]string{"c1": "2", "c2": "2", "c3": "1"},
	}, {
		name: "a cluster leaving the placements keeps its work",
		objs: []runtime.Object{withFinalizer(paused(replicaSet(all(none)))), placement(plName, 1, 1), decision(plName, 0, "c2"),
			succeeded(work("c1", rsName, "1")), succeeded(work("c2", rsName, "1"))},
		wantVersions: map[string]string{"c1": "1", "c2": "1"},
		wantMessage:  "kept, though no placement selects them: c1",
		wantResumed:  map[string]string{"c2": "1"},
		complete:     true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.objs...)
			writes, _ := h.sync()
			for _, w := range writes {
				assert.NotContains(t, w, "manifestworks ", "no work is written while paused")
			}
			assert.Equal(t, tt.wantVersions, h.versions())
			rs := h.replicaSet()
			assert.Equal(t, "True/Paused", conditionReason(rs, ConditionRolloutPaused))
			assert.Contains(t, apimeta.FindStatusCondition(rs.Status.Conditions, ConditionRolloutPaused).Message, tt.wantMessage)
			rolledOut := apimeta.FindStatusCondition(rs.Status.Conditions, workv1alpha1.ConditionPlacementRolledOut)
			require.NotNil(t, rolledOut)
			if tt.complete {
				assert.Equal(t, "True/Complete", conditionReason(rs, workv1alpha1.ConditionPlacementRolledOut))
			} else {
				assert.Equal(t, "False/Progressing", conditionReason(rs, workv1alpha1.ConditionPlacementRolledOut), "OCM's reason stays")
				assert.Equal(t, "Paused: see the condition RolloutPaused", rolledOut.Message)
			}

			writes, _ = h.sync()
			assert.Empty(t, writes, "paused and idle: nothing written")

			delete(rs.Annotations, PausedAnnotation)
			h.put(rs)
			h.sync()
			assert.Equal(t, tt.wantResumed, h.versions())
			assert.Nil(t, apimeta.FindStatusCondition(h.replicaSet().Status.Conditions, ConditionRolloutPaused))
		})
	}
}

// Only "true" pauses.
func TestPausedOnlyByTrue(t *testing.T) {
	for value, want := range map[string]bool{"true": true, "false": false, "": false, "yes": false} {
		rs := replicaSet(all(none))
		rs.Annotations = map[string]string{PausedAnnotation: value}
		assert.Equal(t, want, isPaused(rs), value)
	}
	assert.False(t, isPaused(&workv1alpha1.ManifestWorkReplicaSet{ObjectMeta: metav1.ObjectMeta{}}))
}
