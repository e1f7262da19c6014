package workwriter

import "unicode/utf8"

// MaxMessageLength is the longest condition message the hub accepts (the
// schema's limit of metav1.Condition.Message).
const MaxMessageLength = 32768

// TruncateMessage cuts a condition message to MaxMessageLength bytes
// without splitting a rune.
func TruncateMessage(s string) string {
	if len(s) <= MaxMessageLength {
		return s
	}
	cut := MaxMessageLength
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// MaxEventMessageLength keeps the message of an Event on a work short: the
// work's status has the whole text.
const MaxEventMessageLength = 1024

// EventMessage cuts an Event message to MaxEventMessageLength bytes,
// marking the cut with "...".
func EventMessage(s string) string {
	if len(s) <= MaxEventMessageLength {
		return s
	}
	return s[:MaxEventMessageLength-3] + "..."
}
