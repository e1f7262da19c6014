package v1

import "unicode/utf8"

// How long the messages on works may be. Every message the agent or the hub
// writes into a condition or an Event is cut to its limit by Shorten.
const (
	// MaxConditionMessageLength is the longest condition message the API
	// server accepts (the schema's limit of metav1.Condition.Message), in
	// bytes.
	MaxConditionMessageLength = 32768
	// MaxEventMessageLength keeps the message of an Event on a work short,
	// in bytes: the work's status has the whole text.
	MaxEventMessageLength = 1024
)

// Shorten cuts s to at most n bytes, mark included, and ends it with mark
// when it cut; s of at most n bytes is returned as it is. It never splits a
// UTF-8 character: the cut moves back to the start of the one it would
// split. When n cannot hold mark, s is cut to n bytes without it.
func Shorten(s string, n int, mark string) string {
	if len(s) <= n {
		return s
	}
	if n < len(mark) {
		mark = ""
	}
	cut := max(n-len(mark), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}
