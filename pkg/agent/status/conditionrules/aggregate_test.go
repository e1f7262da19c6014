package conditionrules

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func cond(t string, s metav1.ConditionStatus, msg string) metav1.Condition {
	return metav1.Condition{Type: t, Status: s, Reason: workv1.ConditionRuleEvaluated, Message: msg}
}

func TestAggregate(t *testing.T) {
	const (
		tr = metav1.ConditionTrue
		fa = metav1.ConditionFalse
		un = metav1.ConditionUnknown
	)
	applied := cond(workv1.ManifestApplied, tr, "applied")

	type out struct {
		typ    string
		status metav1.ConditionStatus
		msg    string
	}
	cases := []struct {
		name      string
		manifests [][]metav1.Condition
		ruleTypes []string
		want      []out
	}{
		{"no manifests", nil, []string{"Complete"}, nil},
		{"no rule types", [][]metav1.Condition{{cond("Complete", tr, "a")}}, nil, nil},
		{"type used by no manifest", [][]metav1.Condition{{applied}}, []string{"Complete"}, nil},
		{"one manifest gives its message",
			[][]metav1.Condition{{applied, cond("Complete", fa, "a")}, {applied}},
			[]string{"Complete"}, []out{{"Complete", fa, "a"}}},
		{"one manifest without message",
			[][]metav1.Condition{{cond("Complete", tr, "")}},
			[]string{"Complete"}, []out{{"Complete", tr, "Aggregated from 1 manifest conditions"}}},
		{"all true",
			[][]metav1.Condition{{applied, cond("Complete", tr, "a")}, {cond("Complete", tr, "b")}},
			[]string{"Complete"}, []out{{"Complete", tr, "Aggregated from 2 manifest conditions"}}},
		{"any false wins over unknown",
			[][]metav1.Condition{{cond("Complete", tr, "a")}, {cond("Complete", un, "u")}, {cond("Complete", fa, "f")}},
			[]string{"Complete"}, []out{{"Complete", fa, "Aggregated from 3 manifest conditions"}}},
		{"unknown when no false",
			[][]metav1.Condition{{cond("Complete", tr, "a")}, {cond("Complete", un, "gone")}},
			[]string{"Complete"}, []out{{"Complete", un, "Aggregated from 2 manifest conditions"}}},
		{"odd status counts as unknown",
			[][]metav1.Condition{{cond("Complete", "Maybe", "m")}},
			[]string{"Complete"}, []out{{"Complete", un, "m"}}},
		// OCM v1.3.x: the work is Progressing while any manifest is.
		{"progressing: any true wins",
			[][]metav1.Condition{{cond("Progressing", fa, "")}, {cond("Progressing", un, "")}, {cond("Progressing", tr, "")}},
			[]string{"Progressing"}, []out{{"Progressing", tr, "Aggregated from 3 manifest conditions"}}},
		{"progressing: unknown over false",
			[][]metav1.Condition{{cond("Progressing", fa, "")}, {cond("Progressing", un, "")}},
			[]string{"Progressing"}, []out{{"Progressing", un, "Aggregated from 2 manifest conditions"}}},
		{"progressing: false when all false",
			[][]metav1.Condition{{cond("Progressing", fa, "")}, {cond("Progressing", fa, "")}},
			[]string{"Progressing"}, []out{{"Progressing", fa, "Aggregated from 2 manifest conditions"}}},
		{"degraded: any false wins as by default",
			[][]metav1.Condition{{cond("Degraded", tr, "")}, {cond("Degraded", fa, "")}},
			[]string{"Degraded"}, []out{{"Degraded", fa, "Aggregated from 2 manifest conditions"}}},
		{"manifests without the type are ignored",
			[][]metav1.Condition{{applied}, {applied, cond("Complete", tr, "done")}, {}},
			[]string{"Complete"}, []out{{"Complete", tr, "done"}}},
		{"several types in ruleTypes order, duplicates ignored",
			[][]metav1.Condition{
				{cond("Complete", tr, "c1"), cond("Ready", fa, "r1")},
				{cond("Complete", tr, "c2")},
			},
			[]string{"Ready", "Complete", "Ready", "", "Absent"},
			[]out{{"Ready", fa, "r1"}, {"Complete", tr, "Aggregated from 2 manifest conditions"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Aggregate(tc.manifests, tc.ruleTypes, 9)
			if !assert.Len(t, got, len(tc.want)) {
				return
			}
			for i, w := range tc.want {
				assert.Equal(t, w.typ, got[i].Type)
				assert.Equal(t, w.status, got[i].Status, w.typ)
				assert.Equal(t, w.msg, got[i].Message, w.typ)
				assert.Equal(t, workv1.ConditionRulesAggregated, got[i].Reason)
				assert.Equal(t, int64(9), got[i].ObservedGeneration)
			}
		})
	}
}

// TestEvaluateThenAggregateComplete: the work is Complete when every manifest
// with completion rules is complete.
func TestEvaluateThenAggregateComplete(t *testing.T) {
	e := NewEvaluator(0)
	rules := []workv1.ConditionRule{wellKnown(workv1.ManifestComplete)}
	done := e.Evaluate(context.Background(), job("Complete", "True"), rules, 2)
	running := e.Evaluate(context.Background(), pod("Running"), rules, 2)
	noRules := []metav1.Condition{cond(workv1.ManifestApplied, metav1.ConditionTrue, "")}

	got := Aggregate([][]metav1.Condition{done, noRules}, []string{workv1.WorkComplete}, 2)
	assert.Equal(t, metav1.ConditionTrue, got[0].Status)

	got = Aggregate([][]metav1.Condition{done, running, noRules}, []string{workv1.WorkComplete}, 2)
	assert.Equal(t, metav1.ConditionFalse, got[0].Status)
	assert.Equal(t, "Aggregated from 2 manifest conditions", got[0].Message)
}
