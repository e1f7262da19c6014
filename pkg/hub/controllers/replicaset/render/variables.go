package render

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubescheme "k8s.io/client-go/kubernetes/scheme"
)

// Variables in patch values. A variable is written ${cluster.name},
// ${cluster.labels['KEY']} or ${cluster.claims['NAME']}; spaces inside the
// braces are allowed. Only a ${ whose content starts with "cluster" is a
// variable, so text such as a shell's ${HOME} is kept as it is; $${ is a
// literal ${ (so $${cluster.name} writes ${cluster.name}).
const (
	varOpen   = "${"
	varEscape = "$${"
	varRoot   = "cluster"
)

// variable is one parsed variable: source is name, labels or claims; key
// is the label's key or the claim's name.
type variable struct {
	text, source, key string
}

// parseVariable reads the content between ${ and }; ok is false when it is
// not a variable of ours (it does not start with "cluster").
func parseVariable(content string) (v variable, ok bool, err error) {
	expr := strings.TrimSpace(content)
	v.text = varOpen + content + "}"
	if !strings.HasPrefix(expr, varRoot) {
		return v, false, nil
	}
	rest := strings.TrimPrefix(expr, varRoot)
	if rest == ".name" {
		v.source = "name"
		return v, true, nil
	}
	for _, source := range []string{"labels", "claims"} {
		prefix := "." + source + "['"
		if strings.HasPrefix(rest, prefix) && strings.HasSuffix(rest, "']") && len(rest) > len(prefix)+2 {
			key := rest[len(prefix) : len(rest)-2]
			if strings.ContainsAny(key, "'[]") {
				break
			}
			v.source, v.key = source, key
			return v, true, nil
		}
	}
	return v, true, fmt.Errorf("%s is not a variable: use ${cluster.name}, ${cluster.labels['KEY']} or ${cluster.claims['NAME']} ($${ writes a literal ${)", v.text)
}

// value is the variable's value for the cluster; a missing label or claim
// is an error, never an empty value.
func (v variable) value(c ClusterFacts) (string, error) {
	switch v.source {
	case "name":
		return c.Name, nil
	case "labels":
		if s, ok := c.Labels[v.key]; ok {
			return s, nil
		}
		return "", fmt.Errorf("the cluster has no label %q (%s)", v.key, v.text)
	default:
		if s, ok := c.Claims[v.key]; ok {
			return s, nil
		}
		return "", fmt.Errorf("the cluster has no claim %q (%s)", v.key, v.text)
	}
}

// segment is a piece of a string: literal text, or a variable.
type segment struct {
	text string
	v    *variable
}

// parseString splits s into text and variables.
func parseString(s string) ([]segment, error) {
	var out []segment
	var text strings.Builder
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, varEscape):
			text.WriteString(varOpen)
			s = s[len(varEscape):]
		case strings.HasPrefix(s, varOpen):
			end := strings.IndexByte(s, '}')
			if end < 0 {
				if strings.HasPrefix(strings.TrimSpace(s[len(varOpen):]), varRoot) {
					return nil, fmt.Errorf("%q has no closing } for its variable", s)
				}
				text.WriteString(s)
				s = ""
				continue
			}
			v, ok, err := parseVariable(s[len(varOpen):end])
			if err != nil {
				return nil, err
			}
			if !ok {
				text.WriteString(s[:end+1])
				s = s[end+1:]
				continue
			}
			if text.Len() > 0 {
				out = append(out, segment{text: text.String()})
				text.Reset()
			}
			out = append(out, segment{v: &v})
			s = s[end+1:]
		default:
			text.WriteByte(s[0])
			s = s[1:]
		}
	}
	if text.Len() > 0 || len(out) == 0 {
		out = append(out, segment{text: text.String()})
	}
	return out, nil
}

// CheckVariables checks the variables of a patch value without a cluster:
// admission uses it to refuse a malformed or unknown variable.
func CheckVariables(value any) error {
	return walkStrings(value, func(s string) error {
		_, err := parseString(s)
		return err
	})
}

