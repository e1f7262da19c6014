package conditionrules

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Aggregate turns the manifests' rule conditions into work-level conditions:
// one per condition type used by any manifest, reason
// ConditionRulesAggregated.
//
// manifests holds the conditions of each manifest; only the types listed in
// ruleTypes (the condition types produced by condition rules) are considered,
// so Applied, Available and the like are ignored. The output follows the
// order of ruleTypes and omits types no manifest has.
//
// A type is True when every manifest that has it is True, False when any of
// them is False, and Unknown otherwise. The message is the first True one
// when all are True, else that of the first False manifest, else that of the
// first Unknown one. So the work is Complete when every manifest with
// completion rules is complete.
func Aggregate(manifests [][]metav1.Condition, ruleTypes []string, generation int64) []metav1.Condition {
	var out []metav1.Condition
	done := map[string]bool{}
	for _, t := range ruleTypes {
		if t == "" || done[t] {
			continue
		}
		done[t] = true

		var firstTrue, firstFalse, firstUnknown *metav1.Condition
		total, trues := 0, 0
		for _, conds := range manifests {
			c := findCondition(conds, t)
			if c == nil {
				continue
			}
			total++
			switch c.Status {
			case metav1.ConditionTrue:
				trues++
				if firstTrue == nil {
					firstTrue = c
				}
			case metav1.ConditionFalse:
				if firstFalse == nil {
					firstFalse = c
				}
			default:
				if firstUnknown == nil {
					firstUnknown = c
				}
			}
		}
		if total == 0 {
			continue
		}

		status, pick := metav1.ConditionTrue, firstTrue
		switch {
		case firstFalse != nil:
			status, pick = metav1.ConditionFalse, firstFalse
		case firstUnknown != nil:
			status, pick = metav1.ConditionUnknown, firstUnknown
		}
		message := pick.Message
		if message == "" {
			message = fmt.Sprintf("%d of %d manifests have condition %s=True", trues, total, t)
		}
		out = append(out, metav1.Condition{
			Type:               t,
			Status:             status,
			Reason:             workv1.ConditionRulesAggregated,
			Message:            workwriter.TruncateMessage(message),
			ObservedGeneration: generation,
		})
	}
	return out
}

func findCondition(conds []metav1.Condition, t string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}
