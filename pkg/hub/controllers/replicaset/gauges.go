package replicaset

import (
	"sync"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/metrics"
)

// snapshot is what one replica set adds to the gauges.
type snapshot struct {
	rollout  string         // a metrics.Rollout* value
	clusters map[string]int // by metrics.Cluster* value
}

// gauges keeps metrics.ReplicaSetRollouts and metrics.ReplicaSetClusters:
// it remembers what each replica set added, so that a change, or the
// replica set's deletion, takes it back. It moves the gauges by the
// difference, so that several controllers in one process (as in tests) add
// up.
type gauges struct {
	mu   sync.Mutex
	last map[cache.ObjectName]snapshot
}

func (g *gauges) set(key cache.ObjectName, s snapshot) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.last == nil {
		g.last = map[cache.ObjectName]snapshot{}
	}
	if old, ok := g.last[key]; ok {
		add(old, -1)
	}
	add(s, 1)
	g.last[key] = s
}

func (g *gauges) forget(key cache.ObjectName) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if old, ok := g.last[key]; ok {
		add(old, -1)
		delete(g.last, key)
	}
}

func add(s snapshot, sign float64) {
	metrics.ReplicaSetRollouts.WithLabelValues(s.rollout).Add(sign)
	for state, n := range s.clusters {
		metrics.ReplicaSetClusters.WithLabelValues(state).Add(sign * float64(n))
	}
}

// snapshotOf reads the rollout state from the replica set's new conditions
// and whether it is paused, and the clusters from f.
func snapshotOf(conds []metav1.Condition, paused bool, f fleet) snapshot {
	verified := apimeta.FindStatusCondition(conds, workv1alpha1.ConditionPlacementVerified)
	state := metrics.RolloutProgressing
	switch {
	case paused:
		state = metrics.RolloutPaused
	case apimeta.IsStatusConditionTrue(conds, ConditionRolloutAborted):
		state = metrics.RolloutAborted
	case apimeta.IsStatusConditionTrue(conds, ConditionRolloutStopped):
		state = metrics.RolloutStopped
	case verified != nil && verified.Status != metav1.ConditionTrue && verified.Reason != workv1alpha1.ReasonPlacementDecisionEmpty:
		state = metrics.RolloutUnverified
	case apimeta.IsStatusConditionTrue(conds, workv1alpha1.ConditionPlacementRolledOut):
		state = metrics.RolloutRolledOut
	}
	return snapshot{rollout: state, clusters: map[string]int{
		metrics.ClusterApplied:     f.counts.Applied,
		metrics.ClusterAvailable:   f.counts.Available,
		metrics.ClusterProgressing: f.counts.Progressing,
		metrics.ClusterDegraded:    len(f.degraded),
		metrics.ClusterHealthy:     f.healthy,
		metrics.ClusterDrifted:     len(f.drifted),
	}}
}
