package replicaset

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// placed is a placement's result in a pass: the clusters whose work has the
// current template, and those waiting for it.
func placed(p *clusterv1beta1.Placement, clusters, waiting []string, succeeded int, failures ...failure) placementResult {
	return placementResult{name: p.Name, placement: p, clusters: clusters, waiting: waiting, succeeded: succeeded, failures: failures}
}

// lines are the conditions as "Type Status/Reason: message", in order.
func lines(conds []metav1.Condition) []string {
	out := make([]string, 0, len(conds))
	for _, c := range conds {
		out = append(out, fmt.Sprintf("%s %s", c.Type, conditionLine(conds, c.Type)))
	}
	return out
}

// statusWith is a status with the summaries and conditions.
func statusWith(summary workv1alpha1.ManifestWorkReplicaSetSummary, placements []workv1alpha1.PlacementSummary,
	conds ...metav1.Condition) workv1alpha1.ManifestWorkReplicaSetStatus {
	return workv1alpha1.ManifestWorkReplicaSetStatus{Summary: summary, PlacementsSummary: placements, Conditions: conds}
}

func condAt(t string, status metav1.ConditionStatus, reason, message string, at time.Time) metav1.Condition {
	return metav1.Condition{Type: t, Status: status, Reason: reason, Message: message, LastTransitionTime: metav1.NewTime(at)}
}

const (
	stoppedOnC1  = "Rollout stopped on placement prod: more clusters failed than maxFailures allows: c1"
	unknownFleet = "FleetHealthy Unknown/HealthNotReported: None of the 1 clusters' works reports the condition Healthy"
	unknownSync  = "FleetInSync Unknown/InSyncNotReported: None of the 1 clusters' works reports the condition InSync"
)

