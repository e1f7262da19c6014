// Package conditionrules evaluates the condition rules of a manifest
// (spec.manifestConfigs[].conditionRules) against the live object and
// aggregates the per-manifest results into work-level conditions.
//
// The package is a pure library: it never talks to an API server. The caller
// stamps LastTransitionTime (for example with meta.SetStatusCondition).
//
// Decisions:
//   - A nil object (the object does not exist) yields status Unknown with
//     reason ConditionRuleEvaluated, after the rule itself has been validated:
//     an invalid rule is reported as ConditionRuleInvalid even when the object
//     is missing. Callers that want Complete to stay True once a finished
//     workload is garbage collected must keep the previous condition.
//   - A WellKnownConditions rule for a kind or condition without a built-in
//     definition yields status False, reason ConditionRuleInvalid.
//   - CEL expressions are ANDed in order and evaluation stops at the first
//     expression that is false or fails.
//   - A failing or non-string messageExpression makes the whole condition
//     False with reason ConditionRuleExpressionError; a messageExpression
//     that does not compile makes it ConditionRuleInvalid.
//   - Rules with an empty condition type and later rules repeating a condition
//     type already produced are skipped, so the output has unique types.
package conditionrules

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

const (
	// DefaultCostLimit is the runtime cost limit used when NewEvaluator is
	// given 0.
	DefaultCostLimit uint64 = 1_000_000

	// maxCachedPrograms bounds the program cache; when it is full the cache
	// is emptied and refilled on demand.
	maxCachedPrograms = 4096

	objectVar = "object"
	resultVar = "result"
)

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

// cacheEntry holds one compiled program; once makes concurrent callers of
// the same expression compile it only once.
type cacheEntry struct {
	once sync.Once
	prg  cel.Program
	err  error
}

// Evaluator evaluates condition rules. It is safe for concurrent use.
type Evaluator struct {
	costLimit  uint64
	condEnv    *cel.Env
	msgEnv     *cel.Env
	envErr     error
	mu         sync.Mutex
	cache      map[cacheKey]*cacheEntry
	compileCnt atomic.Int64
}

// NewEvaluator returns an Evaluator whose CEL programs abort once their
// runtime cost exceeds costLimit (0 means DefaultCostLimit).
func NewEvaluator(costLimit uint64) *Evaluator {
	if costLimit == 0 {
		costLimit = DefaultCostLimit
	}
	e := &Evaluator{costLimit: costLimit, cache: map[cacheKey]*cacheEntry{}}
	common := []cel.EnvOption{
		cel.Variable(objectVar, cel.DynType),
		ext.Strings(),
		ext.Lists(),
		ext.Sets(),
		cel.CrossTypeNumericComparisons(true),
	}
	e.condEnv, e.envErr = cel.NewEnv(common...)
	if e.envErr == nil {
		e.msgEnv, e.envErr = cel.NewEnv(append(common, cel.Variable(resultVar, cel.BoolType))...)
	}
	return e
}

// compiles reports how many expressions have been compiled (for tests).
func (e *Evaluator) compiles() int64 { return e.compileCnt.Load() }

// program returns the cached program of expr, compiling it on first use.
func (e *Evaluator) program(kind programKind, expr string) (cel.Program, error) {
	if e.envErr != nil {
		return nil, e.envErr
	}
	key := cacheKey{kind: kind, expr: expr}
	e.mu.Lock()
	entry, ok := e.cache[key]
	if !ok {
		if len(e.cache) >= maxCachedPrograms {
			e.cache = map[cacheKey]*cacheEntry{}
		}
		entry = &cacheEntry{}
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
		if iss.Err() != nil {
			entry.err = iss.Err()
			return
		}
		entry.prg, entry.err = env.Program(ast, cel.CostLimit(e.costLimit))
	})
	return entry.prg, entry.err
}

// Evaluate computes one condition per rule for a live object (nil obj: the
// object does not exist). Every condition has ObservedGeneration=generation.
func (e *Evaluator) Evaluate(obj *unstructured.Unstructured, rules []workv1.ConditionRule, generation int64) []metav1.Condition {
	var out []metav1.Condition
	seen := map[string]bool{}
	for _, rule := range rules {
		if rule.Condition == "" || seen[rule.Condition] {
			continue
		}
		seen[rule.Condition] = true
		status, reason, message := e.evaluateRule(obj, rule)
		out = append(out, metav1.Condition{
			Type:               rule.Condition,
			Status:             status,
			Reason:             reason,
			Message:            workwriter.TruncateMessage(message),
			ObservedGeneration: generation,
		})
	}
	return out
}

