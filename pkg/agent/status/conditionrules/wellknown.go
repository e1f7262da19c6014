package conditionrules

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// wellKnownRules are the built-in rules of WellKnownConditions, keyed by
// group/version/kind and condition type; they are evaluated as CEL rules.
// They are OCM's: the same kinds, results and messages. Add entries here to
// support more kinds.
var wellKnownRules = map[schema.GroupVersionKind]map[string]workv1.ConditionRule{
	{Group: "batch", Version: "v1", Kind: "Job"}: {
		// A Job is finished once it has a Complete or Failed condition
		// that is True.
		workv1.ManifestComplete: {
			CelExpressions: []string{`hasConditions(object.status) &&
				object.status.conditions.exists(c, c.type in ['Complete', 'Failed'] && c.status == 'True')`},
			MessageExpression: `result ? "Job is finished" : "Job is not finished"`,
		},
	},
	{Group: "", Version: "v1", Kind: "Pod"}: {
		// A Pod is finished once its phase is Succeeded or Failed.
		workv1.ManifestComplete: {
			CelExpressions:    []string{`object.status.phase in ['Succeeded', 'Failed']`},
			MessageExpression: `"Pod is in phase " + object.status.phase`,
		},
	},
}

// wellKnownRule returns the built-in rule of a kind and condition type.
func wellKnownRule(gvk schema.GroupVersionKind, condition string) (workv1.ConditionRule, bool) {
	rule, ok := wellKnownRules[gvk][condition]
	rule.Type = workv1.CELConditionExpressionsType
	rule.Condition = condition
	return rule, ok
}

// Produces tells whether a rule gives a manifest of kind gvk a condition
// when its object can be read. A rule without a condition type never does;
// nor does a WellKnownConditions rule for a kind and condition that have no
// built-in rule (see Evaluate). Every other rule does, an invalid one with
// reason ConditionRuleInvalid.
func Produces(rule workv1.ConditionRule, gvk schema.GroupVersionKind) bool {
	if rule.Condition == "" {
		return false
	}
	if rule.Type == workv1.WellKnownConditionsType {
		_, ok := wellKnownRules[gvk][rule.Condition]
		return ok
	}
	return true
}

// ProducesType tells whether some rule of rules gives a manifest of kind gvk
// a condition of type condition.
func ProducesType(rules []workv1.ConditionRule, gvk schema.GroupVersionKind, condition string) bool {
	for _, r := range rules {
		if r.Condition == condition && Produces(r, gvk) {
			return true
		}
	}
	return false
}

// GVKOf is the kind of a manifest's object.
func GVKOf(meta workv1.ManifestResourceMeta) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: meta.Group, Version: meta.Version, Kind: meta.Kind}
}
