package conditionrules

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

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
	message string // exact
}

// TestEvaluateSingleRule: status, reason and message of one rule, as OCM's
// agent v1.0.0 gives them (its conditions reader).
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
	const (
		tr = metav1.ConditionTrue
		fa = metav1.ConditionFalse
		un = metav1.ConditionUnknown
	)

	cases := []struct {
		name string
		obj  *unstructured.Unstructured
		rule workv1.ConditionRule
		want want
	}{
		// Well-known rules.
		{"job complete", job("Complete", "True"), wellKnown("Complete"),
			want{tr, workv1.ConditionRuleEvaluated, "Job is finished"}},
		{"job failed", job("Failed", "True"), wellKnown("Complete"),
			want{tr, workv1.ConditionRuleEvaluated, "Job is finished"}},
		{"job complete false", job("Complete", "False"), wellKnown("Complete"),
			want{fa, workv1.ConditionRuleEvaluated, "Job is not finished"}},
		{"job running", job("", ""), wellKnown("Complete"),
			want{fa, workv1.ConditionRuleEvaluated, "Job is not finished"}},
		{"job without status", newObj("batch/v1", "Job", nil), wellKnown("Complete"),
			want{fa, workv1.ConditionRuleExpressionError, "no such key: status"}},
		{"pod succeeded", pod("Succeeded"), wellKnown("Complete"),
			want{tr, workv1.ConditionRuleEvaluated, "Pod is in phase Succeeded"}},
		{"pod failed", pod("Failed"), wellKnown("Complete"),
			want{tr, workv1.ConditionRuleEvaluated, "Pod is in phase Failed"}},
		{"pod running", pod("Running"), wellKnown("Complete"),
			want{fa, workv1.ConditionRuleEvaluated, "Pod is in phase Running"}},
		{"pod without status", pod(""), wellKnown("Complete"),
			want{fa, workv1.ConditionRuleExpressionError, "no such key: status"}},
		{"well-known messageExpression overrides the built-in one", pod("Running"),
			withMessage(wellKnown("Complete"), "", `result ? "done" : "pod " + object.metadata.name + " still " + object.status.phase`),
			want{fa, workv1.ConditionRuleEvaluated, "pod x still Running"}},
		{"well-known message loses to the built-in messageExpression", job("Complete", "True"),
			withMessage(wellKnown("Complete"), "my message", ""),
			want{tr, workv1.ConditionRuleEvaluated, "Job is finished"}},
		{"well-known message used when messageExpression gives nothing", job("Complete", "True"),
			withMessage(wellKnown("Complete"), "my message", `""`),
			want{tr, workv1.ConditionRuleEvaluated, "my message"}},

		// CEL rules.
		{"cel true", cr, celRule("Complete", "object.status.ready == object.status.replicas"),
			want{tr, workv1.ConditionRuleEvaluated, "Manifest is Complete"}},
		{"cel false", cr, celRule("Complete", "object.status.phase == 'Running'"),
			want{fa, workv1.ConditionRuleEvaluated, "Manifest is not Complete"}},
		{"cel AND all true", cr, celRule("Complete", "object.status.ready > 0", "size(object.status.items) == 2"),
			want{tr, workv1.ConditionRuleEvaluated, "Manifest is Complete"}},
		{"cel AND one false", cr, celRule("Complete", "object.status.ready > 0", "size(object.status.items) == 5"),
			want{fa, workv1.ConditionRuleEvaluated, "Manifest is not Complete"}},
		{"cel false stops before error", cr, celRule("Complete", "false", "object.status.nope"),
			want{fa, workv1.ConditionRuleEvaluated, "Manifest is not Complete"}},
		{"cel false stops before compile error", cr, celRule("Complete", "false", "1 +"),
			want{fa, workv1.ConditionRuleEvaluated, "Manifest is not Complete"}},
		{"cel spec example", cr, withMessage(celRule("Complete",
			"object.status.conditions.filter(c, c.type == 'Complete' || c.type == 'Failed').exists(c, c.status == 'True')"),
			"", `result ? "Custom resource is complete" : "Custom resource is not complete"`),
			want{tr, workv1.ConditionRuleEvaluated, "Custom resource is complete"}},
		{"cel has on missing field", cr, celRule("Complete", "has(object.status.missing)"),
			want{fa, workv1.ConditionRuleEvaluated, "Manifest is not Complete"}},
		{"cel static message", cr, withMessage(celRule("Complete", "true"), "static message", ""),
			want{tr, workv1.ConditionRuleEvaluated, "static message"}},
		{"messageExpression sees result false", cr, withMessage(celRule("Complete", "object.status.ready < 2"),
			"ignored", `result ? "done" : "not done, phase " + object.status.phase`),
			want{fa, workv1.ConditionRuleEvaluated, "not done, phase Done"}},
		{"messageExpression sees result true", cr, withMessage(celRule("Complete", "true"),
			"", `"result=" + string(result)`),
			want{tr, workv1.ConditionRuleEvaluated, "result=true"}},
		{"empty messageExpression result falls back to message", cr, withMessage(celRule("Complete", "true"), "static", `""`),
			want{tr, workv1.ConditionRuleEvaluated, "static"}},
		{"empty messageExpression result falls back to default", cr, withMessage(celRule("Complete", "false"), "", `""`),
			want{fa, workv1.ConditionRuleEvaluated, "Manifest is not Complete"}},
		{"empty expressions are true", cr, celRule("Complete"),
			want{tr, workv1.ConditionRuleEvaluated, "Manifest is Complete"}},
		{"syntax error", cr, celRule("Complete", "object.status.ready =="),
			want{fa, workv1.ConditionRuleExpressionError,
				"ERROR: <input>:1:23: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n" +
					" | object.status.ready ==\n" +
					" | ......................^"}},
		{"undeclared reference", cr, celRule("Complete", "obj.status.ready == 1"),
			want{fa, workv1.ConditionRuleExpressionError,
				"ERROR: <input>:1:1: undeclared reference to 'obj' (in container '')\n | obj.status.ready == 1\n | ^"}},
		{"result not visible in celExpressions", cr, celRule("Complete", "result"),
			want{fa, workv1.ConditionRuleExpressionError,
				"ERROR: <input>:1:1: undeclared reference to 'result' (in container '')\n | result\n | ^"}},
		{"messageExpression compile error keeps the status", cr, withMessage(celRule("Complete", "true"), "", `badcel`),
			want{tr, workv1.ConditionRuleEvaluated, "ERROR: <input>:1:1: undeclared reference to 'badcel' (in container '')"}},
		{"non-bool result", cr, celRule("Complete", "object.status.replicas"),
			want{fa, workv1.ConditionRuleExpressionError, "expected bool result, got int64"}},
		{"non-bool string result", cr, celRule("Complete", "'yes'"),
			want{fa, workv1.ConditionRuleExpressionError, "expected bool result, got string"}},
		{"missing field", cr, celRule("Complete", "object.status.missing == 'x'"),
			want{fa, workv1.ConditionRuleExpressionError, "no such key: missing"}},
		{"runtime division by zero", cr, celRule("Complete", "object.status.ready / 0 == 1"),
			want{fa, workv1.ConditionRuleExpressionError, "division by zero"}},
		{"messageExpression non-string keeps the status", cr, withMessage(celRule("Complete", "true"), "", "result"),
			want{tr, workv1.ConditionRuleEvaluated, "expected message expression to have a string result, got bool"}},
		{"messageExpression runtime error keeps the status", cr, withMessage(celRule("Complete", "false"), "", "object.status.nope"),
			want{fa, workv1.ConditionRuleEvaluated, "no such key: nope"}},

		// Other rule types.
		{"unknown rule type", cr, workv1.ConditionRule{Type: "Rego", Condition: "Complete"},
			want{un, workv1.ConditionRuleInvalid, "unrecognized condition rule type Rego"}},
		{"empty rule type", cr, workv1.ConditionRule{Condition: "Complete"},
			want{un, workv1.ConditionRuleInvalid, "unrecognized condition rule type "}},
	}

	e := NewEvaluator(0)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := e.Evaluate(context.Background(), tc.obj, []workv1.ConditionRule{tc.rule}, 7)
			require.Len(t, got, 1)
			c := got[0]
			assert.Equal(t, tc.rule.Condition, c.Type)
			assert.Equal(t, tc.want.status, c.Status)
			assert.Equal(t, tc.want.reason, c.Reason)
			assert.Equal(t, tc.want.message, c.Message)
			assert.Equal(t, int64(7), c.ObservedGeneration)
		})
	}
}

