package conditionrules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// TestPrune: conditions of rules the work no longer has go (OCM v1.3.x);
// those of rules it has, and conditions of other origins, stay.
func TestPrune(t *testing.T) {
	cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	withReason := func(typ, reason string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: reason}
	}
	a, b := fixture.Config("", "configmaps", "team", "a"), fixture.Config("", "configmaps", "team", "b")

	cases := []struct {
		name          string
		configs       []workv1.ManifestConfigOption
		manifestA     []metav1.Condition
		work          []metav1.Condition
		wantManifestA []string
		wantWork      []string
	}{
		{"rules kept: everything stays",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(a, fixture.CELRule("Complete", "true"))},
			[]metav1.Condition{withReason("Applied", "AppliedManifestComplete"), withReason("Complete", workv1.ConditionRuleEvaluated)},
			[]metav1.Condition{withReason("Applied", "AppliedManifestWorkComplete"), withReason("Complete", workv1.ConditionRulesAggregated)},
			[]string{"Applied", "Complete"}, []string{"Applied", "Complete"}},
		{"rule removed: its conditions go, others stay",
			[]workv1.ManifestConfigOption{a},
			[]metav1.Condition{withReason("Applied", "AppliedManifestComplete"), withReason("Complete", workv1.ConditionRuleEvaluated),
				withReason("Ready", workv1.ConditionRuleExpressionError), withReason("Healthy", "Healthy")},
			[]metav1.Condition{withReason("Applied", "AppliedManifestWorkComplete"), withReason("Complete", workv1.ConditionRulesAggregated),
				withReason("Progressing", workv1.WorkProgressingReasonCompleted)},
			[]string{"Applied", "Healthy"}, []string{"Applied", "Progressing"}},
		{"every rule reason is pruned",
			nil,
			[]metav1.Condition{withReason("A", workv1.ConditionRuleInvalid), withReason("B", workv1.ConditionRuleInternalError)},
			nil, []string{}, []string{}},
		{"rule moved to another manifest: the aggregate stays, a's goes",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(b, fixture.CELRule("Complete", "true"))},
			[]metav1.Condition{withReason("Complete", workv1.ConditionRuleEvaluated)},
			[]metav1.Condition{withReason("Complete", workv1.ConditionRulesAggregated)},
			[]string{}, []string{"Complete"}},
		{"rules of a glob config stay",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(fixture.Config("", "configmaps", "*", "*"), fixture.CELRule("Complete", "true"))},
			[]metav1.Condition{withReason("Complete", workv1.ConditionRuleEvaluated)},
			[]metav1.Condition{withReason("Complete", workv1.ConditionRulesAggregated)},
			[]string{"Complete"}, []string{"Complete"}},
		{"rules of a later matching config are not the manifest's: they go",
			[]workv1.ManifestConfigOption{
				fixture.WithConditionRules(fixture.Config("", "configmaps", "*", "*"), fixture.CELRule("Ready", "true")),
				fixture.WithConditionRules(a, fixture.CELRule("Complete", "true")),
			},
			[]metav1.Condition{withReason("Complete", workv1.ConditionRuleEvaluated), withReason("Ready", workv1.ConditionRuleEvaluated)},
			[]metav1.Condition{withReason("Complete", workv1.ConditionRulesAggregated), withReason("Ready", workv1.ConditionRulesAggregated)},
			[]string{"Ready"}, []string{"Ready"}},
		{"rule on a config naming no manifest: the aggregate goes",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(fixture.Config("", "configmaps", "team", "gone"), fixture.CELRule("Complete", "true"))},
			nil,
			[]metav1.Condition{withReason("Complete", workv1.ConditionRulesAggregated)},
			[]string{}, []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wb := fixture.NewWork(fixture.Cluster, "w").
				WithManifestStatus(fixture.ManifestStatus(cms, "team", "a", tc.manifestA...), fixture.ManifestStatus(cms, "team", "b"))
			for _, c := range tc.configs {
				wb = wb.WithConfig(c)
			}
			if len(tc.work) > 0 {
				wb = wb.WithCondition(tc.work...)
			}
			work := wb.Build()
			status := work.Status.DeepCopy()
			Prune(work, status)
			assert.ElementsMatch(t, tc.wantManifestA, types(status.ResourceStatus.Manifests[0].Conditions))
			assert.ElementsMatch(t, tc.wantWork, types(status.Conditions))
		})
	}
}

func types(conds []metav1.Condition) []string {
	out := []string{}
	for _, c := range conds {
		out = append(out, c.Type)
	}
	return out
}
