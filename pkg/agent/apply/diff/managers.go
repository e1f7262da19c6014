package diff

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ChangedBy names the field managers of live that own a listed differing
// field the live object has, in the order of its managedFields. The API
// server gives a field to the manager that last set its value, so these are
// the writers that changed what the manifest sets (kubectl's are named
// kubectl-edit, kubectl-patch, kubectl-client-side-apply...). A field that
// was removed has no owner: when only such fields differ, nobody is named.
// Status writers are left out; they never own what a manifest sets, and so
// are the managers named in ours: the writer of the manifest keeps a share
// of a field that another writer changed.
func ChangedBy(live *unstructured.Unstructured, r Report, ours ...string) []string {
	var names []string
	for _, entry := range live.GetManagedFields() {
		if entry.Subresource != "" || entry.FieldsV1 == nil || slices.Contains(names, entry.Manager) || slices.Contains(ours, entry.Manager) {
			continue
		}
		var fields map[string]any
		if json.Unmarshal(entry.FieldsV1.Raw, &fields) != nil {
			continue
		}
		for _, d := range r.Differences {
			if !d.Missing && owns(fields, live.Object, d.Path) {
				names = append(names, entry.Manager)
				break
			}
		}
	}
	return names
}

// owns tells whether a managedFields set (fieldsV1) holds the field at path,
// or a field above it that is owned as a whole. obj is the live object,
// which list items are matched against.
func owns(fields map[string]any, obj any, path Path) bool {
	node := fields
	for _, s := range path {
		if len(node) == 0 {
			return true // an atomic field above the path
		}
		var child any
		if s.IsIndex {
			items, _ := obj.([]any)
			if s.Index >= len(items) {
				return false
			}
			obj = items[s.Index]
			child = listItem(node, s.Index, obj)
		} else {
			m, _ := obj.(map[string]any)
			obj = m[s.Key]
			child = node["f:"+s.Key]
		}
		next, ok := child.(map[string]any)
		if !ok {
			return false
		}
		node = next
	}
	return true
}

// listItem finds the entry of a list item in a fieldsV1 node: by its key
// fields (k:), its value (v:) or its index (i:).
func listItem(node map[string]any, index int, item any) any {
	if child, ok := node["i:"+strconv.Itoa(index)]; ok {
		return child
	}
	for name, child := range node {
		switch {
		case strings.HasPrefix(name, "k:"):
			var keys map[string]any
			if json.Unmarshal([]byte(name[2:]), &keys) == nil && holdsKeys(item, keys) {
				return child
			}
		case strings.HasPrefix(name, "v:"):
			var value any
			if json.Unmarshal([]byte(name[2:]), &value) == nil && scalarMatches(value, item) {
				return child
			}
		}
	}
	return nil
}

func holdsKeys(item any, keys map[string]any) bool {
	m, ok := item.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range keys {
		if !scalarMatches(v, m[k]) {
			return false
		}
	}
	return true
}