// TestEvaluateNothing: rules that give no condition at all, as in OCM.
func TestEvaluateNothing(t *testing.T) {
	cases := []struct {
		name string
		obj  *unstructured.Unstructured
		rule workv1.ConditionRule
	}{
		{"well-known kind without rules", newObj("apps/v1", "Deployment", nil), wellKnown("Complete")},
		{"well-known core kind without rules", newObj("v1", "ConfigMap", nil), wellKnown("Complete")},
		{"well-known Job in another group", newObj("example.com/v1", "Job", nil), wellKnown("Complete")},
		{"well-known Job in another version", newObj("batch/v2", "Job", nil), wellKnown("Complete")},
		{"well-known condition without rule", job("Complete", "True"), wellKnown("Available")},
		{"well-known with message but no rule", newObj("apps/v1", "Deployment", nil),
			withMessage(wellKnown("Complete"), "m", `"m"`)},
		{"object missing, CEL rule", nil, celRule("Complete", "true")},
		{"object missing, invalid CEL rule", nil, celRule("Complete", "1 +")},
		{"object missing, well-known rule", nil, wellKnown("Complete")},
		{"no condition type", newObj("v1", "Pod", nil), celRule("", "true")},
	}
	e := NewEvaluator(0)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Empty(t, e.Evaluate(context.Background(), tc.obj, []workv1.ConditionRule{tc.rule}, 1))
		})
	}
}

