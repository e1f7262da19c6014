package conditionrules

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func newObj(apiVersion, kind string, status map[string]any) *unstructured.Unstructured {
	o := map[string]any{
		"apiVersion": apiVersion,
		"kind":       kind,
		"metadata":   map[string]any{"name": "x", "namespace": "default"},
	}
	if status != nil {
		o["status"] = status
	}
	return &unstructured.Unstructured{Object: o}
}

func job(condType, condStatus string) *unstructured.Unstructured {
	if condType == "" {
		return newObj("batch/v1", "Job", map[string]any{"active": int64(1)})
	}
	return newObj("batch/v1", "Job", map[string]any{
		"conditions": []any{
			map[string]any{"type": "Suspended", "status": "False"},
			map[string]any{"type": condType, "status": condStatus},
		},
	})
}

func pod(phase string) *unstructured.Unstructured {
	if phase == "" {
		return newObj("v1", "Pod", nil)
	}
	return newObj("v1", "Pod", map[string]any{"phase": phase})
}

func wellKnown(cond string) workv1.ConditionRule {
	return workv1.ConditionRule{Type: workv1.WellKnownConditionsType, Condition: cond}
}

func celRule(cond string, exprs ...string) workv1.ConditionRule {
	return workv1.ConditionRule{Type: workv1.CELConditionExpressionsType, Condition: cond, CelExpressions: exprs}
}

func withMessage(r workv1.ConditionRule, msg, msgExpr string) workv1.ConditionRule {
	r.Message = msg
	r.MessageExpression = msgExpr
	return r
}

type want struct {
	status  metav1.ConditionStatus
	reason  string
	message string // substring
}