// statusOf counts the summaries and sets the conditions from what the pass
// found and did, OCM's conditions first in OCM's order.
func TestStatusOf(t *testing.T) {
	prod3 := placement(plName, 3, 1)
	progressingC1 := reported(work("c1", rsName, "1"), metav1.ConditionTrue, metav1.ConditionFalse, time.Minute)
	failedC1 := reported(work("c1", rsName, "1"), metav1.ConditionTrue, metav1.ConditionTrue, time.Minute)
	stoppedC1 := failure{cluster: "c1", detail: "Degraded=True R"}
	progressing := []placementResult{placed(prod3, []string{"c1"}, []string{"c2", "c3"}, 0)}
	stopped := []placementResult{placed(prod3, []string{"c1"}, []string{"c2", "c3"}, 0, stoppedC1)}
	progressingSummary := workv1alpha1.ManifestWorkReplicaSetSummary{Total: 1, DesiredTotal: 3, Updated: 1, Applied: 1, Available: 1, Progressing: 1}
	failedSummary := progressingSummary
	failedSummary.Degraded = 1
	ocmProgressing := []string{
		"PlacementVerified True/AsExpected: ",
		"PlacementRolledOut False/Progressing: ",
		"ManifestworkApplied False/Processing: ",
		unknownFleet, unknownSync,
	}
	rolloutStoppedC1 := "RolloutStopped True/MaxFailuresReached: " + stoppedOnC1 + "\nc1: Degraded=True R"
	ocmStopped := []string{
		"PlacementVerified True/AsExpected: ",
		"PlacementRolledOut False/Progressing: Stopped by failures: see the condition RolloutStopped",
		"ManifestworkApplied False/NotAsExpected: ",
		"FleetHealthy False/ClustersDegraded: 0 of 1 clusters healthy; degraded: c1",
		unknownSync,
	}
	earlierPlacements := []workv1alpha1.PlacementSummary{{Name: plName, AvailableDecisionGroups: "1 (1 / 1 clusters applied)",
		Summary: workv1alpha1.ManifestWorkReplicaSetSummary{Total: 1}}}
	tests := []struct {
		name            string
		old             workv1alpha1.ManifestWorkReplicaSetStatus
		d               deployment
		works           []*workv1.ManifestWork
		wantSummary     workv1alpha1.ManifestWorkReplicaSetSummary
		wantPlacements  []workv1alpha1.PlacementSummary // nil: not checked
		wantConditions  []string
		wantHead, event string
	}{{
		name:        "one of three clusters progressing",
		d:           deployment{placements: progressing},
		works:       []*workv1.ManifestWork{progressingC1},
		wantSummary: progressingSummary,
		wantPlacements: []workv1alpha1.PlacementSummary{{Name: plName, AvailableDecisionGroups: "1 (1 / 3 clusters applied)",
			Summary: progressingSummary}},
		wantConditions: ocmProgressing,
	}, {
		name: "every cluster succeeded",
		d: deployment{placements: []placementResult{
			placed(placement(plName, 2, 1), []string{"c1", "c2"}, nil, 2),
		}},
		works:       []*workv1.ManifestWork{succeeded(work("c1", rsName, "1")), succeeded(work("c2", rsName, "1"))},
		wantSummary: workv1alpha1.ManifestWorkReplicaSetSummary{Total: 2, DesiredTotal: 2, Updated: 2, Applied: 2, Available: 2},
		wantPlacements: []workv1alpha1.PlacementSummary{{Name: plName, AvailableDecisionGroups: "1 (2 / 2 clusters applied)",
			Summary: workv1alpha1.ManifestWorkReplicaSetSummary{Total: 2, DesiredTotal: 2, Updated: 2, Applied: 2, Available: 2}}},
		wantConditions: []string{
			"PlacementVerified True/AsExpected: ",
			"PlacementRolledOut True/Complete: ",
			"ManifestworkApplied True/AsExpected: ",
			"FleetHealthy Unknown/HealthNotReported: None of the 2 clusters' works reports the condition Healthy",
			"FleetInSync Unknown/InSyncNotReported: None of the 2 clusters' works reports the condition InSync",
		},
	}, {
		name:           "a placement without decisions",
		d:              deployment{placements: []placementResult{placed(placement(plName, 0, 0), nil, nil, 0)}},
		wantPlacements: []workv1alpha1.PlacementSummary{{Name: plName, AvailableDecisionGroups: "0 (0 / 0 clusters applied)"}},
		wantConditions: []string{
			"PlacementVerified False/PlacementDecisionEmpty: ",
			"PlacementRolledOut True/Complete: ",
			"ManifestworkApplied False/PlacementDecisionEmpty: ",
		},
	}, {
		name:           "unreadable decisions and an invalid strategy",
		d:              deployment{problems: []string{"PlacementDecision prod-decision-0: bad index", "placement other: maxConcurrency: bad"}},
		wantPlacements: []workv1alpha1.PlacementSummary{},
		wantConditions: []string{
			"PlacementVerified False/NotAsExpected: PlacementDecision prod-decision-0: bad index; placement other: maxConcurrency: bad",
			"PlacementRolledOut True/Complete: ",
			"ManifestworkApplied False/NotAsExpected: ",
		},
	}, {
		name: "a missing placement: the rest stays as it was",
		old: statusWith(workv1alpha1.ManifestWorkReplicaSetSummary{Total: 1}, earlierPlacements,
			condAt(workv1alpha1.ConditionPlacementVerified, metav1.ConditionTrue, workv1alpha1.ReasonAsExpected, "", now),
			condAt(workv1alpha1.ConditionPlacementRolledOut, metav1.ConditionFalse, workv1alpha1.ReasonProgressing, "", now),
			condAt(ConditionRolloutStopped, metav1.ConditionTrue, ReasonMaxFailuresReached, stoppedOnC1, now)),
		d:              deployment{missing: "prod"},
		works:          []*workv1.ManifestWork{failedC1},
		wantSummary:    workv1alpha1.ManifestWorkReplicaSetSummary{Total: 1},
		wantPlacements: earlierPlacements,
		wantConditions: []string{
			"PlacementVerified False/PlacementDecisionNotFound: Placement prod not found",
			"PlacementRolledOut False/Progressing: ",
			"RolloutStopped True/MaxFailuresReached: " + stoppedOnC1,
			"FleetHealthy False/ClustersDegraded: 0 of 1 clusters healthy; degraded: c1",
			unknownSync,
		},
	}, {
		name:        "paused",
		d:           deployment{paused: true, kept: []string{"c9"}, placements: progressing},
		works:       []*workv1.ManifestWork{progressingC1},
		wantSummary: progressingSummary,
		wantConditions: []string{
			"PlacementVerified True/AsExpected: ",
			"PlacementRolledOut False/Progressing: Paused: see the condition RolloutPaused",
			"ManifestworkApplied False/Processing: ",
			unknownFleet, unknownSync,
			`RolloutPaused True/Paused: The annotation work.manifestwork.io/rollout-paused is "true": 1 of 3 selected clusters have the current template;` +
				" no work is created, updated or deleted until it is removed; waiting: c2, c3; kept, though no placement selects them: c9",
		},
	}, {
		name:           "stopped by failures: an Event",
		d:              deployment{placements: stopped},
		works:          []*workv1.ManifestWork{failedC1},
		wantSummary:    failedSummary,
		wantConditions: append(slices.Clone(ocmStopped), rolloutStoppedC1),
		wantHead:       stoppedOnC1,
		event:          stoppedOnC1 + ". c1: Degraded=True R",
	}, {
		name: "stopped on the same clusters as before: no Event",
		old: statusWith(workv1alpha1.ManifestWorkReplicaSetSummary{}, nil,
			condAt(ConditionRolloutStopped, metav1.ConditionTrue, ReasonMaxFailuresReached, stoppedOnC1+"\nc1: older news", now)),
		d:              deployment{placements: stopped},
		works:          []*workv1.ManifestWork{failedC1},
		wantSummary:    failedSummary,
		wantConditions: append([]string{rolloutStoppedC1}, ocmStopped...),
		wantHead:       stoppedOnC1,
	}, {
		name: "resumed and recovered: RolloutPaused and RolloutStopped go",
		old: statusWith(workv1alpha1.ManifestWorkReplicaSetSummary{}, nil,
			condAt(ConditionRolloutPaused, metav1.ConditionTrue, ReasonPaused, "", now),
			condAt(ConditionRolloutStopped, metav1.ConditionTrue, ReasonMaxFailuresReached, stoppedOnC1, now)),
		d:              deployment{placements: progressing},
		works:          []*workv1.ManifestWork{progressingC1},
		wantSummary:    progressingSummary,
		wantConditions: ocmProgressing,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := replicaSet(all(none))
			rs.Status = tt.old
			before := rs.DeepCopy()
			works := map[string]*workv1.ManifestWork{}
			for _, w := range tt.works {
				works[w.Namespace] = w
			}
			next := statusOf(rs, tt.d, works, now)
			assert.Equal(t, before, rs, "the replica set is not changed")
			assert.Equal(t, tt.wantSummary, next.status.Summary)
			if tt.wantPlacements != nil {
				assert.Equal(t, tt.wantPlacements, next.status.PlacementsSummary)
			}
			assert.Equal(t, tt.wantConditions, lines(next.status.Conditions))
			assert.Equal(t, tt.wantHead, next.stoppedHead)
			assert.Equal(t, tt.event, next.stopped)
		})
	}
}

