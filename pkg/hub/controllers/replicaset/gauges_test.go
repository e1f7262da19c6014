package replicaset

import (
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-base/metrics/testutil"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// gaugeValues reads every state of both gauges (registered, so that they
// record).
func gaugeValues(t *testing.T) map[string]float64 {
	t.Helper()
	metrics.Register()
	out := map[string]float64{}
	for _, state := range []string{metrics.RolloutProgressing, metrics.RolloutRolledOut, metrics.RolloutPaused,
		metrics.RolloutStopped, metrics.RolloutUnverified} {
		v, err := testutil.GetGaugeMetricValue(metrics.ReplicaSetRollouts.WithLabelValues(state))
		require.NoError(t, err)
		out["rollouts/"+state] = v
	}
	for _, state := range []string{metrics.ClusterApplied, metrics.ClusterAvailable, metrics.ClusterProgressing,
		metrics.ClusterDegraded, metrics.ClusterHealthy, metrics.ClusterDrifted} {
		v, err := testutil.GetGaugeMetricValue(metrics.ReplicaSetClusters.WithLabelValues(state))
		require.NoError(t, err)
		out["clusters/"+state] = v
	}
	return out
}

// changes are the gauges that differ from before, by how much.
func changes(before, after map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range after {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// The gauges follow a replica set through its rollout states and its
// clusters' states, and lose what it added once it is gone.
func TestGaugesFollowTheReplicaSet(t *testing.T) {
	base := gaugeValues(t)
	h := newHarness(t, withFinalizer(replicaSet(progressiveOne)), placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"))
	healthyWork := func(cluster string) *workv1.ManifestWork {
		w := succeeded(h.work(cluster, rsName))
		w.Status.Conditions = append(w.Status.Conditions,
			metav1.Condition{Type: workv1.WorkHealthy, Status: metav1.ConditionTrue, Reason: "R", LastTransitionTime: metav1.NewTime(now)},
			metav1.Condition{Type: workv1.WorkInSync, Status: metav1.ConditionFalse, Reason: "R", LastTransitionTime: metav1.NewTime(now)})
		return w
	}

	// c1 healthy and drifted, c2 degraded
	oneFailed := map[string]float64{"clusters/applied": 2, "clusters/available": 2,
		"clusters/progressing": 1, "clusters/degraded": 1, "clusters/healthy": 1, "clusters/drifted": 1}
	steps := []struct {
		name string
		do   func()
		want map[string]float64
	}{{
		name: "c1 applying",
		do:   func() {},
		want: map[string]float64{"rollouts/progressing": 1},
	}, {
		name: "c1 healthy but drifted, c2 applying",
		do:   func() { h.put(healthyWork("c1")) },
		want: map[string]float64{"rollouts/progressing": 1, "clusters/applied": 1, "clusters/available": 1,
			"clusters/healthy": 1, "clusters/drifted": 1},
	}, {
		name: "c2 failed: stopped",
		do: func() {
			w := degradedWork("c2")
			w.Generation = h.work("c2", rsName).Generation
			for i := range w.Status.Conditions {
				w.Status.Conditions[i].ObservedGeneration = w.Generation
			}
			h.put(w)
		},
		want: withState("stopped", oneFailed),
	}, {
		name: "paused",
		do: func() {
			rs := h.replicaSet()
			rs.Annotations = map[string]string{PausedAnnotation: "true"}
			h.put(rs)
		},
		want: withState("paused", oneFailed),
	}, {
		name: "resumed, c2 healthy: c3 applying",
		do: func() {
			rs := h.replicaSet()
			rs.Annotations = nil
			h.put(rs, healthyWork("c2"))
		},
		want: map[string]float64{"rollouts/progressing": 1, "clusters/applied": 2, "clusters/available": 2,
			"clusters/healthy": 2, "clusters/drifted": 2},
	}, {
		name: "c3 healthy: rolled out",
		do:   func() { h.put(healthyWork("c3")) },
		want: map[string]float64{"rollouts/rolledout": 1, "clusters/applied": 3, "clusters/available": 3,
			"clusters/healthy": 3, "clusters/drifted": 3},
	}, {
		name: "deleted: nothing left",
		do: func() {
			require.NoError(t, h.client.WorkV1alpha1().ManifestWorkReplicaSets(ns).Delete(t.Context(), rsName, metav1.DeleteOptions{}))
			h.refresh()
		},
		want: map[string]float64{},
	}}
	for _, step := range steps {
		step.do()
		h.sync()
		assert.Equal(t, step.want, changes(base, gaugeValues(t)), step.name)
	}
}

// withState is clusters and one replica set in the rollout state.
func withState(state string, clusters map[string]float64) map[string]float64 {
	out := maps.Clone(clusters)
	out["rollouts/"+state] = 1
	return out
}
