package replicaset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// conditioned is a work on cluster whose status has the conditions, each
// given as type=status.
func conditioned(cluster string, conds ...string) *workv1.ManifestWork {
	w := work(cluster, rsName, "1")
	for _, c := range conds {
		t, s, _ := strings.Cut(c, "=")
		w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{Type: t, Status: metav1.ConditionStatus(s), Reason: "R"})
	}
	return w
}

func TestFleetConditions(t *testing.T) {
	healthy := []string{"Healthy=True", "InSync=True"}
	tests := []struct {
		name        string
		works       []*workv1.ManifestWork
		wantHealthy string // status/reason: message
		wantInSync  string
	}{{
		name:        "all healthy and in sync",
		works:       []*workv1.ManifestWork{conditioned("c1", healthy...), conditioned("c2", healthy...)},
		wantHealthy: "True/AllHealthy: 2 of 2 clusters healthy",
		wantInSync:  "True/InSync: 2 of 2 clusters in sync",
	}, {
		name: "degraded, not healthy yet, drifted",
		works: []*workv1.ManifestWork{
			conditioned("c1", healthy...),
			conditioned("c2", "Healthy=False", "Degraded=True", "InSync=False"),
			conditioned("c3", "Healthy=False", "Degraded=False", "InSync=True"),
			conditioned("c4", "Healthy=False", "Degraded=True", "InSync=False"),
			conditioned("c5"),
		},
		wantHealthy: "False/ClustersDegraded: 1 of 5 clusters healthy; degraded: c2, c4; not healthy yet: c3; 1 do not report Healthy",
		wantInSync:  "False/Drifted: 2 of 5 clusters drifted: c2, c4",
	}, {
		name:        "not healthy yet, none degraded",
		works:       []*workv1.ManifestWork{conditioned("c1", healthy...), conditioned("c2", "Healthy=False")},
		wantHealthy: "False/ClustersNotHealthy: 1 of 2 clusters healthy; not healthy yet: c2",
		wantInSync:  "True/InSync: 1 of 2 clusters in sync; 1 do not report InSync",
	}, {
		name:        "agents that report neither (OCM's)",
		works:       []*workv1.ManifestWork{conditioned("c1", "Applied=True", "Available=True")},
		wantHealthy: "Unknown/HealthNotReported: None of the 1 clusters' works reports the condition Healthy",
		wantInSync:  "Unknown/InSyncNotReported: None of the 1 clusters' works reports the condition InSync",
	}, {
		name: "a work being deleted does not count",
		works: []*workv1.ManifestWork{conditioned("c1", healthy...), func() *workv1.ManifestWork {
			w := conditioned("c2", "Degraded=True")
			w.DeletionTimestamp = &metav1.Time{Time: now}
			return w
		}()},
		wantHealthy: "True/AllHealthy: 1 of 1 clusters healthy",
		wantInSync:  "True/InSync: 1 of 1 clusters in sync",
	}, {
		name: "no work: no condition",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			works := map[string]*workv1.ManifestWork{}
			for _, w := range tt.works {
				works[w.Namespace] = w
			}
			conds := withConditions(nil, now, fleetConditions(fleetOf(works))...)
			assert.Equal(t, tt.wantHealthy, conditionLine(conds, ConditionFleetHealthy))
			assert.Equal(t, tt.wantInSync, conditionLine(conds, ConditionFleetInSync))
		})
	}
}

// conditionLine is "status/reason: message" of the condition of type t, ""
// when absent.
func conditionLine(conds []metav1.Condition, t string) string {
	c := apimeta.FindStatusCondition(conds, t)
	if c == nil {
		return ""
	}
	return fmt.Sprintf("%s/%s: %s", c.Status, c.Reason, c.Message)
}
