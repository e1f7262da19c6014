// Package render makes a cluster's work from a ManifestWorkReplicaSet's
// template and the WorkOverrides of the replica set: the rules that select
// the cluster, in order, patch or drop the template's manifests, with the
// cluster's name, labels and claims in their values. It is pure (no client):
// the replica set's controller renders the works it writes, and the CLI
// previews them, with the same code.
package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// ClusterFacts is what rules select a cluster by and what variables read:
// its name, its labels and claims (OCM's ManagedCluster's, or its
// namespace's labels on a hub without one), and the decision groups it is
// in.
type ClusterFacts struct {
	Name   string
	Labels map[string]string
	Claims map[string]string
	Groups []GroupRef
}

// GroupRef is a decision group of a placement: a rule names it as
// <placement>/<name>, or <placement>/<index> when it has no name.
type GroupRef struct {
	Placement string
	Name      string
	Index     int32
}

// names tells whether ref, as a rule writes it, names the group.
func (g GroupRef) names(ref string) bool {
	placement, group, _ := strings.Cut(ref, "/")
	return placement == g.Placement && (g.Name != "" && group == g.Name || group == strconv.Itoa(int(g.Index)))
}

// Applied names an override that made a cluster's work: one of its rules
// selects the cluster.
type Applied struct {
	Name       string
	Generation int64
}

// Error is why a cluster's work cannot be rendered: the override, its rule,
// the patch (-1 for none) and manifest it was at.
type Error struct {
	Cluster  string
	Override string
	Rule     int
	Patch    int
	Op       fleetv1alpha1.PatchOp
	Path     string
	Manifest string
	Reason   string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cluster %s: override %s, rule %d", e.Cluster, e.Override, e.Rule)
	if e.Patch >= 0 {
		fmt.Fprintf(&b, ", patch %d (%s %s)", e.Patch, e.Op, e.Path)
	}
	if e.Manifest != "" {
		fmt.Fprintf(&b, " on %s", e.Manifest)
	}
	b.WriteString(": " + e.Reason)
	return b.String()
}

