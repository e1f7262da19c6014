package health

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

func TestRollout(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	const gen = 3
	deploy := func(name string, conds ...metav1.Condition) workv1.ManifestCondition {
		return workv1.ManifestCondition{
			ResourceMeta: workv1.ManifestResourceMeta{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "team", Name: name},
			Conditions:   conds,
		}
	}
	applied := metav1.Condition{Type: workv1.ManifestApplied, Status: metav1.ConditionTrue, ObservedGeneration: gen, Reason: "R"}
	failing := func(since time.Duration) metav1.Condition {
		return metav1.Condition{Type: workv1.ManifestApplied, Status: metav1.ConditionFalse, ObservedGeneration: gen,
			Reason: workv1.ManifestAppliedReasonFailed, Message: "refused", LastTransitionTime: metav1.NewTime(now.Add(-since))}
	}
	healthy := func(status metav1.ConditionStatus, reason string, generation int64) metav1.Condition {
		return metav1.Condition{Type: workv1.ManifestHealthy, Status: status, Reason: reason, ObservedGeneration: generation, Message: "why " + reason}
	}
	ok := healthy(metav1.ConditionTrue, workv1.HealthyReasonHealthy, gen)
	noCheck := healthy(metav1.ConditionTrue, workv1.HealthyReasonNoHealthCheck, gen)
	moving := healthy(metav1.ConditionFalse, workv1.HealthyReasonProgressing, gen)
	bad := healthy(metav1.ConditionFalse, workv1.HealthyReasonDegraded, gen)

	tests := []struct {
		name        string
		manifests   []workv1.ManifestCondition
		progressing string // status/reason
		degraded    string
		contains    []string // in the Progressing, then Degraded message
	}{
		{"no manifests", nil, "False/Completed", "False/AsExpected", []string{"All 0 manifests"}},
		{"every manifest healthy", []workv1.ManifestCondition{deploy("a", applied, ok), deploy("b", applied, noCheck)},
			"False/Completed", "False/AsExpected", []string{"All 2 manifests are rolled out"}},
		{"not applied yet", []workv1.ManifestCondition{deploy("a"), deploy("b", applied, ok)},
			"True/Applying", "False/AsExpected", []string{"1 of 2 manifests are not rolled out yet: Deployment team/a is not applied yet"}},
		{"applied for an older generation", []workv1.ManifestCondition{deploy("a", metav1.Condition{Type: workv1.ManifestApplied, Status: metav1.ConditionTrue, ObservedGeneration: gen - 1}, ok)},
			"True/Applying", "False/AsExpected", nil},
		{"failing briefly", []workv1.ManifestCondition{deploy("a", failing(time.Second))},
			"True/Applying", "False/AsExpected", []string{"fails to apply, retrying"}},
		{"failing for long: stalled", []workv1.ManifestCondition{deploy("a", failing(stalled.Threshold)), deploy("b", applied, ok)},
			"True/Applying", "True/ApplyStalled", []string{"keeps failing to apply", "1 of 2 manifests are degraded: Deployment team/a fails to apply (refused)"}},
		{"not judged yet", []workv1.ManifestCondition{deploy("a", applied)},
			"True/RollingOut", "False/AsExpected", []string{"Deployment team/a is not judged yet"}},
		{"judged for an older generation", []workv1.ManifestCondition{deploy("a", applied, healthy(metav1.ConditionTrue, workv1.HealthyReasonHealthy, gen-1))},
			"True/RollingOut", "False/AsExpected", []string{"not judged yet"}},
		{"progressing", []workv1.ManifestCondition{deploy("a", applied, moving), deploy("b", applied, ok)},
			"True/RollingOut", "False/AsExpected", []string{"1 of 2 manifests are not rolled out yet: Deployment team/a is Progressing"}},
		{"unknown health", []workv1.ManifestCondition{deploy("a", applied, healthy(metav1.ConditionUnknown, workv1.HealthyReasonUnknown, gen))},
			"True/RollingOut", "False/AsExpected", []string{"Deployment team/a is HealthUnknown"}},
		{"degraded", []workv1.ManifestCondition{deploy("a", applied, bad), deploy("b", applied, moving)},
			"True/RollingOut", "True/ManifestsDegraded", []string{"2 of 2", "1 of 2 manifests are degraded: Deployment team/a is Degraded (why Degraded)"}},
		{"degraded before stalled", []workv1.ManifestCondition{deploy("a", failing(time.Minute)), deploy("b", applied, bad)},
			"True/Applying", "True/ManifestsDegraded", []string{"2 of 2", "2 of 2 manifests are degraded: Deployment team/a fails to apply (refused); Deployment team/b is Degraded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(gen).Build()
			progressing, degraded := Rollout(work, tt.manifests, now)
			assert.Equal(t, workv1.WorkProgressing, progressing.Type)
			assert.Equal(t, workv1.WorkDegraded, degraded.Type)
			assert.Equal(t, tt.progressing, fmt.Sprintf("%s/%s", progressing.Status, progressing.Reason))
			assert.Equal(t, tt.degraded, fmt.Sprintf("%s/%s", degraded.Status, degraded.Reason))
			assert.Equal(t, int64(gen), progressing.ObservedGeneration)
			assert.Equal(t, int64(gen), degraded.ObservedGeneration)
			for _, want := range tt.contains {
				assert.True(t, strings.Contains(progressing.Message, want) || strings.Contains(degraded.Message, want),
					"%q in %q or %q", want, progressing.Message, degraded.Message)
			}
		})
	}
}

