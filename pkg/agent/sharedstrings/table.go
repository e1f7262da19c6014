// Package sharedstrings keeps one copy of the strings that repeat across the
// objects of the agent's caches. A decoded object brings its own copy of
// every string; at thousands of cached objects the same few words (a
// condition's reason, a namespace, the owner of many objects) would
// otherwise be megabytes.
package sharedstrings

import (
	"strings"
	"sync"
)

// Table keeps one copy of each string it has seen, up to a bound; when full
// it forgets them all, and objects cached before keep the copies they hold.
// It is safe for concurrent use.
type Table struct {
	mu   sync.Mutex
	max  int
	seen map[string]string
}

// New returns a table of at most max strings.
func New(max int) *Table {
	return &Table{max: max}
}

// Intern replaces each string by the table's copy of its value.
func (t *Table) Intern(ss ...*string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range ss {
		if *s == "" {
			continue
		}
		if v, ok := t.seen[*s]; ok {
			*s = v
			continue
		}
		if t.seen == nil || len(t.seen) >= t.max {
			t.seen = map[string]string{} // grows with use: most tables stay small
		}
		v := strings.Clone(*s) // not the decoder's buffer, which may hold more
		t.seen[v] = v
		*s = v
	}
}