// TestWellKnownDoesNotBlockComplete: a WellKnownConditions rule of a kind
// without one leaves the work's Complete to the other manifests.
func TestWellKnownDoesNotBlockComplete(t *testing.T) {
	e := NewEvaluator(0)
	rules := []workv1.ConditionRule{wellKnown(workv1.ManifestComplete)}
	deployment := e.Evaluate(context.Background(), newObj("apps/v1", "Deployment", nil), rules, 1)
	done := e.Evaluate(context.Background(), job("Complete", "True"), rules, 1)
	got := Aggregate([][]metav1.Condition{deployment, done}, []string{workv1.WorkComplete}, 1)
	require.Len(t, got, 1)
	assert.Equal(t, metav1.ConditionTrue, got[0].Status)
}

func TestEvaluateCostLimit(t *testing.T) {
	obj := newObj("example.com/v1", "Widget", map[string]any{"n": int64(1)})
	expensive := "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, a + b + c > 0)))"
	rules := []workv1.ConditionRule{celRule("Complete", expensive)}
	ctx := context.Background()

	got := NewEvaluator(50).Evaluate(ctx, obj, rules, 1)
	require.Len(t, got, 1)
	assert.Equal(t, metav1.ConditionFalse, got[0].Status)
	assert.Equal(t, workv1.ConditionRuleExpressionError, got[0].Reason)
	assert.Equal(t, "operation cancelled: actual cost limit exceeded", got[0].Message)

	// The same expression fits in the default limit.
	got = NewEvaluator(0).Evaluate(ctx, obj, rules, 1)
	require.Len(t, got, 1)
	assert.Equal(t, metav1.ConditionTrue, got[0].Status)
	assert.Equal(t, workv1.ConditionRuleEvaluated, got[0].Reason)

	// The default limit is OCM's: the Kubernetes per-call limit.
	tooExpensive := "[" + strings.Repeat("1,", 999) + "1].all(a, [" + strings.Repeat("1,", 999) + "1].all(b, a == b))"
	got = NewEvaluator(0).Evaluate(ctx, obj, []workv1.ConditionRule{celRule("Complete", tooExpensive)}, 1)
	require.Len(t, got, 1)
	assert.Equal(t, "operation cancelled: actual cost limit exceeded", got[0].Message)
}

