package apply

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
const (
	jqTimeout  = 100 * time.Millisecond
	jqMaxPaths = 10000
)

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

// paths are the concrete paths of the fields the expression picks on obj.
// isIndex[i][j] tells that step j of path i is a list index.
func (q jqPath) paths(ctx context.Context, obj map[string]any) (paths []fieldPath, isIndex [][]bool, err error) {
	if obj == nil {
		return nil, nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, jqTimeout)
	defer cancel()
	iter := q.code.RunWithContext(ctx, jqValue(obj))
	for {
		v, ok := iter.Next()
		if !ok {
			return paths, isIndex, nil
		}
		if err, isErr := v.(error); isErr {
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, nil, fmt.Errorf("evaluation took longer than %s", jqTimeout)
			}
			return nil, nil, err
		}
		if len(paths) == jqMaxPaths {
			return nil, nil, fmt.Errorf("it picks more than %d fields", jqMaxPaths)
		}
		path, index, err := jqFieldPath(v)
		if err != nil {
			return nil, nil, err
		}
		if len(path) == 0 {
			return nil, nil, errors.New("it picks the whole object; pick fields of it")
		}
		paths, isIndex = append(paths, path), append(isIndex, index)
	}
}

// jqFieldPath turns a path that path(...) yields, an array of keys and
// indexes, into a fieldPath.
func jqFieldPath(v any) (fieldPath, []bool, error) {
	steps, ok := v.([]any)
	if !ok {
		return nil, nil, fmt.Errorf("not a path: %v", v)
	}
	path := make(fieldPath, len(steps))
	index := make([]bool, len(steps))
	for i, s := range steps {
		switch s := s.(type) {
		case string:
			path[i] = s
		case int:
			if s < 0 {
				return nil, nil, fmt.Errorf("negative list index %d in the path", s)
			}
			path[i], index[i] = strconv.Itoa(s), true
		default:
			return nil, nil, fmt.Errorf("step %v of the path is neither a field name nor a list index", s)
		}
	}
	return path, index, nil
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
// object (nil when there is none). A field picked at the same path in both
// pairs with itself; the others pair by order among the fields of the same
// shape (their paths alike but for list indexes), so that a filter of list
// items pairs the items it selects whatever their positions, as JSONPath
// filters do (selector.expand). A field only the live object has is copied
// to the body when its path goes through no list, since the body cannot
// hold an item the manifest lacks.
func (q jqPath) expand(ctx context.Context, body, live map[string]any) ([]match, error) {
	bodyPaths, _, err := q.paths(ctx, body)
	if err != nil {
		return nil, err
	}
	livePaths, liveIndex, err := q.paths(ctx, live)
	if err != nil {
		return nil, err
	}
	inLive := map[string]int{}
	for i, p := range livePaths {
		inLive[strings.Join(p, "\x00")] = i
	}
	used := make([]bool, len(livePaths))
	paired := make([]int, len(bodyPaths)) // index into livePaths, -1 for none
	for i, p := range bodyPaths {
		paired[i] = -1
		if j, ok := inLive[strings.Join(p, "\x00")]; ok && !used[j] {
			paired[i], used[j] = j, true
		}
	}
	pairByShape(bodyPaths, livePaths, paired, used)

	id := func(p fieldPath) fieldPath { return append(fieldPath{"jq:" + q.expression}, p...) }
	out := make([]match, 0, len(bodyPaths))
	for i, p := range bodyPaths {
		m := match{body: p, id: id(p)}
		if j := paired[i]; j >= 0 {
			m.liveValue, m.liveFound = livePaths[j].get(live)
		}
		out = append(out, m)
	}
	for j, p := range livePaths {
		if used[j] || slices.Contains(liveIndex[j], true) {
			continue
		}
		m := match{body: p, id: id(p)}
		m.liveValue, m.liveFound = p.get(live)
		out = append(out, m)
	}
	return out, nil
}

// pairByShape pairs, by order, the body paths left unpaired with the live
// paths left unused of the same shape.
func pairByShape(bodyPaths, livePaths []fieldPath, paired []int, used []bool) {
	free := map[string][]int{} // shape → unused live paths, in order
	for j, p := range livePaths {
		if !used[j] {
			free[shapeOf(p)] = append(free[shapeOf(p)], j)
		}
	}
	for i, p := range bodyPaths {
		if paired[i] >= 0 {
			continue
		}
		shape := shapeOf(p)
		if js := free[shape]; len(js) > 0 {
			paired[i], used[js[0]] = js[0], true
			free[shape] = js[1:]
		}
	}
}

// shapeOf is a path with its numeric steps blanked.
func shapeOf(p fieldPath) string {
	out := make([]string, len(p))
	for i, s := range p {
		if _, err := strconv.Atoi(s); err == nil {
			s = "#"
		}
		out[i] = s
	}
	return strings.Join(out, "\x00")
}