func walkStrings(value any, f func(string) error) error {
	switch v := value.(type) {
	case string:
		return f(v)
	case map[string]any:
		for _, e := range v {
			if err := walkStrings(e, f); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range v {
			if err := walkStrings(e, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// substitute replaces the variables of value (decoded JSON) for the
// cluster. at is the JSON pointer's tokens where value goes in a manifest
// of kind gvk: a string that is exactly one variable takes the type of the
// field there when the hub knows the kind's schema.
func substitute(value any, c ClusterFacts, gvk schema.GroupVersionKind, at []string) (any, error) {
	switch v := value.(type) {
	case string:
		segs, err := parseString(v)
		if err != nil {
			return nil, err
		}
		if len(segs) == 1 && segs[0].v != nil {
			s, err := segs[0].v.value(c)
			if err != nil {
				return nil, err
			}
			return typed(s, gvk, at, segs[0].v.text)
		}
		var b strings.Builder
		for _, seg := range segs {
			if seg.v == nil {
				b.WriteString(seg.text)
				continue
			}
			s, err := seg.v.value(c)
			if err != nil {
				return nil, err
			}
			b.WriteString(s)
		}
		return b.String(), nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			s, err := substitute(e, c, gvk, append(at[:len(at):len(at)], k))
			if err != nil {
				return nil, err
			}
			out[k] = s
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			s, err := substitute(e, c, gvk, append(at[:len(at):len(at)], strconv.Itoa(i)))
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	}
	return value, nil
}

var (
	intOrStringType = reflect.TypeOf(intstr.IntOrString{})
)

// typed is s as the field at the path of a gvk manifest needs it: a number
// for integers and floats, a bool for bools, an integer when it reads as
// one for int-or-string fields, a string otherwise (and for kinds the hub
// does not know, such as custom resources).
func typed(s string, gvk schema.GroupVersionKind, at []string, text string) (any, error) {
	t := fieldType(gvk, at)
	if t == nil {
		return s, nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	field := "/" + strings.Join(at, "/")
	switch {
	case t == intOrStringType:
		if n, err := strconv.ParseInt(s, 10, 32); err == nil {
			return n, nil
		}
		return s, nil
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		n, err := strconv.ParseInt(s, 10, t.Bits())
		if err != nil {
			return nil, fmt.Errorf("%s is %q, not the integer %s of %s needs", text, s, field, gvk.Kind)
		}
		return n, nil
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, t.Bits())
		if err != nil {
			return nil, fmt.Errorf("%s is %q, not the integer %s of %s needs", text, s, field, gvk.Kind)
		}
		return n, nil
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		n, err := strconv.ParseFloat(s, t.Bits())
		if err != nil {
			return nil, fmt.Errorf("%s is %q, not the number %s of %s needs", text, s, field, gvk.Kind)
		}
		return n, nil
	case t.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil || (s != "true" && s != "false") {
			return nil, fmt.Errorf("%s is %q, not the true or false %s of %s needs", text, s, field, gvk.Kind)
		}
		return b, nil
	}
	return s, nil
}

// fieldType is the Go type of the field at the JSON pointer's tokens in a
// built-in kind, found by the json tags of client-go's types; nil when the
// kind or the field is unknown.
func fieldType(gvk schema.GroupVersionKind, at []string) reflect.Type {
	obj, err := kubescheme.Scheme.New(gvk)
	if err != nil {
		return nil
	}
	t := reflect.TypeOf(obj)
	for _, token := range at {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Struct:
			if t = jsonField(t, token); t == nil {
				return nil
			}
		case reflect.Slice, reflect.Array:
			if t.Elem().Kind() == reflect.Uint8 {
				return nil
			}
			if _, err := strconv.Atoi(token); err != nil && token != "-" {
				return nil
			}
			t = t.Elem()
		case reflect.Map:
			t = t.Elem()
		default:
			return nil
		}
	}
	return t
}

// jsonField is the type of t's field whose JSON name is name, looking into
// inlined and embedded structs.
func jsonField(t reflect.Type, name string) reflect.Type {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		tagName, opts, _ := strings.Cut(tag, ",")
		if (tagName == "" && f.Anonymous) || strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if found := jsonField(ft, name); found != nil {
					return found
				}
			}
			continue
		}
		if tagName == "" {
			tagName = f.Name
		}
		if tagName == name && f.IsExported() {
			return f.Type
		}
	}
	return nil
}
