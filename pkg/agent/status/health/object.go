package health

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Object reads the fields of an object that the rules look at. Missing or
// mistyped fields read as zero values: a status a controller has not written
// yet is simply empty.
type Object struct{ *unstructured.Unstructured }

// Int reads an integer field.
func (o Object) Int(path ...string) int64 {
	v, found, err := unstructured.NestedFieldNoCopy(o.Object, path...)
	if !found || err != nil {
		return 0
	}
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return 0
}

// IntOr reads an integer field, def when it is not set.
func (o Object) IntOr(def int64, path ...string) int64 {
	if _, found, _ := unstructured.NestedFieldNoCopy(o.Object, path...); !found {
		return def
	}
	return o.Int(path...)
}

// Has tells whether a field is set.
func (o Object) Has(path ...string) bool {
	v, found, _ := unstructured.NestedFieldNoCopy(o.Object, path...)
	return found && v != nil
}

// String reads a string field.
func (o Object) String(path ...string) string {
	s, _, _ := unstructured.NestedString(o.Object, path...)
	return s
}

// Bool reads a boolean field.
func (o Object) Bool(path ...string) bool {
	b, _, _ := unstructured.NestedBool(o.Object, path...)
	return b
}

// Maps reads a list of objects, skipping items that are not objects.
func (o Object) Maps(path ...string) []Object {
	items, _, _ := unstructured.NestedSlice(o.Object, path...)
	var out []Object
	for _, item := range items {
		if m, ok := item.(map[string]any); ok {
			out = append(out, Object{&unstructured.Unstructured{Object: m}})
		}
	}
	return out
}

// Cond is one entry of status.conditions.
type Cond struct {
	Type, Status, Reason, Message string
	ObservedGeneration            int64
	Found                         bool
}

// Is tells whether the condition is set with this status.
func (c Cond) Is(status string) bool { return c.Found && c.Status == status }

// Explain is "Reason: Message", or whichever is set.
func (c Cond) Explain() string {
	return detail("%s: %s", c.Reason, c.Message)
}

// detail joins a reason and a message, without its final period, as format
// ("%s: %s", "%s (%s)") says; or is whichever of them is set.
func detail(format, reason, message string) string {
	message = strings.TrimSuffix(message, ".")
	switch {
	case reason != "" && message != "":
		return fmt.Sprintf(format, reason, message)
	case reason != "":
		return reason
	}
	return message
}

// Condition finds the condition of a type in status.conditions.
func (o Object) Condition(condType string) Cond {
	for _, c := range o.Maps("status", "conditions") {
		if c.String("type") == condType {
			return Cond{
				Type: condType, Status: c.String("status"), Reason: c.String("reason"),
				Message: c.String("message"), ObservedGeneration: c.Int("observedGeneration"), Found: true,
			}
		}
	}
	return Cond{Type: condType}
}

// generationPending tells, with a message, that the controller has not yet
// seen the object's latest spec.
func (o Object) generationPending() (string, bool) {
	gen, observed := o.GetGeneration(), o.Int("status", "observedGeneration")
	if gen == 0 || observed >= gen {
		return "", false
	}
	return fmt.Sprintf("waiting for the controller to observe generation %d (it has seen %d)", gen, observed), true
}
