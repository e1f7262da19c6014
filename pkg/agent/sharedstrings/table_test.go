package sharedstrings

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

func sameBytes(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func TestInternSharesOneCopy(t *testing.T) {
	table := New(10)
	a, b, empty := strings.Clone("word"), strings.Clone("word"), ""
	table.Intern(&a, &b, &empty)
	assert.Equal(t, "word", a)
	assert.True(t, sameBytes(a, b), "equal strings share one copy")
	assert.Equal(t, 1, len(table.seen), "the empty string is not kept")
}

func TestTableIsBounded(t *testing.T) {
	table := New(2)
	a, b, c := "a", "b", "c"
	table.Intern(&a, &b)
	table.Intern(&c)
	assert.LessOrEqual(t, len(table.seen), 2, "a full table starts over")
	again := strings.Clone("c")
	table.Intern(&again)
	assert.True(t, sameBytes(again, c), "what came after the start over is shared")
}