func TestEvaluateSingleRule(t *testing.T) {
	cr := newObj("example.com/v1", "Widget", map[string]any{
		"replicas": int64(3),
		"ready":    int64(3),
		"phase":    "Done",
		"items":    []any{"a", "b"},
		"conditions": []any{
			map[string]any{"type": "Complete", "status": "True"},
		},
	})

	cases := []struct {
		name string
		obj  *unstructured.Unstructured
		rule workv1.ConditionRule
		want want
	}{
		// Well-known rules.
		{"job complete", job("Complete", "True"), wellKnown("Complete"),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Complete=True"}},
		{"job failed", job("Failed", "True"), wellKnown("Complete"),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Failed=True"}},
		{"job complete false", job("Complete", "False"), wellKnown("Complete"),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, "neither"}},
		{"job running", job("", ""), wellKnown("Complete"),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, "neither"}},
		{"pod succeeded", pod("Succeeded"), wellKnown("Complete"),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Succeeded"}},
		{"pod failed", pod("Failed"), wellKnown("Complete"),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Failed"}},
		{"pod running", pod("Running"), wellKnown("Complete"),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, "Running"}},
		{"pod without status", pod(""), wellKnown("Complete"),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, "no phase"}},
		{"well-known unknown kind", newObj("apps/v1", "Deployment", nil), wellKnown("Complete"),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "no well-known Complete condition for Deployment.apps"}},
		{"well-known core unknown kind", newObj("v1", "ConfigMap", nil), wellKnown("Complete"),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "no well-known Complete condition for ConfigMap"}},
		{"well-known Job in other group", newObj("example.com/v1", "Job", nil), wellKnown("Complete"),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "for Job.example.com"}},
		{"well-known unknown condition", job("Complete", "True"), wellKnown("Available"),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "no well-known Available condition for Job.batch"}},
		{"well-known missing object", nil, wellKnown("Complete"),
			want{metav1.ConditionUnknown, workv1.ConditionRuleEvaluated, "does not exist"}},

		// CEL rules.
		{"cel true", cr, celRule("Complete", "object.status.ready == object.status.replicas"),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "all CEL expressions evaluated to true"}},
		{"cel false", cr, celRule("Complete", "object.status.phase == 'Running'"),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, `"object.status.phase == 'Running'" evaluated to false`}},
		{"cel AND all true", cr, celRule("Complete", "object.status.ready > 0", "size(object.status.items) == 2"),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, ""}},
		{"cel AND one false", cr, celRule("Complete", "object.status.ready > 0", "size(object.status.items) == 5"),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, "size(object.status.items) == 5"}},
		{"cel false stops before error", cr, celRule("Complete", "false", "object.status.nope"),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, `"false" evaluated to false`}},
		{"cel spec example", cr, withMessage(celRule("Complete",
			"object.status.conditions.filter(c, c.type == 'Complete' || c.type == 'Failed').exists(c, c.status == 'True')"),
			"", `result ? "Custom resource is complete" : "Custom resource is not complete"`),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Custom resource is complete"}},
		{"cel ext strings", cr, celRule("Complete", "object.status.phase.lowerAscii() == 'done'"),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, ""}},
		{"cel has on missing field", cr, celRule("Complete", "has(object.status.missing)"),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, ""}},
		{"cel static message", cr, withMessage(celRule("Complete", "true"), "static message", ""),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "static message"}},
		{"messageExpression sees result false", cr, withMessage(celRule("Complete", "object.status.ready < 2"),
			"ignored", `result ? "done" : "not done, phase " + object.status.phase`),
			want{metav1.ConditionFalse, workv1.ConditionRuleEvaluated, "not done, phase Done"}},
		{"messageExpression sees result true", cr, withMessage(celRule("Complete", "true"),
			"", `"result=" + string(result)`),
			want{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "result=true"}},
		{"empty expressions", cr, celRule("Complete"),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "celExpressions must not be empty"}},
		{"syntax error", cr, celRule("Complete", "object.status.ready =="),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "Syntax error"}},
		{"undeclared reference", cr, celRule("Complete", "obj.status.ready == 1"),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "undeclared reference"}},
		{"result not visible in celExpressions", cr, celRule("Complete", "result"),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "undeclared reference"}},
		{"syntax error with missing object", nil, celRule("Complete", "1 +"),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "Syntax error"}},
		{"messageExpression syntax error", cr, withMessage(celRule("Complete", "true"), "", `"a" +`),
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "messageExpression"}},
		{"non-bool result", cr, celRule("Complete", "object.status.replicas"),
			want{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "want bool"}},
		{"non-bool string result", cr, celRule("Complete", "'yes'"),
			want{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "returned string, want bool"}},
		{"missing field", cr, celRule("Complete", "object.status.missing == 'x'"),
			want{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "no such key: missing"}},
		{"runtime division by zero", cr, celRule("Complete", "object.status.ready / 0 == 1"),
			want{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "division by zero"}},
		{"messageExpression non-string", cr, withMessage(celRule("Complete", "true"), "", "result"),
			want{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "want string"}},
		{"messageExpression runtime error", cr, withMessage(celRule("Complete", "true"), "", "object.status.nope"),
			want{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "no such key: nope"}},
		{"cel missing object", nil, celRule("Complete", "object.status.ready > 0"),
			want{metav1.ConditionUnknown, workv1.ConditionRuleEvaluated, "does not exist"}},

		// Other rule types.
		{"unknown rule type", cr, workv1.ConditionRule{Type: "Rego", Condition: "Complete"},
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, `unknown condition rule type "Rego"`}},
		{"empty rule type", nil, workv1.ConditionRule{Condition: "Complete"},
			want{metav1.ConditionFalse, workv1.ConditionRuleInvalid, "unknown condition rule type"}},
	}

	e := NewEvaluator(0)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := e.Evaluate(tc.obj, []workv1.ConditionRule{tc.rule}, 7)
			require.Len(t, got, 1)
			c := got[0]
			assert.Equal(t, tc.rule.Condition, c.Type)
			assert.Equal(t, tc.want.status, c.Status)
			assert.Equal(t, tc.want.reason, c.Reason)
			assert.Contains(t, c.Message, tc.want.message)
			assert.NotEmpty(t, c.Message)
			assert.Equal(t, int64(7), c.ObservedGeneration)
		})
	}
}

func TestEvaluateCostLimit(t *testing.T) {
	obj := newObj("example.com/v1", "Widget", map[string]any{"n": int64(1)})
	expensive := "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, a + b + c > 0)))"
	rules := []workv1.ConditionRule{celRule("Complete", expensive)}

	got := NewEvaluator(50).Evaluate(obj, rules, 1)
	require.Len(t, got, 1)
	assert.Equal(t, metav1.ConditionFalse, got[0].Status)
	assert.Equal(t, workv1.ConditionRuleExpressionError, got[0].Reason)
	assert.Contains(t, got[0].Message, "cost limit exceeded")

	// The same expression fits in the default limit.
	got = NewEvaluator(0).Evaluate(obj, rules, 1)
	require.Len(t, got, 1)
	assert.Equal(t, metav1.ConditionTrue, got[0].Status)
	assert.Equal(t, workv1.ConditionRuleEvaluated, got[0].Reason)
}