// A ReadOnly manifest whose object the agent cannot read does not hold the
// rollout: it counts as rolled out once applied, and the message names it.
// Any other manifest whose health is unknown still does.
func TestRolloutDoesNotWaitForUnreadableReadOnly(t *testing.T) {
	const gen = 2
	meta := workv1.ManifestResourceMeta{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass", Resource: "priorityclasses", Name: "high"}
	readOnly := fixture.WithStrategy(fixture.Config("scheduling.k8s.io", "priorityclasses", "", "high"), workv1.UpdateStrategyTypeReadOnly)
	applied := metav1.Condition{Type: workv1.ManifestApplied, Status: metav1.ConditionTrue, ObservedGeneration: gen}
	unknownHealth := metav1.Condition{Type: workv1.ManifestHealthy, Status: metav1.ConditionUnknown, ObservedGeneration: gen,
		Reason: workv1.HealthyReasonUnknown, Message: "Failed to fetch resource: forbidden"}
	fetchFailed := func(generation int64) metav1.Condition {
		return metav1.Condition{Type: workv1.ManifestAvailable, Status: metav1.ConditionUnknown, ObservedGeneration: generation,
			Reason: workv1.ManifestAvailableReasonFetchFailed, Message: "Failed to fetch resource: forbidden"}
	}
	tests := []struct {
		name        string
		readOnly    bool
		available   metav1.Condition
		progressing string
		contains    string
	}{
		{"ReadOnly, the agent cannot read it", true, fetchFailed(gen), "False/Completed",
			"All 1 manifests are rolled out; 1 ReadOnly manifests are not waited for, as the agent cannot read their objects (see Available): PriorityClass high"},
		{"not ReadOnly", false, fetchFailed(gen), "True/RollingOut", "PriorityClass high is HealthUnknown"},
		{"ReadOnly, read failed for an older generation", true, fetchFailed(gen - 1), "True/RollingOut", "is HealthUnknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, "w").WithGeneration(gen)
			if tt.readOnly {
				b = b.WithConfig(readOnly)
			}
			manifests := []workv1.ManifestCondition{{ResourceMeta: meta, Conditions: []metav1.Condition{applied, tt.available, unknownHealth}}}
			progressing, degraded := Rollout(b.Build(), manifests, time.Now())
			assert.Equal(t, tt.progressing, fmt.Sprintf("%s/%s", progressing.Status, progressing.Reason))
			assert.Contains(t, progressing.Message, tt.contains)
			assert.Equal(t, metav1.ConditionFalse, degraded.Status)
		})
	}
}

// The message counts every manifest holding the rollout and names the
// first few.
func TestRolloutNamesTheFirstFew(t *testing.T) {
	var manifests []workv1.ManifestCondition
	for i := range 5 {
		manifests = append(manifests, workv1.ManifestCondition{
			ResourceMeta: workv1.ManifestResourceMeta{Version: "v1", Kind: "Pod", Resource: "pods", Namespace: "team", Name: fmt.Sprintf("p%d", i)},
		})
	}
	progressing, _ := Rollout(fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).Build(), manifests, time.Now())
	assert.Equal(t, "5 of 5 manifests are not rolled out yet: Pod team/p0 is not applied yet; Pod team/p1 is not applied yet; "+
		"Pod team/p2 is not applied yet; and 2 more", progressing.Message)
}

// A condition rule of type Progressing or Degraded replaces the agent's
// condition of that type; the other one is the agent's.
func TestSetWorkConditionsLeavesRuledTypes(t *testing.T) {
	cm := fixture.Config("", "configmaps", "team", "cm")
	for _, ruled := range []string{workv1.WorkProgressing, workv1.WorkDegraded} {
		t.Run(ruled, func(t *testing.T) {
			fromRule := metav1.Condition{Type: ruled, Status: metav1.ConditionTrue, Reason: workv1.ConditionRulesAggregated}
			work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "cm", nil)).
				WithConfig(fixture.WithConditionRules(cm, fixture.CELRule(ruled, "true"))).Build()
			status := workv1.ManifestWorkStatus{Conditions: []metav1.Condition{fromRule}}
			SetWorkConditions(work, &status, time.Now())
			got := apimeta.FindStatusCondition(status.Conditions, ruled)
			require.NotNil(t, got)
			assert.Equal(t, workv1.ConditionRulesAggregated, got.Reason)
			other := workv1.WorkDegraded
			if ruled == workv1.WorkDegraded {
				other = workv1.WorkProgressing
			}
			require.NotNil(t, apimeta.FindStatusCondition(status.Conditions, other), "the other type is the agent's")
		})
	}
}
