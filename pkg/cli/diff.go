package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"sigs.k8s.io/yaml"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// Diff prints, per cluster the placements of the replica set name select,
// a unified diff of the spec of its work as stored against the spec the
// hub would write (render's; all added for a cluster without a work), and
// nothing for a cluster whose work would not change. It only reads the
// hub. Secrets' values are masked: a changed value shows as
// "*** (before)" and "*** (after)". It exits 1 when some work would change
// or some cluster fails to render (named on o.ErrOut), 0 when nothing
// would change.
func Diff(ctx context.Context, o *Options, ro RenderOptions, name string) error {
	p, err := o.preview(ctx, ro, name)
	if err != nil {
		return err
	}
	var changed []string
	for _, c := range p.clusters {
		if c.err != nil {
			fmt.Fprintln(o.ErrOut, c.err)
			continue
		}
		text, err := specDiff(c)
		if err != nil {
			return exitf(ExitFailed, "cluster %s: %v", c.name, err)
		}
		if text == "" {
			continue
		}
		changed = append(changed, c.name)
		if _, err := fmt.Fprint(o.Out, text); err != nil {
			return err
		}
	}
	if err := p.failed(); err != nil {
		return err
	}
	if len(changed) > 0 {
		return exitf(ExitFailed, "manifestworkreplicaset %s/%s: the works of %d of %d clusters would change: %s",
			p.rs.Namespace, p.rs.Name, len(changed), len(p.clusters), strings.Join(changed, ", "))
	}
	return nil
}

// specDiff is the unified diff of the cluster's work's spec, as YAML, from
// the stored work to the rendered one; "" when they are the same.
func specDiff(c clusterPreview) (string, error) {
	after, err := workObject(c.work)
	if err != nil {
		return "", err
	}
	from := c.name + "/" + c.work.Name + " (none)"
	var before map[string]any
	if c.stored != nil {
		stored := &workv1.ManifestWork{Spec: c.stored.Spec}
		if before, err = workObject(stored); err != nil {
			return "", err
		}
		from = c.name + "/" + c.stored.Name + " (stored)"
	}
	theirs, ours := secretValues(before), secretValues(after)
	maskSecrets(before, ours, maskedBefore)
	maskSecrets(after, theirs, maskedAfter)
	a, err := specYAML(before)
	if err != nil {
		return "", err
	}
	b, err := specYAML(after)
	if err != nil {
		return "", err
	}
	if a == b {
		return "", nil
	}
	return difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: lines(a), B: lines(b),
		FromFile: from, ToFile: c.name + "/" + c.work.Name + " (rendered)", Context: diffContext,
	})
}

// specYAML is the spec of work (JSON values) as YAML; "" for no work.
func specYAML(work map[string]any) (string, error) {
	if work == nil {
		return "", nil
	}
	out, err := yaml.Marshal(work["spec"])
	return string(out), err
}

// lines splits text after each newline; "" has none.
func lines(text string) []string {
	out := strings.SplitAfter(text, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
