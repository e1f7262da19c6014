// Package conditionrules evaluates the condition rules of a manifest
// (spec.manifestConfigs[].conditionRules) against the live object and
// aggregates the per-manifest results into work-level conditions.
//
// The package is a pure library: it never talks to an API server. The caller
// stamps LastTransitionTime (for example with meta.SetStatusCondition).
//
// The results are those of OCM's agent (v1.0.0, its conditions reader):
//   - An object that cannot be read (nil) yields no condition: the manifest
//     keeps the ones it had, as OCM skips the rules of an object it cannot
//     read.
//   - A WellKnownConditions rule for a kind (group, version and kind) or a
//     condition without a built-in rule yields no condition. A built-in rule
//     takes the rule's message and messageExpression when they are set; the
//     built-in messageExpression still wins over a message.
//   - CEL expressions are ANDed in order; evaluation stops at the first one
//     that is false (status False, reason ConditionRuleEvaluated) or fails.
//     An expression that does not compile, fails at run time or does not
//     return a bool gives status False, reason ConditionRuleExpressionError
//     and the error as message. An empty list of expressions is True.
//   - The message is, in order: a non-empty messageExpression result, the
//     rule's message, "Manifest is <condition>" or "Manifest is not
//     <condition>". A messageExpression that fails leaves status and reason
//     as evaluated and becomes the error text.
//   - An unknown rule type gives status Unknown, reason ConditionRuleInvalid.
//   - A rule without a condition type yields nothing; of rules repeating a
//     type the last one wins (OCM sets them one after the other).
//   - Each expression is limited to costLimit; the expressions of all the
//     rules of one manifest share a budget of DefaultCostBudget, past which
//     an expression fails with "CEL evaluation budget exceeded".
package conditionrules

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

const (
	// DefaultCostLimit is the runtime cost limit of one expression used when
	// NewEvaluator is given 0 (OCM: the Kubernetes per-call limit).
	DefaultCostLimit uint64 = 1_000_000

	// DefaultCostBudget is the runtime cost all the condition expressions of
	// one manifest may spend together (OCM: the Kubernetes runtime budget).
	// Message expressions are not charged to it, as in OCM.
	DefaultCostBudget int64 = 10_000_000

	// maxCachedPrograms bounds the program cache; when it is full the cache
	// is emptied and refilled on demand.
	maxCachedPrograms = 4096
)

// errBudgetExceeded is the error of an expression that spends more than the
// budget left to the manifest.
var errBudgetExceeded = fmt.Errorf("CEL evaluation budget exceeded")

// programKind tells which environment an expression is compiled in.
type programKind int

const (
	// conditionProgram sees only `object`.
	conditionProgram programKind = iota
	// messageProgram sees `object` and `result`.
	messageProgram
)

type cacheKey struct {
	kind programKind
	expr string
}

// compiled is one cached expression; once makes concurrent callers of the
// same expression compile it only once.
type compiled struct {
	once sync.Once
	prg  cel.Program
	// compileErr: the expression does not compile; summary is the first
	// line of its issues, without the source excerpt.
	compileErr error
	summary    string
	// programErr: a program could not be made of a valid expression.
	programErr error
}

// Evaluator evaluates condition rules. It is safe for concurrent use.
type Evaluator struct {
	costLimit  uint64
	costBudget int64
	condEnv    *cel.Env
	msgEnv     *cel.Env
	envErr     error
	mu         sync.Mutex
	cache      map[cacheKey]*compiled
	compileCnt atomic.Int64
}

// NewEvaluator returns an Evaluator whose CEL programs abort once their
// runtime cost exceeds costLimit (0 means DefaultCostLimit).
func NewEvaluator(costLimit uint64) *Evaluator {
	if costLimit == 0 {
		costLimit = DefaultCostLimit
	}
	e := &Evaluator{costLimit: costLimit, costBudget: DefaultCostBudget, cache: map[cacheKey]*compiled{}}
	e.condEnv, e.msgEnv, e.envErr = newEnvs()
	return e
}

// compiles reports how many expressions have been compiled (for tests).
func (e *Evaluator) compiles() int64 { return e.compileCnt.Load() }

// compile returns the cached compilation of expr, compiling it on first use.
func (e *Evaluator) compile(kind programKind, expr string) *compiled {
	key := cacheKey{kind: kind, expr: expr}
	e.mu.Lock()
	entry, ok := e.cache[key]
	if !ok {
		if len(e.cache) >= maxCachedPrograms {
			e.cache = map[cacheKey]*compiled{}
		}
		entry = &compiled{}
		e.cache[key] = entry
	}
	e.mu.Unlock()

	entry.once.Do(func() {
		e.compileCnt.Add(1)
		env := e.condEnv
		if kind == messageProgram {
			env = e.msgEnv
		}
		ast, iss := env.Compile(expr)
		if err := iss.Err(); err != nil {
			entry.compileErr = err
			entry.summary, _, _ = strings.Cut(iss.String(), "\n | ")
			return
		}
		entry.prg, entry.programErr = env.Program(ast,
			cel.CostLimit(e.costLimit),
			cel.InterruptCheckFrequency(interruptCheckFrequency))
	})
	return entry
}