// TestEvaluateCostBudget: the rules of one manifest share a budget; an
// expression past it fails, the rules after it have what the failed one did
// not spend.
func TestEvaluateCostBudget(t *testing.T) {
	obj := newObj("example.com/v1", "Widget", map[string]any{"items": []any{int64(1), int64(2), int64(3)}})
	cheap := celRule("Cheap", "true")
	costly := celRule("Costly", "object.status.items.all(i, i > 0)")
	e := NewEvaluator(0)
	ctx := context.Background()

	// The costly rule costs 19, the cheap one 1 (cel-go's default costs, as
	// OCM's estimator prices none of the functions rules may use).

	cases := []struct {
		name   string
		budget int64
		rules  []workv1.ConditionRule
		want   []want
	}{
		{"within budget", 100, []workv1.ConditionRule{cheap, costly},
			[]want{{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Manifest is Cheap"},
				{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Manifest is Costly"}}},
		{"budget exceeded", 1, []workv1.ConditionRule{costly, cheap},
			[]want{{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "CEL evaluation budget exceeded"},
				{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Manifest is Cheap"}}},
		{"budget spent by earlier rules", 30, []workv1.ConditionRule{costly, withCondition(costly, "Again"), cheap},
			[]want{{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Manifest is Costly"},
				{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "CEL evaluation budget exceeded"},
				{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Manifest is Cheap"}}},
		{"message expressions are not charged", 20, []workv1.ConditionRule{
			withMessage(costly, "", `object.status.items.map(i, string(i)).join(",")`), withCondition(cheap, "Cheap")},
			[]want{{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "1,2,3"},
				{metav1.ConditionTrue, workv1.ConditionRuleEvaluated, "Manifest is Cheap"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.costBudget = tc.budget
			got := e.Evaluate(ctx, obj, tc.rules, 1)
			require.Len(t, got, len(tc.want))
			for i, w := range tc.want {
				assert.Equal(t, w, want{got[i].Status, got[i].Reason, got[i].Message}, got[i].Type)
			}
		})
	}

	e.costBudget = 1
	got := e.Evaluate(ctx, pod("Running"), []workv1.ConditionRule{wellKnown("Complete")}, 1)
	require.Len(t, got, 1)
	assert.Equal(t, want{metav1.ConditionFalse, workv1.ConditionRuleExpressionError, "CEL evaluation budget exceeded"},
		want{got[0].Status, got[0].Reason, got[0].Message})
}

func withCondition(r workv1.ConditionRule, cond string) workv1.ConditionRule {
	r.Condition = cond
	return r
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
		celRule("Complete", "false"), // repeated type: the last one wins, in place
		celRule("", "true"),          // no type: skipped
	}
	got := NewEvaluator(0).Evaluate(context.Background(), obj, rules, 3)
	require.Len(t, got, 4)

	expect := []struct {
		typ    string
		status metav1.ConditionStatus
		reason string
	}{
		{"Complete", metav1.ConditionFalse, workv1.ConditionRuleEvaluated},
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

	assert.Empty(t, NewEvaluator(0).Evaluate(context.Background(), obj, nil, 1))
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

	first := e.Evaluate(context.Background(), obj, rules, 1)
	// object.status.ready, true, message expr, "1 +", message expr of Msg.
	assert.Equal(t, int64(5), e.compiles())

	for i := 0; i < 5; i++ {
		assert.Equal(t, first, e.Evaluate(context.Background(), obj, rules, 1))
	}
	assert.Equal(t, int64(5), e.compiles(), "programs must be compiled once")

	// Concurrent use of a new expression compiles it once.
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := e.Evaluate(context.Background(), obj, []workv1.ConditionRule{celRule("Complete", "object.status.ready == true")}, 1)
			assert.Equal(t, metav1.ConditionTrue, got[0].Status)
		}()
	}
	wg.Wait()
	assert.Equal(t, int64(6), e.compiles())

	// A fresh evaluator has its own cache.
	other := NewEvaluator(0)
	other.Evaluate(context.Background(), obj, rules[:1], 1)
	assert.Equal(t, int64(3), other.compiles())
}

func TestCacheBounded(t *testing.T) {
	e := NewEvaluator(0)
	obj := newObj("v1", "Pod", nil)
	for i := 0; i < maxCachedPrograms+10; i++ {
		e.Evaluate(context.Background(), obj, []workv1.ConditionRule{celRule("C", fmt.Sprintf("%d == %d", i, i))}, 1)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	assert.LessOrEqual(t, len(e.cache), maxCachedPrograms)
}

func TestMessageTruncated(t *testing.T) {
	e := NewEvaluator(0)
	obj := newObj("v1", "Pod", nil)
	long := strings.Repeat("é", workv1.MaxConditionMessageLength) // 2 bytes per rune
	got := e.Evaluate(context.Background(), obj, []workv1.ConditionRule{withMessage(celRule("C", "true"), long, "")}, 1)
	require.Len(t, got, 1)
	assert.Len(t, got[0].Message, workv1.MaxConditionMessageLength)
	assert.True(t, strings.HasPrefix(long, got[0].Message))

	big := newObj("v1", "Pod", map[string]any{"log": strings.Repeat("ab", 20000)})
	got = e.Evaluate(context.Background(), big, []workv1.ConditionRule{withMessage(celRule("C", "true"), "", `"log: " + object.status.log`)}, 1)
	require.Len(t, got, 1)
	assert.Equal(t, workv1.ConditionRuleEvaluated, got[0].Reason, got[0].Message)
	assert.Len(t, got[0].Message, workv1.MaxConditionMessageLength)

}
