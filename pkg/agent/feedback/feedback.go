// Package feedback evaluates the feedback rules of a manifest on the live
// object the manifest produced, yielding the status feedback values that the
// agent reports to the hub. It is a pure library: it makes no API calls.
//
// Decisions:
//   - WellKnownStatus values come from a table keyed by group and kind (the
//     version is ignored). A well-known value whose field is absent or null
//     (for example readyReplicas before any pod is ready, or JobComplete before
//     the Job has a Complete condition) is left out silently: it is a normal
//     state of the object, not a failure. A kind that has no table entry gives
//     the problem "no well-known status for <Kind>" (the group follows in
//     parentheses when it is not the core group).
//   - JSONPaths use Kubernetes JSONPath syntax, with or without the enclosing
//     braces. A path that matches nothing, or only null, is left out with a
//     problem, because the user asked for that field explicitly.
//   - Integer, String and Boolean scalars are reported as such; a whole
//     float64 is an Integer. Anything else (map, list, several matches,
//     fractional number) is JsonRaw only when Options.RawJSON is set, and only
//     if it fits in Options.MaxJSONRawLength bytes; it is never truncated.
//   - A JsonPath whose Version differs from the object's version is a problem:
//     the caller must pass the object read in the version the rule asks for.
//   - A name produced twice keeps its first value and gives a problem.
package feedback

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/jsonpath"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// DefaultMaxJSONRawLength is the default of --max-json-raw-length and the
// limit used when Options.MaxJSONRawLength is not positive.
const DefaultMaxJSONRawLength = 1024

// Options tune how feedback values are produced.
type Options struct {
	// RawJSON is the agent feature gate RawFeedbackJsonString: it lets a
	// JSONPath that selects a non-scalar be reported as JsonRaw.
	RawJSON bool
	// MaxJSONRawLength is --max-json-raw-length, the largest JsonRaw value in
	// bytes; zero or less means DefaultMaxJSONRawLength.
	MaxJSONRawLength int
}

// Evaluate returns the values of every rule, sorted by name, and one
// problem per value that could not be produced.
func Evaluate(obj *unstructured.Unstructured, rules []workv1.FeedbackRule, opts Options) (values []workv1.FeedbackValue, problems []string) {
	if len(rules) == 0 {
		return nil, nil
	}
	if obj == nil || obj.Object == nil {
		return nil, []string{"no object to read status feedback from"}
	}
	if opts.MaxJSONRawLength <= 0 {
		opts.MaxJSONRawLength = DefaultMaxJSONRawLength
	}

	seen := map[string]bool{}
	add := func(name string, v workv1.FieldValue) {
		if seen[name] {
			problems = append(problems, fmt.Sprintf("value %q is produced more than once; the first is kept", name))
			return
		}
		seen[name] = true
		values = append(values, workv1.FeedbackValue{Name: name, Value: v})
	}

	for _, rule := range rules {
		switch rule.Type {
		case workv1.WellKnownStatusType:
			problems = append(problems, wellKnown(obj, add)...)
		case workv1.JSONPathsType:
			for _, jp := range rule.JsonPaths {
				v, problem := fromPath(obj, jp, opts)
				if problem != "" {
					problems = append(problems, problem)
					continue
				}
				add(jp.Name, v)
			}
		default:
			problems = append(problems, fmt.Sprintf("unknown feedback rule type %q", rule.Type))
		}
	}

	sort.SliceStable(values, func(i, j int) bool { return values[i].Name < values[j].Name })
	return values, problems
}

// wellKnown adds the well-known values of obj's kind.
func wellKnown(obj *unstructured.Unstructured, add func(string, workv1.FieldValue)) []string {
	gvk := obj.GroupVersionKind()
	table, ok := wellKnownStatus[groupKind{group: gvk.Group, kind: gvk.Kind}]
	if !ok {
		if gvk.Group != "" {
			return []string{fmt.Sprintf("no well-known status for %s (group %s)", gvk.Kind, gvk.Group)}
		}
		return []string{fmt.Sprintf("no well-known status for %s", gvk.Kind)}
	}
	var problems []string
	for _, wk := range table {
		matches, err := find(obj.Object, wk.path)
		if err != nil {
			problems = append(problems, fmt.Sprintf("well-known value %s of %s: %v", wk.name, gvk.Kind, err))
			continue
		}
		if len(matches) == 0 || (len(matches) == 1 && matches[0] == nil) {
			continue // absent: not produced yet, left out silently
		}
		if len(matches) > 1 {
			problems = append(problems, fmt.Sprintf("well-known value %s of %s matched %d values, want one", wk.name, gvk.Kind, len(matches)))
			continue
		}
		v, what := scalar(matches[0])
		if what != "" || v.Type != wk.typ {
			if what == "" {
				what = "a " + string(v.Type)
			}
			problems = append(problems, fmt.Sprintf("well-known value %s of %s is %s, want %s", wk.name, gvk.Kind, what, wk.typ))
			continue
		}
		add(wk.name, v)
	}
	return problems
}

