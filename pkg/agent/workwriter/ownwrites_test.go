package workwriter

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOwnWrites(t *testing.T) {
	type step struct {
		op      string // note, last, replaced, outdated, forget
		key     string
		version int
		want    bool // of replaced and outdated
	}
	n, l, r, o, f := "note", "last", "replaced", "outdated", "forget"
	cases := []struct {
		name  string
		steps []step
	}{
		{"nothing written: no copy is replaced", []step{{r, "a", 1, false}, {o, "a", 1, false}}},
		{"every copy the writes replaced, until a newer one is seen", []step{
			{n, "a", 1, false}, {n, "a", 2, false}, {o, "a", 1, true}, {o, "a", 2, true}, {o, "a", 3, false}, {o, "a", 1, false}}},
		{"replaced drops nothing when it finds another copy", []step{{n, "a", 1, false}, {r, "a", 3, false}, {r, "a", 1, true}}},
		{"the last write's replaced copy only", []step{{l, "a", 1, false}, {l, "a", 2, false}, {r, "a", 1, false}, {r, "a", 2, true}}},
		{"forgotten: seen, or gone", []step{{n, "a", 1, false}, {f, "a", 0, false}, {r, "a", 1, false}, {o, "a", 1, false}}},
		{"keys apart", []step{
			{n, "a", 1, false}, {n, "b", 1, false}, {o, "a", 2, false}, {f, "a", 0, false}, {o, "b", 1, true}, {r, "a", 1, false}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var o OwnWrites[string, int]
			for i, s := range tc.steps {
				switch s.op {
				case "note":
					o.Note(s.key, s.version)
				case "last":
					o.NoteLast(s.key, s.version)
				case "forget":
					o.Forget(s.key)
				case "replaced":
					assert.Equal(t, s.want, o.Replaced(s.key, s.version), "step %d", i)
				case "outdated":
					assert.Equal(t, s.want, o.Outdated(s.key, s.version), "step %d", i)
				default:
					t.Fatalf("unknown op %q", s.op)
				}
			}
		})
	}
}
