package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// outputDirective, on the line before a ```text block, makes the block what
// the ```sh block before it prints.
const outputDirective = "<!-- docs-test: output -->"

// ageToken is an age as kubectl and `work fleet` print it: 2s, 95s, 3m10s,
// 60m, 2h, 5d.
var ageToken = regexp.MustCompile(`^[0-9]+[smhdy]([0-9]+[smh])?$`)

// outputLineRegexp is the expression a line of a page's output block stands
// for: its words in order, separated by any run of blanks (tables are
// aligned to their widest cell); an age stands for any age, and "..." for
// any text (the page shortens what does not matter with it).
func outputLineRegexp(line string) *regexp.Regexp {
	var words []string
	for _, w := range strings.Fields(line) {
		if ageToken.MatchString(w) {
			words = append(words, `[0-9]+[smhdy]([0-9]+[smh])?`)
			continue
		}
		words = append(words, strings.ReplaceAll(regexp.QuoteMeta(w), regexp.QuoteMeta("..."), ".*"))
	}
	return regexp.MustCompile(`^\s*` + strings.Join(words, `\s+`) + `\s*$`)
}

// outputMismatch returns the first line of want that no line of out
// matches, after the lines that matched the lines of want before it; ""
// when every line of want has its match, in order.
func outputMismatch(want, out string) string {
	got := strings.Split(out, "\n")
	for _, line := range strings.Split(want, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		re := outputLineRegexp(line)
		for len(got) > 0 && !re.MatchString(got[0]) {
			got = got[1:]
		}
		if len(got) == 0 {
			return line
		}
		got = got[1:]
	}
	return ""
}

// checkOutput fails the test when a block printed what its output block
// does not show. The page goes on: one run names every block that differs.
func (r *docsRun) checkOutput(b docBlock, out string) {
	if b.want == "" {
		return
	}
	if line := outputMismatch(b.want, out); line != "" {
		r.t.Errorf("%s:%d: the block of line %d does not print, in order, what the page shows: no line matches\n%s\nafter the lines before it; it printed:\n%s",
			r.page, b.wantLine, b.line, line, out)
	}
}

// TestDocsOutputLines checks how an output block matches what a block
// printed, without clusters.
func TestDocsOutputLines(t *testing.T) {
	printed := "manifestworkreplicaset.work.open-cluster-management.io/web condition met\n" +
		"NAME   PLACEMENT    CLUSTERS   AGE\n" +
		"web    AsExpected   1          3m10s\n" +
		"error: revision 2 (hash 639232abab) failed on cluster1; cluster1 went back\n"
	for _, tc := range []struct {
		name, want, mismatch string
	}{
		{"a table, its age aside", "NAME PLACEMENT CLUSTERS AGE\nweb AsExpected 1 2s\n", ""},
		{"lines left out", "error: revision 2 (hash 639232abab) failed on cluster1; cluster1 went back\n", ""},
		{"... for any text", "error: revision 2 (...) failed on ...\n", ""},
		{"a word differs", "web AsExpected 2 2s\n", "web AsExpected 2 2s"},
		{"a hash differs", "error: revision 2 (hash 94b030bcaa) ...\n", "error: revision 2 (hash 94b030bcaa) ..."},
		{"out of order", "web AsExpected 1 2s\nNAME PLACEMENT CLUSTERS AGE\n", "NAME PLACEMENT CLUSTERS AGE"},
		{"part of a line", "web AsExpected\n", "web AsExpected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.mismatch, outputMismatch(tc.want, printed))
		})
	}
}
