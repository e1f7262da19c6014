package apply

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// ignoreRule is one ignoreFields entry with its paths parsed.
type ignoreRule struct {
	condition workv1.IgnoreFieldsCondition
	paths     []selector
	jq        []jqPath
}

// parseIgnoreFields checks and parses every ignoreFields entry before
// anything is sent, so that a bad path fails the manifest instead of
// applying the very fields the user asked to leave alone.
func parseIgnoreFields(fields []workv1.IgnoreField) ([]ignoreRule, error) {
	rules := make([]ignoreRule, 0, len(fields))
	for _, f := range fields {
		rule, err := parseIgnoreField(f)
		if err != nil {
			return nil, err
		}
		rules = append(rules, rule)
	}
	return rules, nil
}

func parseIgnoreField(f workv1.IgnoreField) (ignoreRule, error) {
	rule := ignoreRule{condition: f.Condition}
	switch rule.condition {
	case "":
		// The API defaults the condition; a client that skipped defaulting
		// gets the same behaviour.
		rule.condition = workv1.IgnoreFieldsConditionOnSpokePresent
	case workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreFieldsConditionOnSpokeChange:
	default:
		return ignoreRule{}, ignoreFieldError(fmt.Sprintf("unknown ignoreFields condition %q", f.Condition))
	}
	for _, p := range f.JSONPaths {
		path, err := parseJSONPath(p)
		if err != nil {
			return ignoreRule{}, ignoreFieldError(fmt.Sprintf("invalid jsonPath %q: %v", p, err))
		}
		rule.paths = append(rule.paths, path)
	}
	for _, p := range f.JSONPointers {
		path, err := parseJSONPointer(p)
		if err != nil {
			return ignoreRule{}, ignoreFieldError(fmt.Sprintf("invalid jsonPointer %q: %v", p, err))
		}
		rule.paths = append(rule.paths, selectorOf(path))
	}
	for _, e := range f.JQPathExpressions {
		q, err := parseJQPath(e)
		if err != nil {
			return ignoreRule{}, ignoreFieldError(fmt.Sprintf("invalid jqPathExpression %q: %v", e, err))
		}
		rule.jq = append(rule.jq, q)
	}
	return rule, nil
}

// fields are the fields the rule picks on the object being applied and the
// live object (nil when there is none). A jqPathExpression that fails on
// them (not a path expression, too costly) fails the manifest.
func (r ignoreRule) fields(ctx context.Context, body, live map[string]any) ([]match, error) {
	var out []match
	for _, path := range r.paths {
		out = append(out, path.expand(body, live)...)
	}
	for _, q := range r.jq {
		matches, err := q.expand(ctx, body, live)
		if err != nil {
			return nil, ignoreFieldError(fmt.Sprintf("jqPathExpression %q cannot pick fields of the object: %v", q.expression, err))
		}
		out = append(out, matches...)
	}
	return out, nil
}

func ignoreFieldError(message string) error {
	return &Error{Reason: workv1.ManifestAppliedReasonSSAIgnoreFail, Message: message}
}

// keepsLiveValue tells whether the rule holds a field at its live value.
// OnSpokePresent always does once the object exists. OnSpokeChange does
// unless the work changed the field's value since it was last applied, so
// that changes made on the managed cluster stay while the work's own changes
// of the field are applied, whatever else in the work changed.
func (r ignoreRule) keepsLiveValue(req Request, field match) bool {
	return r.condition == workv1.IgnoreFieldsConditionOnSpokePresent || !fieldChanged(req, field)
}

// keepLiveValues makes the ignored fields of body take their values on
// live: a field live has is copied, so the apply neither changes it nor
// drops our ownership of it; a field live lacks is removed, so the apply
// does not add it. A path with wildcards or filters applies to every field
// it picks (selector.expand), and so does a jqPathExpression (jqPath.expand);
// one that picks nothing does nothing.
func keepLiveValues(ctx context.Context, body, live *unstructured.Unstructured, rules []ignoreRule, req Request) error {
	for _, rule := range rules {
		fields, err := rule.fields(ctx, body.Object, live.Object)
		if err != nil {
			return err
		}
		for _, field := range fields {
			if rule.keepsLiveValue(req, field) {
				keepLiveValue(ctx, body.Object, field)
			}
		}
	}
	return nil
}

func keepLiveValue(ctx context.Context, body map[string]any, field match) {
	if !field.liveFound {
		field.body.remove(body)
		return
	}
	if !field.body.set(body, runtime.DeepCopyJSONValue(field.liveValue)) {
		// Only possible when the path goes through a list item the manifest
		// does not have; the manifest then does not set the field either.
		klog.FromContext(ctx).V(4).Info("Cannot keep ignored field, the manifest has no such list item", "path", field.body)
	}
}
