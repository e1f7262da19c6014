package conditionrules

import (
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Replaceable are the work-level conditions the agent writes itself that a
// user's condition rule of the same type replaces: the agent leaves the type
// to the rule's aggregate (see Aggregate), on whichever manifest the rule is.
// OCM v1.0.0 writes neither at the work level, so there a rule's is the only
// one.
var Replaceable = map[string]bool{
	workv1.WorkProgressing: true,
	workv1.WorkDegraded:    true,
}

// ReplacedByRule tells whether a condition rule of the work, on any
// manifest, has the replaceable type conditionType, so the agent must not
// write its own condition of that type.
func ReplacedByRule(work *workv1.ManifestWork, conditionType string) bool {
	if !Replaceable[conditionType] {
		return false
	}
	for _, cfg := range work.Spec.ManifestConfigs {
		for _, r := range cfg.ConditionRules {
			if r.Condition == conditionType {
				return true
			}
		}
	}
	return false
}

// SetOwn sets a work-level condition of the agent's own, unless a
// condition rule of the work has its type: the rule's aggregate replaces
// the agent's then, and an own condition left from before the rule goes.
func SetOwn(work *workv1.ManifestWork, conds *[]metav1.Condition, cond metav1.Condition) {
	if !ReplacedByRule(work, cond.Type) {
		apimeta.SetStatusCondition(conds, cond)
		return
	}
	if old := apimeta.FindStatusCondition(*conds, cond.Type); old != nil && old.Reason != workv1.ConditionRulesAggregated {
		apimeta.RemoveStatusCondition(conds, cond.Type)
	}
}
