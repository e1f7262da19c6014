package replicaset

import (
	"fmt"
	"slices"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// Conditions of a replica set on the health and drift of its works, on
// every cluster where it has one, whatever their template: what runs there.
const (
	// ConditionFleetHealthy is True when every work reports Healthy=True.
	// Its message counts the healthy clusters and names the others.
	ConditionFleetHealthy = "FleetHealthy"
	// ConditionFleetInSync is False when some work reports InSync=False:
	// someone changed on the cluster what the work sets.
	ConditionFleetInSync = "FleetInSync"
)

// Reasons of FleetHealthy and FleetInSync.
const (
	ReasonAllHealthy        = "AllHealthy"
	ReasonClustersDegraded  = "ClustersDegraded"   // some work reports Degraded=True
	ReasonClustersUnhealthy = "ClustersNotHealthy" // some work is not Healthy yet, none Degraded
	ReasonHealthNotReported = "HealthNotReported"  // no work reports Healthy (agents that do not judge health)
	ReasonInSync            = "InSync"
	ReasonDrifted           = "Drifted"
	ReasonInSyncNotReported = "InSyncNotReported" // no work reports InSync
)

// fleet counts the clusters with a live work of the replica set by what
// their works report. The name lists are sorted.
type fleet struct {
	clusters int
	// counts are the works' Applied, Available and Progressing (as the
	// summary counts them, for every live work whatever its template).
	counts                        workv1alpha1.ManifestWorkReplicaSetSummary
	healthy, healthReported       int
	inSyncReported                int
	degraded, notHealthy, drifted []string
}

// fleetOf counts the live works of works, one per cluster.
func fleetOf(works map[string]*workv1.ManifestWork) fleet {
	var f fleet
	for cluster, w := range works {
		if w.DeletionTimestamp != nil {
			continue
		}
		f.clusters++
		conds := w.Status.Conditions
		count(&f.counts, conds)
		healthy := apimeta.FindStatusCondition(conds, workv1.WorkHealthy)
		switch {
		case apimeta.IsStatusConditionTrue(conds, workv1.WorkDegraded):
			f.degraded = append(f.degraded, cluster)
		case healthy != nil && healthy.Status == metav1.ConditionTrue:
			f.healthy++
		case healthy != nil:
			f.notHealthy = append(f.notHealthy, cluster)
		}
		if healthy != nil {
			f.healthReported++
		}
		if c := apimeta.FindStatusCondition(conds, workv1.WorkInSync); c != nil {
			f.inSyncReported++
			if c.Status == metav1.ConditionFalse {
				f.drifted = append(f.drifted, cluster)
			}
		}
	}
	slices.Sort(f.degraded)
	slices.Sort(f.notHealthy)
	slices.Sort(f.drifted)
	return f
}

// fleetConditions are FleetHealthy and FleetInSync from f; without any
// work, both are absent.
func fleetConditions(f fleet) []condition {
	if f.clusters == 0 {
		return []condition{absent(ConditionFleetHealthy), absent(ConditionFleetInSync)}
	}
	return []condition{fleetHealthy(f), fleetInSync(f)}
}

func fleetHealthy(f fleet) condition {
	msg := fmt.Sprintf("%d of %d clusters healthy", f.healthy, f.clusters)
	if len(f.degraded) > 0 {
		msg += "; degraded: " + named(f.degraded)
	}
	if len(f.notHealthy) > 0 {
		msg += "; not healthy yet: " + named(f.notHealthy)
	}
	if missing := f.clusters - f.healthReported; missing > 0 && f.healthReported > 0 {
		msg += fmt.Sprintf("; %d do not report Healthy", missing)
	}
	switch {
	case len(f.degraded) > 0:
		return withStatus(ConditionFleetHealthy, metav1.ConditionFalse, ReasonClustersDegraded, msg)
	case f.healthReported == 0:
		return withStatus(ConditionFleetHealthy, metav1.ConditionUnknown, ReasonHealthNotReported,
			fmt.Sprintf("None of the %d clusters' works reports the condition Healthy", f.clusters))
	case f.healthy == f.clusters:
		return withStatus(ConditionFleetHealthy, metav1.ConditionTrue, ReasonAllHealthy, msg)
	default:
		return withStatus(ConditionFleetHealthy, metav1.ConditionFalse, ReasonClustersUnhealthy, msg)
	}
}

func fleetInSync(f fleet) condition {
	switch {
	case len(f.drifted) > 0:
		return withStatus(ConditionFleetInSync, metav1.ConditionFalse, ReasonDrifted,
			fmt.Sprintf("%d of %d clusters drifted: %s", len(f.drifted), f.clusters, named(f.drifted)))
	case f.inSyncReported == 0:
		return withStatus(ConditionFleetInSync, metav1.ConditionUnknown, ReasonInSyncNotReported,
			fmt.Sprintf("None of the %d clusters' works reports the condition InSync", f.clusters))
	default:
		msg := fmt.Sprintf("%d of %d clusters in sync", f.inSyncReported, f.clusters)
		if missing := f.clusters - f.inSyncReported; missing > 0 {
			msg += fmt.Sprintf("; %d do not report InSync", missing)
		}
		return withStatus(ConditionFleetInSync, metav1.ConditionTrue, ReasonInSync, msg)
	}
}
