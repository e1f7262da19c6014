package apply

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// fieldPath is a field of an object as a list of steps from the root: map
// keys, or list indexes written in decimal. Steps stay strings because a JSON
// pointer token such as "0" is a key or an index depending on what it meets.
type fieldPath []string

// parseJSONPath reads the JSONPaths ignoreFields accept, as OCM's agent
// evaluates them with Kubernetes' JSONPath: dotted field names from the root
// (.spec.replicas), optionally wrapped in {} or starting with $, with
// bracketed names for keys holding dots (.metadata.annotations['example.com/x']),
// a backslash escaping a dot (.metadata.labels.app\.kubernetes\.io/name), list
// indexes (.spec.containers[0].image), wildcards (.data.* or
// .spec.containers[*].image), filters (.spec.containers[?(@.name=="app")].image)
// and the other subscripts of lists: slices, unions of indexes and negative
// indexes. Recursive descent is refused.
func parseJSONPath(path string) (selector, error) {
	p := strings.TrimSpace(path)
	if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
		p = strings.TrimSpace(p[1 : len(p)-1])
	}
	p = strings.TrimPrefix(p, "$")
	if p == "" {
		return nil, errors.New("path is empty")
	}
	var steps selector
	for i := 0; i < len(p); {
		var st step
		var err error
		switch p[i] {
		case '.':
			st, i, err = readDottedName(p, i+1)
		case '[':
			st, i, err = readBracket(p, i+1)
		default:
			err = fmt.Errorf("unexpected %q at offset %d, expected '.' or '['", p[i], i)
		}
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// readDottedName reads a field name starting at i, up to the next unescaped
// '.' or '[', and returns the offset after it. An unescaped * is a wildcard.
func readDottedName(p string, i int) (step, int, error) {
	start := i
	var name strings.Builder
	escaped := false
	for ; i < len(p) && p[i] != '.' && p[i] != '['; i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
			escaped = true
		}
		name.WriteByte(p[i])
	}
	switch {
	case name.Len() == 0 && i < len(p) && p[i] == '.':
		return step{}, i, fmt.Errorf("recursive descent (..) at offset %d is not supported", start-1)
	case name.Len() == 0:
		return step{}, i, fmt.Errorf("empty field name at offset %d", start)
	case name.String() == "*" && !escaped:
		return step{all: true}, i, nil
	}
	return step{name: name.String()}, i, nil
}

// readBracket reads what follows a '[' at i: a quoted key, a list index, a
// wildcard, a filter or another subscript of lists, and returns the offset
// after the closing ']'.
func readBracket(p string, i int) (step, int, error) {
	if i < len(p) && (p[i] == '\'' || p[i] == '"') {
		key, next, err := readQuotedKey(p, i)
		return step{name: key}, next, err
	}
	if strings.HasPrefix(p[i:], "?(") {
		return readFilter(p, i)
	}
	end := strings.IndexByte(p[i:], ']')
	if end < 0 {
		return step{}, i, fmt.Errorf("unterminated '[' at offset %d", i-1)
	}
	subscript := p[i : i+end]
	next := i + end + 1
	if n, err := strconv.Atoi(subscript); err == nil && n >= 0 {
		return step{name: subscript}, next, nil
	}
	if strings.TrimSpace(subscript) == "*" {
		return step{all: true}, next, nil
	}
	st, err := newPick("[" + subscript + "]")
	if err != nil {
		return step{}, i, fmt.Errorf("unsupported subscript [%s] at offset %d: %v", subscript, i-1, err)
	}
	return st, next, nil
}

// readFilter reads a filter [?(...)] whose '?' is at i, up to the ')]' that
// is not inside quotes, and returns the offset after it.
func readFilter(p string, i int) (step, int, error) {
	var quote byte
	for j := i + 2; j < len(p); j++ {
		switch c := p[j]; {
		case quote != 0:
			if c == quote && p[j-1] != '\\' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ')' && j+1 < len(p) && p[j+1] == ']':
			filter := "[" + p[i:j+1] + "]"
			st, err := newPick(filter)
			if err != nil {
				return step{}, i, fmt.Errorf("invalid filter %s at offset %d: %v", filter, i-1, err)
			}
			return st, j + 2, nil
		}
	}
	return step{}, i, fmt.Errorf("unterminated filter at offset %d", i-1)
}

