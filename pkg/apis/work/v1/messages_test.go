package v1

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestShorten(t *testing.T) {
	const mark = " …[cut]" // multi-byte itself
	cases := []struct {
		name string
		in   string
		n    int
		mark string
		want string
	}{
		{"a short message is kept", "short", 10, "...", "short"},
		{"a short multi-byte message is kept", "é世🙂", 9, "...", "é世🙂"},
		{"a message at the limit is kept", "abcde", 5, "...", "abcde"},
		{"a longer one is cut, the mark included", "abcdef", 5, "...", "ab..."},
		{"without a mark", "abcdef", 5, "", "abcde"},
		{"a multi-byte mark counts its bytes", "abcdefghijklmnop", 12, mark, "abc" + mark},
		// é is 2 bytes, 世 3, 🙂 4: the cut moves back to the start of the
		// character it would split, so that the result is shorter than n.
		{"2-byte characters: not split", "aéééé", 4, "", "aé"},
		{"3-byte characters: not split", "世界世界", 7, "", "世界"},
		{"4-byte characters: not split, the mark kept", "🙂🙂🙂🙂", 10, "...", "🙂..."},
		{"a character on the boundary is kept whole", "aéb世", 3, "", "aé"},
		{"nothing left but the mark", "🙂🙂", 4, "...", "..."},
		{"a limit shorter than the mark drops the mark", "abcdef", 2, "...", "ab"},
		{"zero", "abc", 0, "...", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Shorten(tc.in, tc.n, tc.mark)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, len(got), tc.n, "at most n bytes")
			assert.True(t, utf8.ValidString(got), "no split character")
		})
	}
}

// The limits as the agent uses them: a condition message is cut at
// MaxConditionMessageLength without a mark, an Event message at
// MaxEventMessageLength with "...".
func TestShortenAtTheLimits(t *testing.T) {
	long := strings.Repeat("é", MaxConditionMessageLength) // 2 bytes per rune
	assert.Equal(t, long[:MaxConditionMessageLength], Shorten(long, MaxConditionMessageLength, ""))
	assert.Equal(t, "x"+long[:MaxConditionMessageLength-2], Shorten("x"+long, MaxConditionMessageLength, ""), "without splitting a rune")

	atLimit := strings.Repeat("a", MaxEventMessageLength)
	assert.Equal(t, atLimit, Shorten(atLimit, MaxEventMessageLength, "..."))
	assert.Equal(t, atLimit[:MaxEventMessageLength-3]+"...", Shorten(atLimit+"b", MaxEventMessageLength, "..."))
	// The one output that differs from the agent's former Event helper,
	// which cut bytes: 2-byte characters put one across byte 1021, which it
	// split into an invalid string. The cut now keeps that character out
	// whole.
	odd := strings.Repeat("é", MaxEventMessageLength)
	got := Shorten(odd, MaxEventMessageLength, "...")
	assert.Equal(t, odd[:MaxEventMessageLength-4]+"...", got)
	assert.True(t, utf8.ValidString(got))
	assert.False(t, utf8.ValidString(odd[:MaxEventMessageLength-3]), "where the byte cut was")
}