func TestEvaluateMultipleConditionTypes(t *testing.T) {
	obj := newObj("batch/v1", "Job", map[string]any{
		"succeeded":  int64(1),
		"conditions": []any{map[string]any{"type": "Complete", "status": "True"}},
	})
	rules := []workv1.ConditionRule{
		wellKnown("Complete"),
		withMessage(celRule("Succeeded", "object.status.succeeded >= 1"), "", `result ? "succeeded" : "pending"`),
		celRule("Failed", "has(object.status.failed) && object.status.failed > 0"),
		celRule("Broken", "object.status.nope"),
		celRule("Complete", "false"), // duplicate type: skipped
		celRule("", "true"),          // no type: skipped
	}
	got := NewEvaluator(0).Evaluate(obj, rules, 3)
	require.Len(t, got, 4)

	expect := []struct {
		typ    string
		status metav1.ConditionStatus
		reason string
	}{
		{"Complete", metav1.ConditionTrue, workv1.ConditionRuleEvaluated},
		{"Succeeded", metav1.ConditionTrue, workv1.ConditionRuleEvaluated},
		{"Failed", metav1.ConditionFalse, workv1.ConditionRuleEvaluated},
		{"Broken", metav1.ConditionFalse, workv1.ConditionRuleExpressionError},
	}
	for i, w := range expect {
		assert.Equal(t, w.typ, got[i].Type, "condition %d", i)
		assert.Equal(t, w.status, got[i].Status, "condition %s", w.typ)
		assert.Equal(t, w.reason, got[i].Reason, "condition %s", w.typ)
		assert.Equal(t, int64(3), got[i].ObservedGeneration)
	}
	assert.Equal(t, "succeeded", got[1].Message)

	assert.Empty(t, NewEvaluator(0).Evaluate(obj, nil, 1))
}

func TestProgramCacheReused(t *testing.T) {
	e := NewEvaluator(0)
	obj := newObj("example.com/v1", "Widget", map[string]any{"ready": true})
	rules := []workv1.ConditionRule{
		withMessage(celRule("Complete", "object.status.ready", "true"), "", `result ? "yes" : "no"`),
		celRule("Other", "object.status.ready"), // same text as above
		celRule("Bad", "1 +"),
	}
	// Same expression text as a message expression is compiled separately.
	rules = append(rules, withMessage(celRule("Msg", "true"), "", "object.status.ready ? 'a' : 'b'"))

	first := e.Evaluate(obj, rules, 1)
	// object.status.ready, true, message expr, "1 +", message expr of Msg.
	assert.Equal(t, int64(5), e.compiles())

	for i := 0; i < 5; i++ {
		assert.Equal(t, first, e.Evaluate(obj, rules, 1))
	}
	assert.Equal(t, int64(5), e.compiles(), "programs must be compiled once")

	// Concurrent use of a new expression compiles it once.
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := e.Evaluate(obj, []workv1.ConditionRule{celRule("Complete", "object.status.ready == true")}, 1)
			assert.Equal(t, metav1.ConditionTrue, got[0].Status)
		}()
	}
	wg.Wait()
	assert.Equal(t, int64(6), e.compiles())

	// A fresh evaluator has its own cache.
	other := NewEvaluator(0)
	other.Evaluate(obj, rules[:1], 1)
	assert.Equal(t, int64(3), other.compiles())
}

func TestCacheBounded(t *testing.T) {
	e := NewEvaluator(0)
	obj := newObj("v1", "Pod", nil)
	for i := 0; i < maxCachedPrograms+10; i++ {
		e.Evaluate(obj, []workv1.ConditionRule{celRule("C", fmt.Sprintf("%d == %d", i, i))}, 1)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	assert.LessOrEqual(t, len(e.cache), maxCachedPrograms)
}

func TestMessageTruncated(t *testing.T) {
	e := NewEvaluator(0)
	obj := newObj("v1", "Pod", nil)
	long := strings.Repeat("é", workwriter.MaxMessageLength) // 2 bytes per rune
	got := e.Evaluate(obj, []workv1.ConditionRule{withMessage(celRule("C", "true"), long, "")}, 1)
	require.Len(t, got, 1)
	assert.Len(t, got[0].Message, workwriter.MaxMessageLength)
	assert.True(t, strings.HasPrefix(long, got[0].Message))

	big := newObj("v1", "Pod", map[string]any{"log": strings.Repeat("ab", 20000)})
	got = e.Evaluate(big, []workv1.ConditionRule{withMessage(celRule("C", "true"), "", `"log: " + object.status.log`)}, 1)
	require.Len(t, got, 1)
	assert.Equal(t, workv1.ConditionRuleEvaluated, got[0].Reason, got[0].Message)
	assert.Len(t, got[0].Message, workwriter.MaxMessageLength)

}