func readQuotedKey(p string, i int) (string, int, error) {
	quote := p[i]
	end := strings.IndexByte(p[i+1:], quote)
	if end < 0 {
		return "", i, fmt.Errorf("unterminated quote at offset %d", i)
	}
	key := p[i+1 : i+1+end]
	after := i + 1 + end + 1
	if after >= len(p) || p[after] != ']' {
		return "", i, fmt.Errorf("expected ']' at offset %d", after)
	}
	return key, after + 1, nil
}

// parseJSONPointer reads an RFC 6901 pointer such as /data/key, where ~1
// stands for '/' and ~0 for '~'. The empty pointer, the whole object, is
// refused: ignoring every field would leave nothing to apply.
func parseJSONPointer(pointer string) (fieldPath, error) {
	if pointer == "" {
		return nil, errors.New("the empty pointer selects the whole object")
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, errors.New("a JSON pointer must start with '/'")
	}
	var steps fieldPath
	for _, token := range strings.Split(pointer[1:], "/") {
		step, err := unescapePointerToken(token)
		if err != nil {
			return nil, err
		}
		steps = append(steps, step)
	}
	return steps, nil
}

func unescapePointerToken(token string) (string, error) {
	for i := 0; i < len(token); i++ {
		if token[i] == '~' && (i+1 == len(token) || (token[i+1] != '0' && token[i+1] != '1')) {
			return "", fmt.Errorf("invalid escape in %q: '~' must be followed by 0 or 1", token)
		}
	}
	// ~1 first, so that "~01" becomes "~1" and not "/".
	return strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~"), nil
}

// get returns the value at the path, and whether there is one.
func (fp fieldPath) get(obj map[string]any) (any, bool) {
	var node any = obj
	for _, step := range fp {
		next, ok := child(node, step)
		if !ok {
			return nil, false
		}
		node = next
	}
	return node, true
}

// set puts value at the path, creating missing maps on the way. A missing
// list item cannot be created meaningfully, so set reports false then.
func (fp fieldPath) set(obj map[string]any, value any) bool {
	parent, ok := fp.parent(obj, true)
	if !ok {
		return false
	}
	return setChild(parent, fp[len(fp)-1], value)
}

// remove deletes the field at the path, if there is one. List items are
// only ever replaced, never removed, since removing one would shift the
// others.
func (fp fieldPath) remove(obj map[string]any) {
	parent, ok := fp.parent(obj, false)
	if !ok {
		return
	}
	if m, isMap := parent.(map[string]any); isMap {
		delete(m, fp[len(fp)-1])
	}
}

// parent walks to the container of the last step; with create, missing maps
// on the way are added. Maps are references, so the map stored in the parent
// is the very one walked into next.
func (fp fieldPath) parent(obj map[string]any, create bool) (any, bool) {
	var node any = obj
	for _, step := range fp[:len(fp)-1] {
		next, ok := child(node, step)
		if !ok && create {
			next = map[string]any{}
			ok = setChild(node, step, next)
		}
		if !ok {
			return nil, false
		}
		node = next
	}
	return node, true
}

func child(node any, step string) (any, bool) {
	switch n := node.(type) {
	case map[string]any:
		v, ok := n[step]
		return v, ok
	case []any:
		i, ok := listIndex(n, step)
		if !ok {
			return nil, false
		}
		return n[i], true
	}
	return nil, false
}

func setChild(node any, step string, value any) bool {
	switch n := node.(type) {
	case map[string]any:
		n[step] = value
		return true
	case []any:
		i, ok := listIndex(n, step)
		if ok {
			n[i] = value
		}
		return ok
	}
	return false
}

func listIndex(list []any, step string) (int, bool) {
	i, err := strconv.Atoi(step)
	return i, err == nil && i >= 0 && i < len(list)
}
