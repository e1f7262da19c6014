package conditionrules

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// TestProduces: Produces says whether Evaluate gives the rule's condition on
// a readable object of the kind.
func TestProduces(t *testing.T) {
	cases := []struct {
		name string
		rule workv1.ConditionRule
		obj  *unstructured.Unstructured
		want bool
	}{
		{"well-known with a built-in rule", wellKnown(workv1.ManifestComplete), job("Complete", "True"), true},
		{"well-known for a kind without one", wellKnown(workv1.ManifestComplete), newObj("apps/v1", "Deployment", nil), false},
		{"well-known for a condition without one", wellKnown(workv1.ManifestHealthy), job("Complete", "True"), false},
		{"well-known of another version", wellKnown(workv1.ManifestComplete), newObj("batch/v2", "Job", nil), false},
		{"CEL", celRule(workv1.ManifestHealthy, "true"), pod("Running"), true},
		{"CEL that fails", celRule(workv1.ManifestHealthy, "object.nope.nope"), pod("Running"), true},
		{"invalid type", workv1.ConditionRule{Type: "Bogus", Condition: workv1.ManifestHealthy}, pod("Running"), true},
		{"no condition type", celRule("", "true"), pod("Running"), false},
	}
	e := NewEvaluator(0)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gvk := tc.obj.GroupVersionKind()
			got := e.Evaluate(context.Background(), tc.obj, []workv1.ConditionRule{tc.rule}, 1)
			assert.Equal(t, tc.want, len(got) == 1, "Evaluate: %v", got)
			assert.Equal(t, tc.want, Produces(tc.rule, gvk))
			assert.Equal(t, tc.want, ProducesType([]workv1.ConditionRule{celRule("Other", "true"), tc.rule}, gvk, tc.rule.Condition))
		})
	}
}
