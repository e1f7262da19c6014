package apply

import (
	"slices"
	"sort"
	"strconv"

	"k8s.io/client-go/util/jsonpath"
)

// selector is an ignoreFields path: steps from the root of an object, each
// naming one field or picking several. Picks are resolved on the objects
// (expand), which gives the concrete fields (fieldPath) to work on.
type selector []step

// step is one step of a selector: one map key or list index (name), every
// key of a map or item of a list (all), or the list items a JSONPath
// subscript picks (pick: a filter, a slice, a union, a negative index).
type step struct {
	name string
	all  bool
	pick string // the subscript with its brackets, as Kubernetes' JSONPath reads it
}

// selectorOf is the selector of a concrete path.
func selectorOf(fp fieldPath) selector {
	out := make(selector, len(fp))
	for i, name := range fp {
		out[i] = step{name: name}
	}
	return out
}

// newPick checks a subscript with Kubernetes' JSONPath, as OCM's agent
// evaluates it, and returns its step.
func newPick(subscript string) (step, error) {
	if _, err := jsonpath.Parse("ignoreFields", "{"+subscript+"}"); err != nil {
		return step{}, err
	}
	return step{pick: subscript}, nil
}

// match is one field a selector picks: where it is in the object being
// applied (body), the value the live object has there (when found), and an
// identity that stays the same across applies as long as the manifest names
// the same field, for what the agent remembers of it (lastapplied.go).
type match struct {
	body      fieldPath
	liveValue any
	liveFound bool
	id        fieldPath
}

// expand resolves the selector on the object being applied and the live
// object (nil when there is none) walked side by side. A map key is followed
// in both; a wildcard on a map takes the keys of both. List items pair by
// order: the n-th item a wildcard, filter or subscript picks in the body
// pairs with the n-th it picks in the live list, so a filter pairs the
// items it selects whatever their positions; an item only the live list
// has cannot be added to the body and is left out. Nothing picked is
// nothing to do, as in OCM's agent.
func (s selector) expand(body, live map[string]any) []match {
	var out []match
	var walk func(n int, b, l any, lFound bool, at, id fieldPath)
	walk = func(n int, b, l any, lFound bool, at, id fieldPath) {
		if n == len(s) {
			out = append(out, match{body: slices.Clone(at), liveValue: l, liveFound: lFound, id: slices.Clone(id)})
			return
		}
		for _, p := range s[n].pairs(b, l, lFound) {
			nb, _ := child(b, p.body)
			var nl any
			nlFound := false
			if p.inLive {
				nl, nlFound = child(l, p.live)
			}
			walk(n+1, nb, nl, nlFound, append(at, p.body), append(id, p.id))
		}
	}
	walk(0, body, live, live != nil, nil, nil)
	return out
}

// pair is where one step leads in the body and, if inLive, in the live
// object, and the step's part of the field's identity.
type pair struct {
	body, live, id string
	inLive         bool
}

func (st step) pairs(b, l any, lFound bool) []pair {
	switch {
	case st.all:
		return allPairs(b, l, lFound)
	case st.pick != "":
		return pickPairs(st.pick, b, l, lFound)
	}
	return []pair{{body: st.name, live: st.name, id: st.name, inLive: true}}
}

// allPairs are the pairs of a wildcard: every key of either map, or every
// item of the body's list.
func allPairs(b, l any, lFound bool) []pair {
	bm, bIsMap := b.(map[string]any)
	lm, lIsMap := l.(map[string]any)
	if bIsMap || (lFound && lIsMap) {
		keys := map[string]bool{}
		for k := range bm {
			keys[k] = true
		}
		for k := range lm {
			keys[k] = true
		}
		var out []pair
		for k := range keys {
			out = append(out, pair{body: k, live: k, id: k, inLive: true})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].body < out[j].body })
		return out
	}
	bl, _ := b.([]any)
	ll, _ := l.([]any)
	return byOrder(picked("[*]", bl), picked("[*]", ll), strconv.Itoa)
}

// pickPairs are the pairs of a filter or subscript of lists.
func pickPairs(subscript string, b, l any, lFound bool) []pair {
	bl, _ := b.([]any)
	var lPicked []int
	if ll, ok := l.([]any); ok && lFound {
		lPicked = picked(subscript, ll)
	}
	return byOrder(picked(subscript, bl), lPicked, func(n int) string { return subscript + "#" + strconv.Itoa(n) })
}

// byOrder pairs the n-th index of the body with the n-th of the live list.
func byOrder(body, live []int, id func(n int) string) []pair {
	out := make([]pair, len(body))
	for n, i := range body {
		out[n] = pair{body: strconv.Itoa(i), id: id(n)}
		if n < len(live) {
			out[n].live, out[n].inLive = strconv.Itoa(live[n]), true
		}
	}
	return out
}

// picked are the indexes of the items of list a subscript picks, in the
// order it picks them, evaluated by Kubernetes' JSONPath: a filter on each
// item alone, any other subscript on the list of the indexes themselves.
// A subscript that fails on the list (an index out of range) picks nothing.
func picked(subscript string, list []any) []int {
	if len(list) == 0 {
		return nil
	}
	if subscript[1] == '?' {
		var out []int
		for i, item := range list {
			if len(find(subscript, []any{item})) > 0 {
				out = append(out, i)
			}
		}
		return out
	}
	var out []int
	for _, v := range find(subscript, anyIndexes(len(list))) {
		if i, ok := v.(int); ok {
			out = append(out, i)
		}
	}
	return out
}

func anyIndexes(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// find evaluates {subscript} on data. It is parsed for every evaluation:
// Kubernetes' JSONPath keeps what it resolves of a negative index in the
// parsed template.
func find(subscript string, data any) []any {
	jp := jsonpath.New("ignoreFields").AllowMissingKeys(true)
	if err := jp.Parse("{" + subscript + "}"); err != nil {
		return nil // checked when parsed: not reached
	}
	results, err := jp.FindResults(data)
	if err != nil {
		return nil
	}
	var out []any
	for _, r := range results {
		for _, v := range r {
			out = append(out, v.Interface())
		}
	}
	return out
}
