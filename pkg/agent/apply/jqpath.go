package apply

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/itchyny/gojq"

	"github.com/manifestwork/work/pkg/manifest"
)

// Bounds of one jqPathExpression's evaluation on one object: a path
// expression that loops, or picks a field of every item of a huge list,
// fails the manifest with a precise message instead of holding a worker.
const jqMaxPaths = 10000

// jqTimeout is a variable only so that a test of another bound can lift it
// on a loaded machine.
var jqTimeout = 100 * time.Millisecond

// jqPath is an ignoreFields jqPathExpression, as OCM's newer agents take it:
// a jq path expression (.data.key, .spec.containers[] | select(.name ==
// "app") | .image) that picks fields on the object. It is compiled once as
// path(expression), which yields the concrete path of every field picked.
type jqPath struct {
	expression string
	code       *gojq.Code
}

// parseJQPath compiles a jqPathExpression, from the cache when it was
// compiled before. An expression that does not parse fails here; one that
// is not a path expression (.a | tostring) fails when evaluated.
func parseJQPath(expression string) (jqPath, error) {
	if code, ok := jqCodes.get(expression); ok {
		return jqPath{expression: expression, code: code}, nil
	}
	code, err := manifest.CompileJQPath(expression)
	if err != nil {
		return jqPath{}, err
	}
	jqCodes.put(expression, code)
	return jqPath{expression: expression, code: code}, nil
}

// jqCodes caches compiled expressions: every apply of a manifest parses its
// ignoreFields again.
var jqCodes = &jqCache{codes: map[string]*gojq.Code{}}

// jqCacheSize bounds the cache; a full cache is emptied, which costs
// compiling the expressions in use once more.
const jqCacheSize = 1024

type jqCache struct {
	mu    sync.Mutex
	codes map[string]*gojq.Code
}

func (c *jqCache) get(expression string) (*gojq.Code, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	code, ok := c.codes[expression]
	return code, ok
}

func (c *jqCache) put(expression string, code *gojq.Code) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.codes) >= jqCacheSize {
		clear(c.codes)
	}
	c.codes[expression] = code
}

// jqField is one field a jqPathExpression picks on an object: its path,
// and its shape, the path with its list indexes blanked, which the fields
// alike but for their positions in lists share.
type jqField struct {
	path   fieldPath
	shape  string
	inList bool // the path goes through a list
}

// fields are the fields the expression picks on obj.
func (q jqPath) fields(ctx context.Context, obj map[string]any) ([]jqField, error) {
	if obj == nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, jqTimeout)
	defer cancel()
	iter := q.code.RunWithContext(ctx, jqValue(obj))
	var fields []jqField
	for {
		v, ok := iter.Next()
		if !ok {
			return fields, nil
		}
		if err, isErr := v.(error); isErr {
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, fmt.Errorf("evaluation took longer than %s", jqTimeout)
			}
			return nil, err
		}
		if len(fields) == jqMaxPaths {
			return nil, fmt.Errorf("it picks more than %d fields", jqMaxPaths)
		}
		field, err := jqFieldOf(v)
		if err != nil {
			return nil, err
		}
		if len(field.path) == 0 {
			return nil, errors.New("it picks the whole object; pick fields of it")
		}
		fields = append(fields, field)
	}
}

// jqFieldOf is the field of a path that path(...) yields, an array of keys
// and list indexes.
func jqFieldOf(v any) (jqField, error) {
	steps, ok := v.([]any)
	if !ok {
		return jqField{}, fmt.Errorf("not a path: %v", v)
	}
	field := jqField{path: make(fieldPath, len(steps))}
	shape := make([]string, len(steps))
	for i, s := range steps {
		switch s := s.(type) {
		case string:
			field.path[i], shape[i] = s, "."+s
		case int:
			if s < 0 {
				return jqField{}, fmt.Errorf("negative list index %d in the path", s)
			}
			field.path[i], shape[i], field.inList = strconv.Itoa(s), "#", true
		default:
			return jqField{}, fmt.Errorf("step %v of the path is neither a field name nor a list index", s)
		}
	}
	field.shape = strings.Join(shape, "\x00")
	return field, nil
}

// jqValue is obj as gojq reads it: the same maps and lists, with int64
// numbers (as the API's JSON decodes) as int.
func jqValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, item := range v {
			out[k] = jqValue(item)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = jqValue(item)
		}
		return out
	case int64:
		return int(v)
	case int32:
		return int(v)
	}
	return v
}

// expand resolves the expression on the object being applied and the live
// object (nil when there is none). Fields of the same shape pair by order:
// a map field with the same field, and the n-th list item a filter picks in
// the body with the n-th it picks in the live list, whatever their
// positions, as JSONPath filters do (selector.expand). A field only the live
// object has is copied to the body when its path goes through no list,
// since the body cannot hold an item the manifest lacks.
func (q jqPath) expand(ctx context.Context, body, live map[string]any) ([]match, error) {
	bodyFields, err := q.fields(ctx, body)
	if err != nil {
		return nil, err
	}
	liveFields, err := q.fields(ctx, live)
	if err != nil {
		return nil, err
	}
	free := map[string][]jqField{} // shape → live fields not paired yet, in order
	for _, f := range liveFields {
		free[f.shape] = append(free[f.shape], f)
	}
	id := func(p fieldPath) fieldPath { return append(fieldPath{"jq:" + q.expression}, p...) }
	out := make([]match, 0, len(bodyFields))
	for _, f := range bodyFields {
		m := match{body: f.path, id: id(f.path)}
		if fs := free[f.shape]; len(fs) > 0 {
			m.liveValue, m.liveFound = fs[0].path.get(live)
			free[f.shape] = fs[1:]
		}
		out = append(out, m)
	}
	for _, f := range liveFields { // a shape through no list is one path
		if fs := free[f.shape]; len(fs) > 0 && !f.inList {
			m := match{body: f.path, id: id(f.path)}
			m.liveValue, m.liveFound = f.path.get(live)
			free[f.shape] = fs[1:]
			out = append(out, m)
		}
	}
	return out, nil
}
