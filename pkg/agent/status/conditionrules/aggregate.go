package conditionrules

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// precedence says, per condition type, which status the work takes: the
// first one that some manifest has. By default a False manifest makes the
// work False, then an Unknown one makes it Unknown; Progressing is the other
// way round, the work progresses while any manifest does. (OCM v1.3.x: OCM
// v1.0.0 aggregates no rule condition at all.)
var (
	defaultPrecedence = []metav1.ConditionStatus{metav1.ConditionFalse, metav1.ConditionUnknown, metav1.ConditionTrue}
	precedence        = map[string][]metav1.ConditionStatus{
		workv1.WorkProgressing: {metav1.ConditionTrue, metav1.ConditionUnknown, metav1.ConditionFalse},
	}
)

// Aggregate turns the manifests' rule conditions into work-level conditions:
// one per condition type used by any manifest, reason
// ConditionRulesAggregated, as OCM v1.3.x does.
//
// manifests holds the conditions of each manifest; only the types listed in
// ruleTypes (the condition types produced by condition rules) are considered,
// so Applied, Available and the like are ignored. The output follows the
// order of ruleTypes and omits types no manifest has.
//
// The status follows precedence. The message is that of the manifest when
// only one has the type, else "Aggregated from N manifest conditions". So
// the work is Complete when every manifest with completion rules is
// complete.
func Aggregate(manifests [][]metav1.Condition, ruleTypes []string, generation int64) []metav1.Condition {
	var out []metav1.Condition
	done := map[string]bool{}
	for _, t := range ruleTypes {
		if t == "" || done[t] {
			continue
		}
		done[t] = true

		counts := map[metav1.ConditionStatus]int{}
		total, message := 0, ""
		for _, conds := range manifests {
			c := findCondition(conds, t)
			if c == nil {
				continue
			}
			total++
			counts[c.Status]++
			message = c.Message
		}
		if total == 0 {
			continue
		}
		if total > 1 || message == "" {
			message = fmt.Sprintf("Aggregated from %d manifest conditions", total)
		}
		out = append(out, metav1.Condition{
			Type:               t,
			Status:             aggregateStatus(t, counts),
			Reason:             workv1.ConditionRulesAggregated,
			Message:            workv1.Shorten(message, workv1.MaxConditionMessageLength, ""),
			ObservedGeneration: generation,
		})
	}
	return out
}

// aggregateStatus is the first status of the type's precedence that some
// manifest has; a status outside the three counts as Unknown.
func aggregateStatus(t string, counts map[metav1.ConditionStatus]int) metav1.ConditionStatus {
	order, ok := precedence[t]
	if !ok {
		order = defaultPrecedence
	}
	for _, s := range order {
		if counts[s] > 0 {
			return s
		}
	}
	return metav1.ConditionUnknown
}

func findCondition(conds []metav1.Condition, t string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}