func (e *Evaluator) evaluateRule(obj *unstructured.Unstructured, rule workv1.ConditionRule) (metav1.ConditionStatus, string, string) {
	switch rule.Type {
	case workv1.WellKnownConditionsType:
		if obj == nil {
			return missingObject()
		}
		return evaluateWellKnown(obj, rule.Condition)
	case workv1.CELConditionExpressionsType:
		return e.evaluateCEL(obj, rule)
	default:
		return metav1.ConditionFalse, workv1.ConditionRuleInvalid,
			fmt.Sprintf("unknown condition rule type %q", rule.Type)
	}
}

func missingObject() (metav1.ConditionStatus, string, string) {
	return metav1.ConditionUnknown, workv1.ConditionRuleEvaluated,
		"the object does not exist, the condition cannot be evaluated"
}

func (e *Evaluator) evaluateCEL(obj *unstructured.Unstructured, rule workv1.ConditionRule) (metav1.ConditionStatus, string, string) {
	if len(rule.CelExpressions) == 0 {
		return metav1.ConditionFalse, workv1.ConditionRuleInvalid, "celExpressions must not be empty for a CEL rule"
	}
	// Compile everything first so an invalid rule is reported as such
	// whatever the state of the object.
	prgs := make([]cel.Program, len(rule.CelExpressions))
	for i, expr := range rule.CelExpressions {
		prg, err := e.program(conditionProgram, expr)
		if err != nil {
			return metav1.ConditionFalse, workv1.ConditionRuleInvalid,
				fmt.Sprintf("invalid CEL expression %q: %v", expr, err)
		}
		prgs[i] = prg
	}
	var msgPrg cel.Program
	if rule.MessageExpression != "" {
		prg, err := e.program(messageProgram, rule.MessageExpression)
		if err != nil {
			return metav1.ConditionFalse, workv1.ConditionRuleInvalid,
				fmt.Sprintf("invalid CEL messageExpression %q: %v", rule.MessageExpression, err)
		}
		msgPrg = prg
	}
	if obj == nil {
		return missingObject()
	}

	vars := map[string]any{objectVar: obj.Object}
	result := true
	failed := ""
	for i, prg := range prgs {
		val, _, err := prg.Eval(vars)
		if err != nil {
			return metav1.ConditionFalse, workv1.ConditionRuleExpressionError,
				fmt.Sprintf("failed to evaluate CEL expression %q: %v", rule.CelExpressions[i], err)
		}
		b, ok := val.(types.Bool)
		if !ok {
			return metav1.ConditionFalse, workv1.ConditionRuleExpressionError,
				fmt.Sprintf("CEL expression %q returned %s, want bool", rule.CelExpressions[i], val.Type().TypeName())
		}
		if !b {
			result = false
			failed = rule.CelExpressions[i]
			break
		}
	}

	status := metav1.ConditionFalse
	if result {
		status = metav1.ConditionTrue
	}
	var message string
	switch {
	case msgPrg != nil:
		vars[resultVar] = result
		val, _, err := msgPrg.Eval(vars)
		if err != nil {
			return metav1.ConditionFalse, workv1.ConditionRuleExpressionError,
				fmt.Sprintf("failed to evaluate CEL messageExpression %q: %v", rule.MessageExpression, err)
		}
		s, ok := val.(types.String)
		if !ok {
			return metav1.ConditionFalse, workv1.ConditionRuleExpressionError,
				fmt.Sprintf("CEL messageExpression %q returned %s, want string", rule.MessageExpression, val.Type().TypeName())
		}
		message = string(s)
	case rule.Message != "":
		message = rule.Message
	case result:
		message = "all CEL expressions evaluated to true"
	default:
		message = fmt.Sprintf("CEL expression %q evaluated to false", strings.TrimSpace(failed))
	}
	return status, workv1.ConditionRuleEvaluated, message
}
