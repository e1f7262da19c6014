package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// table writes columns aligned as kubectl's tables, without colour and
// without trailing blanks.
type table struct {
	out io.Writer
	buf bytes.Buffer
	w   *tabwriter.Writer
}

func newTable(w io.Writer, head ...string) *table {
	t := &table{out: w}
	t.w = tabwriter.NewWriter(&t.buf, 0, 8, 3, ' ', 0)
	t.row(head...)
	return t
}

func (t *table) row(cells ...string) {
	fmt.Fprintln(t.w, strings.Join(cells, "\t"))
}

func (t *table) flush() error {
	if err := t.w.Flush(); err != nil {
		return err
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(t.buf.String(), "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		out.WriteString(strings.TrimRight(body, " "))
		if nl {
			out.WriteString("\n")
		}
	}
	_, err := io.WriteString(t.out, out.String())
	return err
}

// cell is a condition's status, or "-" when the work has none.
func cell(s metav1.ConditionStatus) string {
	if s == "" {
		return "-"
	}
	return string(s)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// age is how long ago t was, in kubectl's short form: 42s, 5m, 3h, 2d.
func age(now, t time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "0s"
	case d < 2*time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < 2*time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// printObject prints v as YAML or JSON.
func printObject(w io.Writer, format string, v any) error {
	var out []byte
	var err error
	if format == OutputJSON {
		out, err = json.MarshalIndent(v, "", "    ")
		out = append(out, '\n')
	} else {
		out, err = yaml.Marshal(v)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}
