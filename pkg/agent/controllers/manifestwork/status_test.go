package manifestwork

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// TestUserRuleReplacesOwnProgressing: a condition rule of type Progressing,
// on any manifest, replaces the work-level Progressing the agent writes; the
// rule's aggregate is kept, the agent's own is dropped.
func TestUserRuleReplacesOwnProgressing(t *testing.T) {
	cm := fixture.Config("", "configmaps", "team", "cm")
	other := fixture.Config("", "configmaps", "team", "not-in-the-work")
	ruled := metav1.Condition{Type: workv1.WorkProgressing, Status: metav1.ConditionTrue,
		Reason: workv1.ConditionRulesAggregated, Message: "from the rule"}
	own := metav1.Condition{Type: workv1.WorkProgressing, Status: metav1.ConditionTrue,
		Reason: workv1.WorkProgressingReasonFailed, Message: "from the agent"}

	cases := []struct {
		name    string
		configs []workv1.ManifestConfigOption
		before  []metav1.Condition
		failed  bool
		want    *metav1.Condition // nil: no Progressing
	}{
		{"no rule: the agent's", nil, nil, false,
			&metav1.Condition{Status: metav1.ConditionFalse, Reason: workv1.WorkProgressingReasonCompleted}},
		{"no rule: the agent's replaces an old aggregate", nil, []metav1.Condition{ruled}, true,
			&metav1.Condition{Status: metav1.ConditionTrue, Reason: workv1.WorkProgressingReasonFailed}},
		{"rule of another type: the agent's",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkDegraded, "false"))}, nil, false,
			&metav1.Condition{Status: metav1.ConditionFalse, Reason: workv1.WorkProgressingReasonCompleted}},
		{"rule: nothing before, nothing written",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkProgressing, "false"))}, nil, false,
			nil},
		{"rule: the rule's aggregate is kept",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkProgressing, "false"))},
			[]metav1.Condition{ruled}, true,
			&metav1.Condition{Status: metav1.ConditionTrue, Reason: workv1.ConditionRulesAggregated}},
		{"rule: the agent's from before goes",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkProgressing, "false"))},
			[]metav1.Condition{own}, true,
			nil},
		{"rule on a config naming no manifest of the work",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(other, fixture.CELRule(workv1.WorkProgressing, "false"))}, nil, false,
			nil},
		{"well-known rule of the type",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm,
				workv1.ConditionRule{Type: workv1.WellKnownConditionsType, Condition: workv1.WorkProgressing})}, nil, false,
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, "w").WithGeneration(2).WithManifest(fixture.ConfigMap("team", "cm", nil))
			for _, c := range tc.configs {
				b = b.WithConfig(c)
			}
			if len(tc.before) > 0 {
				b = b.WithCondition(tc.before...)
			}
			result := manifestResult{
				meta:   workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "team", Name: "cm"},
				exists: !tc.failed,
			}
			if tc.failed {
				result.err = errors.New("refused")
			}
			status := buildStatus(b.Build(), []manifestResult{result})

			got := apimeta.FindStatusCondition(status.Conditions, workv1.WorkProgressing)
			if tc.want == nil {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tc.want.Status, got.Status)
			assert.Equal(t, tc.want.Reason, got.Reason)
		})
	}
}