// Evaluate computes the conditions of a manifest's rules on its live object
// (nil: it could not be read, and nothing is computed). Every condition has
// ObservedGeneration=generation.
func (e *Evaluator) Evaluate(ctx context.Context, obj *unstructured.Unstructured, rules []workv1.ConditionRule, generation int64) []metav1.Condition {
	if obj == nil {
		return nil
	}
	var out []metav1.Condition
	at := map[string]int{}
	budget := e.costBudget
	for _, rule := range rules {
		var cond metav1.Condition
		cond, budget = e.evaluateRule(ctx, obj, rule, budget)
		if cond.Type == "" {
			continue
		}
		cond.Message = workv1.Shorten(cond.Message, workv1.MaxConditionMessageLength, "")
		cond.ObservedGeneration = generation
		if i, ok := at[cond.Type]; ok {
			out[i] = cond
			continue
		}
		at[cond.Type] = len(out)
		out = append(out, cond)
	}
	return out
}

func (e *Evaluator) evaluateRule(ctx context.Context, obj *unstructured.Unstructured, rule workv1.ConditionRule, budget int64) (metav1.Condition, int64) {
	switch rule.Type {
	case workv1.WellKnownConditionsType:
		builtin, ok := wellKnownRule(obj.GroupVersionKind(), rule.Condition)
		if !ok {
			return metav1.Condition{}, budget
		}
		if rule.Message != "" {
			builtin.Message = rule.Message
		}
		if rule.MessageExpression != "" {
			builtin.MessageExpression = rule.MessageExpression
		}
		return e.evaluateCEL(ctx, obj, builtin, budget)
	case workv1.CELConditionExpressionsType:
		return e.evaluateCEL(ctx, obj, rule, budget)
	default:
		return metav1.Condition{
			Type:    rule.Condition,
			Status:  metav1.ConditionUnknown,
			Reason:  workv1.ConditionRuleInvalid,
			Message: fmt.Sprintf("unrecognized condition rule type %s", rule.Type),
		}, budget
	}
}

func (e *Evaluator) evaluateCEL(ctx context.Context, obj *unstructured.Unstructured, rule workv1.ConditionRule, budget int64) (metav1.Condition, int64) {
	cond := metav1.Condition{Type: rule.Condition}
	var err error
	cond.Status, cond.Reason, budget, err = e.evaluateExpressions(ctx, obj, rule.CelExpressions, budget)
	if err != nil {
		cond.Message = err.Error()
	} else {
		cond.Message, err = e.message(ctx, obj, rule, cond.Status == metav1.ConditionTrue)
	}
	if err != nil {
		klog.FromContext(ctx).V(4).Info("Condition rule evaluation failed",
			"condition", rule.Condition, "object", klog.KObj(obj), "err", err)
	}
	return cond, budget
}

// evaluateExpressions ANDs the expressions and returns the budget left.
func (e *Evaluator) evaluateExpressions(ctx context.Context, obj *unstructured.Unstructured, exprs []string, budget int64) (metav1.ConditionStatus, string, int64, error) {
	if e.envErr != nil {
		return metav1.ConditionUnknown, workv1.ConditionRuleInternalError, budget, e.envErr
	}
	vars := map[string]any{objectVar: obj.Object}
	for _, expr := range exprs {
		c := e.compile(conditionProgram, expr)
		if c.compileErr != nil {
			return metav1.ConditionFalse, workv1.ConditionRuleExpressionError, budget, c.compileErr
		}
		if c.programErr != nil {
			return metav1.ConditionUnknown, workv1.ConditionRuleInternalError, budget, c.programErr
		}
		val, cost, err := run(ctx, c.prg, vars, budget)
		if err != nil {
			return metav1.ConditionFalse, workv1.ConditionRuleExpressionError, budget, err
		}
		budget -= cost
		b, ok := val.Value().(bool)
		if !ok {
			return metav1.ConditionFalse, workv1.ConditionRuleExpressionError, budget,
				fmt.Errorf("expected bool result, got %v", reflect.TypeOf(val.Value()))
		}
		if !b {
			return metav1.ConditionFalse, workv1.ConditionRuleEvaluated, budget, nil
		}
	}
	return metav1.ConditionTrue, workv1.ConditionRuleEvaluated, budget, nil
}

// run evaluates a condition program and charges its cost to the budget: an
// evaluation that costs more than is left fails, whatever its result.
func run(ctx context.Context, prg cel.Program, vars map[string]any, budget int64) (ref.Val, int64, error) {
	val, details, err := prg.ContextEval(ctx, vars)
	cost := details.ActualCost()
	if cost == nil || *cost > uint64(max(budget, 0)) {
		if err != nil {
			return nil, 0, utilerrors.NewAggregate([]error{err, errBudgetExceeded})
		}
		return nil, 0, errBudgetExceeded
	}
	return val, int64(*cost), err
}

// message is the condition's message; err tells the messageExpression failed
// (the message is then the error).
func (e *Evaluator) message(ctx context.Context, obj *unstructured.Unstructured, rule workv1.ConditionRule, result bool) (string, error) {
	if rule.MessageExpression != "" {
		c := e.compile(messageProgram, rule.MessageExpression)
		switch {
		case c.compileErr != nil:
			return c.summary, c.compileErr
		case c.programErr != nil:
			return c.programErr.Error(), c.programErr
		}
		val, _, err := c.prg.ContextEval(ctx, map[string]any{objectVar: obj.Object, resultVar: result})
		if err != nil {
			return err.Error(), err
		}
		s, ok := val.Value().(string)
		if !ok {
			err := fmt.Errorf("expected message expression to have a string result, got %v", reflect.TypeOf(val.Value()))
			return err.Error(), err
		}
		if s != "" {
			return s, nil
		}
	}
	switch {
	case rule.Message != "":
		return rule.Message, nil
	case result:
		return "Manifest is " + rule.Condition, nil
	default:
		return "Manifest is not " + rule.Condition, nil
	}
}
