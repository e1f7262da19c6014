package health

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Manifest is one manifest's Healthy condition, with the object it is about
// ("Deployment ns/name").
type Manifest struct {
	Ref       string
	Condition *metav1.Condition // nil: not judged yet
}

// State classifies a Healthy condition: Degraded, Progressing, Unknown or
// Healthy (NoHealthCheck counts as Healthy). A False condition of another
// reason, as a condition rule writes, counts as Progressing.
func State(c metav1.Condition) string {
	switch c.Status {
	case metav1.ConditionTrue:
		return workv1.HealthyReasonHealthy
	case metav1.ConditionFalse:
		if c.Reason == workv1.HealthyReasonDegraded {
			return workv1.HealthyReasonDegraded
		}
		return workv1.HealthyReasonProgressing
	}
	return workv1.HealthyReasonUnknown
}

// maxNamed bounds how many manifests the work's message names.
const maxNamed = 3

// Aggregate is the work's Healthy condition: Degraded before Progressing
// before Unknown before True, with a message naming the manifests that hold
// it back. ok is false while some manifest has not been judged yet.
func Aggregate(manifests []Manifest, generation int64) (cond metav1.Condition, ok bool) {
	byState := map[string][]string{}
	for _, m := range manifests {
		if m.Condition == nil {
			return metav1.Condition{}, false
		}
		state := State(*m.Condition)
		if state != workv1.HealthyReasonHealthy {
			byState[state] = append(byState[state], fmt.Sprintf("%s is %s (%s)", m.Ref, state, m.Condition.Message))
		}
	}
	cond = metav1.Condition{Type: workv1.WorkHealthy, ObservedGeneration: generation}
	var held []string
	for _, state := range []string{workv1.HealthyReasonDegraded, workv1.HealthyReasonProgressing, workv1.HealthyReasonUnknown} {
		if len(byState[state]) == 0 {
			continue
		}
		if cond.Reason == "" {
			cond.Reason = state
		}
		held = append(held, byState[state]...)
	}
	switch cond.Reason {
	case "":
		cond.Status, cond.Reason = metav1.ConditionTrue, workv1.HealthyReasonHealthy
		cond.Message = fmt.Sprintf("All %d resources are healthy", len(manifests))
		return cond, true
	case workv1.HealthyReasonUnknown:
		cond.Status = metav1.ConditionUnknown
	default:
		cond.Status = metav1.ConditionFalse
	}
	named := held[:min(len(held), maxNamed)]
	cond.Message = fmt.Sprintf("%d of %d resources are not healthy: %s", len(held), len(manifests), strings.Join(named, "; "))
	if more := len(held) - len(named); more > 0 {
		cond.Message += fmt.Sprintf("; and %d more", more)
	}
	return cond, true
}