// fromPath produces the value of one named JSONPath, or a problem.
func fromPath(obj *unstructured.Unstructured, jp workv1.JsonPath, opts Options) (workv1.FieldValue, string) {
	if jp.Name == "" {
		return workv1.FieldValue{}, fmt.Sprintf("path %s has no name", jp.Path)
	}
	if jp.Version != "" {
		if have := obj.GroupVersionKind().Version; have != "" && have != jp.Version {
			return workv1.FieldValue{}, fmt.Sprintf("path %s of %q is for version %s, but the object was read as %s", jp.Path, jp.Name, jp.Version, have)
		}
	}
	matches, err := find(obj.Object, jp.Path)
	if err != nil {
		return workv1.FieldValue{}, fmt.Sprintf("path %s of %q: %v", jp.Path, jp.Name, err)
	}
	switch {
	case len(matches) == 0:
		return workv1.FieldValue{}, fmt.Sprintf("path %s of %q matched nothing", jp.Path, jp.Name)
	case len(matches) == 1 && matches[0] == nil:
		return workv1.FieldValue{}, fmt.Sprintf("path %s of %q is null", jp.Path, jp.Name)
	}

	var raw interface{} = matches
	what := fmt.Sprintf("%d values", len(matches))
	if len(matches) == 1 {
		v, w := scalar(matches[0])
		if w == "" {
			return v, ""
		}
		raw, what = matches[0], w
	}
	if !opts.RawJSON {
		return workv1.FieldValue{}, fmt.Sprintf("path %s of %q selects %s, not a scalar; the RawFeedbackJsonString feature gate allows it as JsonRaw", jp.Path, jp.Name, what)
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return workv1.FieldValue{}, fmt.Sprintf("path %s of %q cannot be encoded as JSON: %v", jp.Path, jp.Name, err)
	}
	if len(data) > opts.MaxJSONRawLength {
		return workv1.FieldValue{}, fmt.Sprintf("JsonRaw value of %q is %d bytes, over the limit of %d (--max-json-raw-length)", jp.Name, len(data), opts.MaxJSONRawLength)
	}
	s := string(data)
	return workv1.FieldValue{Type: workv1.JsonRaw, JsonRaw: &s}, ""
}

// find evaluates a Kubernetes JSONPath, with or without the enclosing braces,
// on content and returns every match in order. Missing fields match nothing.
func find(content map[string]interface{}, path string) (matches []interface{}, err error) {
	text := strings.TrimSpace(path)
	if !strings.HasPrefix(text, "{") {
		text = "{" + text + "}"
	}
	defer func() {
		// The parser works on user input; never let it take the agent down.
		if r := recover(); r != nil {
			matches, err = nil, fmt.Errorf("cannot be evaluated: %v", r)
		}
	}()
	jp := jsonpath.New("feedback").AllowMissingKeys(true)
	if err := jp.Parse(text); err != nil {
		return nil, fmt.Errorf("invalid JSONPath: %w", err)
	}
	results, err := jp.FindResults(content)
	if err != nil {
		return nil, fmt.Errorf("cannot be evaluated: %w", err)
	}
	for _, set := range results {
		for _, v := range set {
			if !v.IsValid() {
				matches = append(matches, nil)
				continue
			}
			matches = append(matches, v.Interface())
		}
	}
	return matches, nil
}

// scalar converts a supported scalar to a FieldValue. Otherwise it returns a
// short description of what x is, such as "a map".
func scalar(x interface{}) (workv1.FieldValue, string) {
	switch v := x.(type) {
	case bool:
		return workv1.FieldValue{Type: workv1.Boolean, Boolean: &v}, ""
	case string:
		return workv1.FieldValue{Type: workv1.String, String: &v}, ""
	case int64:
		return integer(v), ""
	case int:
		return integer(int64(v)), ""
	case int32:
		return integer(int64(v)), ""
	case float64:
		if v == math.Trunc(v) && v >= math.MinInt64 && v < math.MaxInt64 {
			return integer(int64(v)), ""
		}
		return workv1.FieldValue{}, "a fractional number"
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return integer(i), ""
		}
		return workv1.FieldValue{}, "a fractional number"
	case map[string]interface{}:
		return workv1.FieldValue{}, "a map"
	case []interface{}:
		return workv1.FieldValue{}, "a list"
	case nil:
		return workv1.FieldValue{}, "null"
	default:
		return workv1.FieldValue{}, fmt.Sprintf("a %T", v)
	}
}

func integer(i int64) workv1.FieldValue {
	return workv1.FieldValue{Type: workv1.Integer, Integer: &i}
}
