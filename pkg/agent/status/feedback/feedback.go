// Package feedback evaluates the feedback rules of a manifest on the live
// object the manifest produced, yielding the status feedback values that the
// agent reports to the hub. It is a pure library: it makes no API calls.
//
// It behaves as OCM's agent does, since clients read these values:
//   - Values come in rule order, and within a rule in the order of its
//     paths (or of the kind's well-known table).
//   - WellKnownStatus values come from a table keyed by group, version and
//     kind: OCM's values for Deployments, DaemonSets, Jobs and Pods. Any
//     other kind is a problem.
//   - A path, well-known or not, that matches nothing or only null gives no
//     value and no problem: the field is simply not there (yet).
//   - A path that selects several values reports the first one when
//     Options.RawJSON is off; with it on, the list of them as JsonRaw.
//   - Integer, String and Boolean scalars are reported as such (a whole
//     float64, which objects decoded with encoding/json carry, is an
//     Integer). Anything else is JsonRaw when Options.RawJSON is set and it
//     fits in Options.MaxJSONRawLength bytes (never truncated), a problem
//     otherwise.
//   - A JsonPath whose Version differs from the object's version is a problem:
//     the caller must pass the object read in the version the rule asks for.
//
// Problems are worded as OCM's agent words them. Beyond OCM: a path may
// carry its own enclosing braces; a path without a name, and a name produced
// twice (which the hub would refuse, as values are keyed by name), are
// problems, the first value being kept.
package feedback

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
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
	// JSONPath that selects a non-scalar, or several values, be reported as
	// JsonRaw.
	RawJSON bool
	// MaxJSONRawLength is --max-json-raw-length, the largest JsonRaw value in
	// bytes; zero or less means DefaultMaxJSONRawLength.
	MaxJSONRawLength int
}

// Evaluate returns the values of every rule on obj, in rule order, and one
// problem per value that could not be produced. A JsonPath for another
// version than obj's is a problem.
func Evaluate(obj *unstructured.Unstructured, rules []workv1.FeedbackRule, opts Options) (values []workv1.FeedbackValue, problems []string) {
	return EvaluateVersions(obj, nil, rules, opts)
}

// ReadVersion returns the object in another version, for the JsonPaths
// that ask for one.
type ReadVersion func(version string) (*unstructured.Unstructured, error)

// EvaluateVersions is Evaluate where the JsonPaths that name a version
// other than obj's are evaluated on the object read in that version; a nil
// other makes them problems.
func EvaluateVersions(obj *unstructured.Unstructured, other ReadVersion, rules []workv1.FeedbackRule, opts Options) (values []workv1.FeedbackValue, problems []string) {
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
	for _, rule := range rules {
		var paths []workv1.JsonPath
		switch rule.Type {
		case workv1.WellKnownStatusType:
			gvk := obj.GroupVersionKind()
			paths = wellKnownStatus[gvk]
			if len(paths) == 0 {
				problems = append(problems, fmt.Sprintf("cannot find the wellknown statuses for resource with gvk %s", gvk.String()))
			}
		case workv1.JSONPathsType:
			paths = rule.JsonPaths
		default:
			problems = append(problems, fmt.Sprintf("unknown feedback rule type %q", rule.Type))
		}
		for _, jp := range paths {
			v, found, problem := fromPath(versionOf(obj, other, jp), jp, opts)
			switch {
			case problem != "":
				problems = append(problems, problem)
			case !found:
			case seen[jp.Name]:
				problems = append(problems, fmt.Sprintf("value %q is produced more than once; the first is kept", jp.Name))
			default:
				seen[jp.Name] = true
				values = append(values, workv1.FeedbackValue{Name: jp.Name, Value: v})
			}
		}
	}
	return values, problems
}

// versioned is the object a path is evaluated on, or why there is none.
type versioned struct {
	obj *unstructured.Unstructured
	err error
}

// versionOf is the object in the version jp asks for: obj itself, unless jp
// names another version and other can read it.
func versionOf(obj *unstructured.Unstructured, other ReadVersion, jp workv1.JsonPath) versioned {
	if jp.Version == "" || jp.Version == obj.GroupVersionKind().Version || other == nil {
		return versioned{obj: obj}
	}
	read, err := other(jp.Version)
	if err != nil {
		return versioned{err: fmt.Errorf("reading version %s: %w", jp.Version, err)}
	}
	return versioned{obj: read}
}

