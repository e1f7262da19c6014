package conditionrules

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// ruleReasons are the reasons of the manifest conditions condition rules
// write.
var ruleReasons = map[string]bool{
	workv1.ConditionRuleEvaluated:       true,
	workv1.ConditionRuleInvalid:         true,
	workv1.ConditionRuleExpressionError: true,
	workv1.ConditionRuleInternalError:   true,
}

// Prune drops from a status the conditions written for condition rules the
// work no longer has: a manifest's rule conditions whose type none of its
// rules has, and the work's aggregates whose type no rule of a manifest of
// the work has. So removing a rule removes its conditions, as in OCM v1.3.x
// (v1.0.0 leaves them). A manifest that keeps its rule keeps its condition,
// also when the object is gone or the manifest is complete.
func Prune(work *workv1.ManifestWork, status *workv1.ManifestWorkStatus) {
	used := map[string]bool{}
	for i := range status.ResourceStatus.Manifests {
		m := &status.ResourceStatus.Manifests[i]
		types := ruleTypesOf(work, m.ResourceMeta)
		for t := range types {
			used[t] = true
		}
		m.Conditions = slices.DeleteFunc(m.Conditions, func(c metav1.Condition) bool {
			return ruleReasons[c.Reason] && !types[c.Type]
		})
	}
	status.Conditions = slices.DeleteFunc(status.Conditions, func(c metav1.Condition) bool {
		return c.Reason == workv1.ConditionRulesAggregated && !used[c.Type]
	})
}

// ruleTypesOf are the condition types of the rules of a manifest's
// configuration: the one manifest.ConfigOf merges from the manifestConfigs
// that match it, globs included, as the rules evaluated are.
func ruleTypesOf(work *workv1.ManifestWork, meta workv1.ManifestResourceMeta) map[string]bool {
	types := map[string]bool{}
	if cfg := manifest.ConfigOf(work, meta); cfg != nil {
		for _, r := range cfg.ConditionRules {
			types[r.Condition] = true
		}
	}
	return types
}