// Sort orders overrides as they apply: by priority, the lowest first, then
// by name.
func Sort(overrides []fleetv1alpha1.WorkOverride) {
	slices.SortStableFunc(overrides, func(a, b fleetv1alpha1.WorkOverride) int {
		if a.Spec.Priority != b.Spec.Priority {
			if a.Spec.Priority < b.Spec.Priority {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// selected is one rule that selects the cluster.
type selected struct {
	override *fleetv1alpha1.WorkOverride
	index    int
	rule     *fleetv1alpha1.WorkOverrideRule
}

// selectRules is the rules that select the cluster, in the order they
// apply, and the overrides they belong to.
func selectRules(overrides []fleetv1alpha1.WorkOverride, c ClusterFacts) ([]selected, []Applied, error) {
	sorted := slices.Clone(overrides)
	Sort(sorted)
	var rules []selected
	var applied []Applied
	for oi := range sorted {
		o := &sorted[oi]
		hit := false
		for i := range o.Spec.Rules {
			r := &o.Spec.Rules[i]
			ok, err := Selects(r.Clusters, c)
			if err != nil {
				return nil, nil, &Error{Cluster: c.Name, Override: o.Name, Rule: i, Patch: -1, Reason: err.Error()}
			}
			if ok {
				rules = append(rules, selected{override: o, index: i, rule: r})
				hit = true
			}
		}
		if hit {
			applied = append(applied, Applied{Name: o.Name, Generation: o.Generation})
		}
	}
	return rules, applied, nil
}

// Selects tells whether the selector selects the cluster: it must match
// every field that is set.
func Selects(s fleetv1alpha1.ClusterSelector, c ClusterFacts) (bool, error) {
	if s.ClusterNames == nil && s.LabelSelector == nil && s.DecisionGroups == nil {
		return false, errors.New("the rule selects no cluster: set clusterNames, labelSelector or decisionGroups")
	}
	if s.ClusterNames != nil && !slices.Contains(s.ClusterNames, c.Name) {
		return false, nil
	}
	if s.LabelSelector != nil {
		sel, err := metav1.LabelSelectorAsSelector(s.LabelSelector)
		if err != nil {
			return false, fmt.Errorf("labelSelector: %w", err)
		}
		if !sel.Matches(labels.Set(c.Labels)) {
			return false, nil
		}
	}
	if s.DecisionGroups != nil && !slices.ContainsFunc(s.DecisionGroups, func(ref string) bool {
		return slices.ContainsFunc(c.Groups, func(g GroupRef) bool { return g.names(ref) })
	}) {
		return false, nil
	}
	return true, nil
}

// identity is what manifest selectors match: the template manifest's.
type identity struct {
	gvk             schema.GroupVersionKind
	namespace, name string
}

func (id identity) String() string {
	s := id.gvk.Kind
	if id.gvk.Group != "" {
		s += "." + id.gvk.Group
	}
	if id.namespace != "" {
		return s + " " + id.namespace + "/" + id.name
	}
	return s + " " + id.name
}

func identityOf(raw []byte) (identity, error) {
	var m struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Namespace string `json:"namespace"`
			Name      string `json:"name"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return identity{}, err
	}
	gv, err := schema.ParseGroupVersion(m.APIVersion)
	if err != nil {
		return identity{}, err
	}
	return identity{gvk: gv.WithKind(m.Kind), namespace: m.Metadata.Namespace, name: m.Metadata.Name}, nil
}

// matches tells whether the selector names the manifest: an empty field or
// "*" matches any value.
func matches(s fleetv1alpha1.ManifestSelector, id identity) bool {
	field := func(want, got string) bool { return want == "" || want == "*" || want == got }
	return field(s.Group, id.gvk.Group) && field(s.Kind, id.gvk.Kind) &&
		field(s.Namespace, id.namespace) && field(s.Name, id.name)
}

// manifest is a template manifest as it is being rendered.
type manifest struct {
	id      identity
	raw     []byte
	changed bool
	dropped bool
}

// applyOptions are RFC 6902's: no negative indices, no parents made on
// add, remove of a missing path fails.
var applyOptions = func() *jsonpatch.ApplyOptions {
	o := jsonpatch.NewApplyOptions()
	o.SupportNegativeIndices = false
	o.EnsurePathExistsOnAdd = false
	o.AllowMissingPathOnRemove = false
	o.EscapeHTML = false
	return o
}()

// Render is the cluster's work: the template with the rules of the
// overrides that select the cluster applied in order (overrides by
// priority then name, rules as written), and the overrides that did so.
// Patches change manifests only: executor, deleteOption and
// manifestConfigs stay the template's. A manifest no rule changes keeps its
// bytes. A rule that fails fails the cluster with an *Error.
func Render(template workv1.ManifestWorkSpec, overrides []fleetv1alpha1.WorkOverride, c ClusterFacts) (workv1.ManifestWorkSpec, []Applied, error) {
	rules, applied, err := selectRules(overrides, c)
	if err != nil {
		return workv1.ManifestWorkSpec{}, nil, err
	}
	out := *template.DeepCopy()
	if len(rules) == 0 {
		return out, nil, nil
	}
	ms := make([]manifest, len(out.Workload.Manifests))
	for i, m := range out.Workload.Manifests {
		raw := m.Raw
		if raw == nil && m.Object != nil {
			if raw, err = json.Marshal(m.Object); err != nil {
				return workv1.ManifestWorkSpec{}, nil, fmt.Errorf("cluster %s: manifest %d: %w", c.Name, i, err)
			}
		}
		ms[i].raw = raw
		// A manifest that cannot be read is named by no selector; the
		// template's own checks report it.
		ms[i].id, _ = identityOf(raw)
	}
	for _, r := range rules {
		for i := range ms {
			m := &ms[i]
			if m.dropped || !slices.ContainsFunc(r.rule.Manifests, func(s fleetv1alpha1.ManifestSelector) bool { return matches(s, m.id) }) {
				continue
			}
			if r.rule.Drop {
				m.dropped = true
				continue
			}
			for pi, p := range r.rule.Patches {
				if err := m.apply(p, c); err != nil {
					return workv1.ManifestWorkSpec{}, nil, &Error{Cluster: c.Name, Override: r.override.Name, Rule: r.index,
						Patch: pi, Op: p.Op, Path: p.Path, Manifest: m.id.String(), Reason: err.Error()}
				}
			}
		}
	}
	kept := out.Workload.Manifests[:0]
	for i, m := range ms {
		if m.dropped {
			continue
		}
		if m.changed {
			kept = append(kept, workv1.Manifest{})
			kept[len(kept)-1].Raw = m.raw
			continue
		}
		kept = append(kept, out.Workload.Manifests[i])
	}
	out.Workload.Manifests = kept
	return out, applied, nil
}

// apply applies one patch, its value's variables replaced for the cluster.
func (m *manifest) apply(p fleetv1alpha1.Patch, c ClusterFacts) error {
	op := map[string]any{"op": string(p.Op), "path": p.Path}
	if p.Op != fleetv1alpha1.PatchRemove {
		if p.Value == nil {
			return fmt.Errorf("%s needs a value", p.Op)
		}
		var v any
		if err := json.Unmarshal(p.Value.Raw, &v); err != nil {
			return fmt.Errorf("the value is not JSON: %w", err)
		}
		v, err := substitute(v, c, m.id.gvk, pointerTokens(p.Path))
		if err != nil {
			return err
		}
		op["value"] = v
	}
	b, err := json.Marshal([]any{op})
	if err != nil {
		return err
	}
	patch, err := jsonpatch.DecodePatch(b)
	if err != nil {
		return err
	}
	raw, err := patch.ApplyWithOptions(m.raw, applyOptions)
	if err != nil {
		return err
	}
	m.raw, m.changed = raw, true
	return nil
}

// pointerTokens are the unescaped tokens of a JSON pointer.
func pointerTokens(path string) []string {
	if path == "" {
		return nil
	}
	tokens := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens
}

// Input is the replica set's revision input: the template and the specs of
// the overrides that name it, in the order they apply. Without overrides,
// its hash is that of a replica set from before overrides existed. Every
// change to an override is a new revision; only the clusters whose rendered
// work changes are written for it.
func Input(template workv1.ManifestWorkSpec, overrides []fleetv1alpha1.WorkOverride) revision.Input {
	sorted := slices.Clone(overrides)
	Sort(sorted)
	in := revision.Input{ManifestWorkTemplate: template}
	for _, o := range sorted {
		in.Overrides = append(in.Overrides, revision.Override{Name: o.Name, Generation: o.Generation, Priority: o.Spec.Priority, Rules: o.Spec.Rules})
	}
	return in
}

// Overrides are the overrides a revision input holds, as objects Render
// takes, named replicaSet; their generation is that of the live override of
// the same name and spec in live, else the one the revision recorded.
func Overrides(in revision.Input, replicaSet string, live []fleetv1alpha1.WorkOverride) []fleetv1alpha1.WorkOverride {
	out := make([]fleetv1alpha1.WorkOverride, 0, len(in.Overrides))
	for _, o := range in.Overrides {
		wo := fleetv1alpha1.WorkOverride{Spec: fleetv1alpha1.WorkOverrideSpec{ReplicaSet: replicaSet, Priority: o.Priority, Rules: o.Rules}}
		wo.Name, wo.Generation = o.Name, o.Generation
		for _, l := range live {
			if l.Name == o.Name && equality.Semantic.DeepEqual(l.Spec, wo.Spec) {
				wo.Generation = l.Generation
			}
		}
		out = append(out, wo)
	}
	return out
}

// OverridesAnnotation, on a work of a replica set, names the WorkOverrides
// that made it: name:generation of each override with a rule that selects
// the cluster, comma-separated, in the order they apply (AppliedAnnotation).
// The controller writes it with the spec; it is absent when no override
// applies.
const OverridesAnnotation = "work.manifestwork.io/overrides"

// WorkLabels are the labels of the replica set's work written for a
// placement: the replica set's own, the replica set label
// (<namespace>.<name>) and the placement's name.
func WorkLabels(rs *workv1alpha1.ManifestWorkReplicaSet, placement string) map[string]string {
	out := maps.Clone(rs.Labels)
	if out == nil {
		out = map[string]string{}
	}
	out[workv1alpha1.ReplicaSetLabel] = ReplicaSetKey(rs)
	out[workv1alpha1.PlacementNameLabel] = placement
	return out
}

// ReplicaSetKey is the value of the replica set label of its works.
func ReplicaSetKey(rs *workv1alpha1.ManifestWorkReplicaSet) string {
	return rs.Namespace + "." + rs.Name
}

// AppliedAnnotation is the value of a work's annotation that names the
// overrides that made it: name:generation, comma-separated, in the order
// they apply; "" when none.
func AppliedAnnotation(applied []Applied) string {
	parts := make([]string, len(applied))
	for i, a := range applied {
		parts[i] = a.Name + ":" + strconv.FormatInt(a.Generation, 10)
	}
	return strings.Join(parts, ",")
}