// fromPath produces the value of one named JSONPath. found is false when
// the path selects nothing, or null.
func fromPath(in versioned, jp workv1.JsonPath, opts Options) (v workv1.FieldValue, found bool, problem string) {
	if jp.Name == "" {
		return v, false, fmt.Sprintf("path %s has no name", jp.Path)
	}
	if in.err != nil {
		return v, false, in.err.Error()
	}
	obj := in.obj
	if jp.Version != "" && obj.GroupVersionKind().Version != jp.Version {
		return v, false, fmt.Sprintf("version set in the path %s is not matched for the related resource", jp.Name)
	}
	matches, err := find(obj.Object, jp.Path)
	var parseErr parseError
	switch {
	case errors.As(err, &parseErr):
		return v, false, fmt.Sprintf("failed to parse json path %s of %s with error: %v", jp.Path, jp.Name, parseErr.err)
	case err != nil:
		return v, false, fmt.Sprintf("failed to find value for %s with error: %v", jp.Name, err)
	case len(matches) == 0:
		return v, false, ""
	}
	var x interface{} = matches[0]
	if len(matches) > 1 && opts.RawJSON {
		x = matches
	}
	if x == nil {
		return v, false, ""
	}
	if v, ok := scalar(x); ok {
		return v, true, ""
	}
	if !opts.RawJSON {
		return v, false, fmt.Sprintf("the type %v of the value for %s is not found", reflect.TypeOf(x), jp.Name)
	}
	data, err := json.Marshal(x)
	if err != nil {
		return v, false, fmt.Sprintf("failed to parse the resource to json string for name %s: %v", jp.Name, err)
	}
	if len(data) > opts.MaxJSONRawLength {
		return v, false, fmt.Sprintf("the length of returned json raw string for name %s is larger than the maximum length %d", jp.Name, opts.MaxJSONRawLength)
	}
	s := string(data)
	return workv1.FieldValue{Type: workv1.JsonRaw, JsonRaw: &s}, true, ""
}

// find evaluates a Kubernetes JSONPath, with or without the enclosing braces,
// on content and returns the matches of its first expression in order (a
// null as nil). Missing fields match nothing.
func find(content map[string]interface{}, path string) (matches []interface{}, err error) {
	text := strings.TrimSpace(path)
	if !strings.HasPrefix(text, "{") {
		text = "{" + text + "}"
	}
	defer func() {
		// The parser works on user input; never let it take the agent down.
		if r := recover(); r != nil {
			matches, err = nil, fmt.Errorf("%v", r)
		}
	}()
	jp := jsonpath.New("feedback").AllowMissingKeys(true)
	if err := jp.Parse(text); err != nil {
		return nil, parseError{err: err}
	}
	results, err := jp.FindResults(content)
	if err != nil || len(results) == 0 {
		return nil, err
	}
	for _, v := range results[0] {
		if !v.IsValid() {
			matches = append(matches, nil)
			continue
		}
		matches = append(matches, v.Interface())
	}
	return matches, nil
}

// parseError is a path that is not valid JSONPath.
type parseError struct{ err error }

func (e parseError) Error() string { return e.err.Error() }

// scalar converts a supported scalar to a FieldValue.
func scalar(x interface{}) (workv1.FieldValue, bool) {
	switch v := x.(type) {
	case bool:
		return workv1.FieldValue{Type: workv1.Boolean, Boolean: &v}, true
	case string:
		return workv1.FieldValue{Type: workv1.String, String: &v}, true
	case int64:
		return integer(v), true
	case int:
		return integer(int64(v)), true
	case int32:
		return integer(int64(v)), true
	case float64:
		if v == math.Trunc(v) && v >= math.MinInt64 && v < math.MaxInt64 {
			return integer(int64(v)), true
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return integer(i), true
		}
	}
	return workv1.FieldValue{}, false
}

func integer(i int64) workv1.FieldValue {
	return workv1.FieldValue{Type: workv1.Integer, Integer: &i}
}