// A condition keeps the time it turned while its status stays; one whose
// status changes, or that is new, turns now.
func TestStatusOfTransitionTimes(t *testing.T) {
	earlier := now.Add(-time.Hour)
	rs := replicaSet(all(none))
	rs.Status = statusWith(workv1alpha1.ManifestWorkReplicaSetSummary{}, nil,
		condAt(workv1alpha1.ConditionPlacementVerified, metav1.ConditionTrue, workv1alpha1.ReasonAsExpected, "", earlier),
		condAt(workv1alpha1.ConditionPlacementRolledOut, metav1.ConditionTrue, workv1alpha1.ReasonComplete, "", earlier))
	d := deployment{placements: []placementResult{placed(placement(plName, 1, 1), []string{"c1"}, nil, 0)}}
	works := map[string]*workv1.ManifestWork{"c1": reported(work("c1", rsName, "1"), metav1.ConditionTrue, metav1.ConditionFalse, time.Minute)}

	turned := map[string]time.Time{}
	for _, c := range statusOf(rs, d, works, now).status.Conditions {
		turned[c.Type] = c.LastTransitionTime.Time
	}
	assert.Equal(t, map[string]time.Time{
		workv1alpha1.ConditionPlacementVerified:   earlier, // still True
		workv1alpha1.ConditionPlacementRolledOut:  now,     // True to False
		workv1alpha1.ConditionManifestworkApplied: now,     // new
		ConditionFleetHealthy:                     now,
		ConditionFleetInSync:                      now,
	}, turned)
}

// Every condition carries the generation of the spec it was computed for.
func TestStatusOfObservedGeneration(t *testing.T) {
	rs := replicaSet(all(none))
	rs.Generation = 7
	d := deployment{placements: []placementResult{placed(placement(plName, 1, 1), []string{"c1"}, nil, 0)}}
	works := map[string]*workv1.ManifestWork{"c1": reported(work("c1", rsName, "1"), metav1.ConditionTrue, metav1.ConditionFalse, time.Minute)}
	conds := statusOf(rs, d, works, now).status.Conditions
	require.NotEmpty(t, conds)
	for _, c := range conds {
		assert.Equal(t, int64(7), c.ObservedGeneration, c.Type)
	}
}
