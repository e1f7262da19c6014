package conditionrules

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// wellKnownFunc decides a well-known condition; it returns whether the
// condition holds and a human readable message.
type wellKnownFunc func(obj *unstructured.Unstructured) (bool, string)

// wellKnownRules holds the built-in conditions, keyed by group+kind and then
// by condition type. Add entries here to support more kinds.
var wellKnownRules = map[schema.GroupKind]map[string]wellKnownFunc{
	{Group: "batch", Kind: "Job"}: {
		workv1.ManifestComplete: jobComplete,
	},
	{Group: "", Kind: "Pod"}: {
		workv1.ManifestComplete: podComplete,
	},
}

// jobComplete: a Job is complete when its Complete or Failed condition is True.
func jobComplete(obj *unstructured.Unstructured) (bool, string) {
	conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok {
			continue
		}
		t, _ := m["type"].(string)
		s, _ := m["status"].(string)
		if (t == "Complete" || t == "Failed") && s == string(metav1.ConditionTrue) {
			return true, fmt.Sprintf("Job has condition %s=True", t)
		}
	}
	return false, "Job has neither a Complete nor a Failed condition that is True"
}

// podComplete: a Pod is complete when its phase is Succeeded or Failed.
func podComplete(obj *unstructured.Unstructured) (bool, string) {
	phase, _, _ := unstructured.NestedString(obj.Object, "status", "phase")
	if phase == "Succeeded" || phase == "Failed" {
		return true, fmt.Sprintf("Pod phase is %s", phase)
	}
	if phase == "" {
		return false, "Pod has no phase yet"
	}
	return false, fmt.Sprintf("Pod phase is %s", phase)
}

func evaluateWellKnown(obj *unstructured.Unstructured, condition string) (metav1.ConditionStatus, string, string) {
	gk := obj.GroupVersionKind().GroupKind()
	fn, ok := wellKnownRules[gk][condition]
	if !ok {
		kind := gk.Kind
		if gk.Group != "" {
			kind = gk.String()
		}
		return metav1.ConditionFalse, workv1.ConditionRuleInvalid,
			fmt.Sprintf("no well-known %s condition for %s", condition, kind)
	}
	done, msg := fn(obj)
	if done {
		return metav1.ConditionTrue, workv1.ConditionRuleEvaluated, msg
	}
	return metav1.ConditionFalse, workv1.ConditionRuleEvaluated, msg
}
