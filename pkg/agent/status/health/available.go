package health

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// The Available conditions, as OCM's agent writes them: a manifest is
// available when its object exists; the work aggregates its manifests'.

// ManifestAvailable is the Available condition of a manifest whose object
// exists.
func ManifestAvailable(generation int64) metav1.Condition {
	return metav1.Condition{
		Type: workv1.ManifestAvailable, Status: metav1.ConditionTrue, ObservedGeneration: generation,
		Reason: workv1.ManifestAvailableReasonAvailable, Message: workv1.ManifestAvailableMessageAvailable,
	}
}

// WorkAvailable aggregates the manifests' Available conditions as OCM does:
// not available wins over unknown, which wins over available; with no
// manifest available at all, it is unknown.
func WorkAvailable(conditions []metav1.Condition, generation int64) metav1.Condition {
	var available, notAvailable, unknown int
	for _, cond := range conditions {
		switch cond.Status {
		case metav1.ConditionTrue:
			available++
		case metav1.ConditionFalse:
			notAvailable++
		default:
			unknown++
		}
	}
	total := len(conditions)
	cond := metav1.Condition{Type: workv1.WorkAvailable, ObservedGeneration: generation}
	switch {
	case notAvailable > 0:
		cond.Status = metav1.ConditionFalse
		cond.Reason = workv1.WorkAvailableReasonNotAvailable
		cond.Message = fmt.Sprintf("%d of %d resources are not available", notAvailable, total)
	case unknown > 0:
		cond.Status = metav1.ConditionUnknown
		cond.Reason = workv1.WorkAvailableReasonUnknown
		cond.Message = fmt.Sprintf("%d of %d resources have unknown status", unknown, total)
	case available == 0:
		cond.Status = metav1.ConditionUnknown
		cond.Reason = workv1.WorkAvailableReasonUnknown
		cond.Message = workv1.WorkAvailableMessageNoneAvailable
	default:
		cond.Status = metav1.ConditionTrue
		cond.Reason = workv1.WorkAvailableReasonAvailable
		cond.Message = workv1.WorkAvailableMessageAvailable
	}
	return cond
}
