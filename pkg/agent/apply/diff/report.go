package diff

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Segment is one step of a Path: a map key, or a list index when IsIndex.
type Segment struct {
	Key     string
	Index   int
	IsIndex bool
}

// Path locates a field in an object.
type Path []Segment

// plainKey is a key that reads unambiguously after a dot.
var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// String writes the path as a JSONPath users can paste into kubectl:
// .spec.containers[0].image, .data["tls.crt"].
func (p Path) String() string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.IsIndex:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case plainKey.MatchString(s.Key):
			b.WriteString("." + s.Key)
		default:
			b.WriteString("[" + strconv.Quote(s.Key) + "]")
		}
	}
	return b.String()
}

// Difference is one field the live object does not hold as the manifest
// sets it.
type Difference struct {
	Path    Path
	Desired any  // the manifest's value
	Live    any  // the live value; nil when Missing
	Missing bool // the live object has no such field
	Removed bool // the manifest removes the field, which the live object has
}

// Report is the result of Compare.
type Report struct {
	// Differences are the first differences found, in path order.
	Differences []Difference
	// Total counts all differences, listed or not.
	Total int
	// Secret says the object is a Secret: none of its values is shown.
	Secret bool
}

// InSync tells whether the live object holds everything the manifest sets.
func (r Report) InSync() bool { return r.Total == 0 }

// Masked is what a report shows instead of a value that may be a credential.
const Masked = "(masked)"

// Absent is what a report shows for a field the live object lacks.
const Absent = "(absent)"

// maxValue bounds the length of one value in a report.
const maxValue = 64

// Values returns how the report shows the manifest's and the live value of
// d: JSON, cut to a bounded length, masked for a Secret or a field named
// like a credential, Absent for a missing field or one the manifest removes.
func (r Report) Values(d Difference) (desired, live string) {
	if r.Secret || Sensitive(d.Path) {
		desired, live = Masked, Masked
	} else {
		desired, live = render(d.Desired), render(d.Live)
	}
	switch {
	case d.Missing:
		live = Absent
	case d.Removed:
		desired = Absent
	}
	return desired, live
}

// Describe writes the listed differences, each with format applied to its
// path (%[1]s), the manifest's value (%[2]s) and the live value (%[3]s),
// joined by "; ", and says how many more there are.
func (r Report) Describe(format string) string {
	parts := make([]string, 0, len(r.Differences)+1)
	for _, d := range r.Differences {
		desired, live := r.Values(d)
		parts = append(parts, fmt.Sprintf(format, d.Path, desired, live))
	}
	if more := r.Total - len(r.Differences); more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(parts, "; ")
}

// Paths lists the paths of the listed differences.
func (r Report) Paths() []string {
	out := make([]string, len(r.Differences))
	for i, d := range r.Differences {
		out[i] = d.Path.String()
	}
	return out
}

func render(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return workv1.Shorten(string(data), maxValue, "...")
}

// isSecret tells a core Secret, all of whose values are masked.
func isSecret(obj *unstructured.Unstructured) bool {
	gvk := obj.GroupVersionKind()
	return gvk.Group == "" && gvk.Kind == "Secret"
}

// credentialWords are words that, anywhere in a field's name or in the name
// of a field above it, mark its value as a possible credential.
var credentialWords = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "passphrase": true,
	"token": true, "secret": true, "key": true, "apikey": true,
	"cert": true, "certificate": true, "crt": true, "pem": true,
	"credential": true, "credentials": true, "auth": true, "authorization": true,
	"private": true, "signature": true, "salt": true, "bearer": true,
}

// Sensitive tells whether a path names, at any level, a field whose value
// may be a credential: a word of the name (split at case changes, digits,
// '-', '_' and '.') is one of credentialWords. "sshKey", "tls.crt",
// "db_password" and "clientSecret" are; "monkey" and "keyboard" are not.
func Sensitive(p Path) bool {
	for _, s := range p {
		if s.IsIndex {
			continue
		}
		for _, word := range words(s.Key) {
			if credentialWords[word] {
				return true
			}
		}
	}
	return false
}

// words splits a field name into lower-case words.
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case r == '-' || r == '_' || r == '.' || r == ' ' || r == '/' || (r >= '0' && r <= '9'):
			flush()
		case r >= 'A' && r <= 'Z':
			// A new word starts at an upper-case letter after a lower-case
			// one (sshKey), or before a lower-case one in a run of capitals
			// (APIKey: API, Key).
			if i > 0 && (isLower(runes[i-1]) || (i+1 < len(runes) && isLower(runes[i+1]) && isUpper(runes[i-1]))) {
				flush()
			}
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

func isLower(r rune) bool { return r >= 'a' && r <= 'z' }
func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }
