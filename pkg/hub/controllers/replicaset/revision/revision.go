// Package revision names, hashes and reads back the revisions of
// ManifestWorkReplicaSets: what a cluster's work is rendered from, kept as
// apps/v1 ControllerRevisions owned by the replica set. The controller
// writes them; readers (the CLI) list them with List and find the revision
// a work runs with OfWork.
package revision

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// Labels and annotations of ours. None is OCM's: enhancement 229 plans
// work.open-cluster-management.io/controller-hash, which these never use.
const (
	// ReplicaSetLabel, on a ControllerRevision, names its replica set (in
	// the revision's namespace).
	ReplicaSetLabel = "work.manifestwork.io/replicaset"
	// HashLabel is the revision's hash: on a ControllerRevision, its own; on
	// a ManifestWork, that of the revision it was last written from.
	HashLabel = "work.manifestwork.io/revision-hash"
	// HistoryLimitAnnotation, on a replica set, bounds how many revisions are
	// kept, the current one included (DefaultHistoryLimit when absent).
	HistoryLimitAnnotation = "work.manifestwork.io/revision-history-limit"
	// DefaultHistoryLimit is how many revisions are kept by default.
	DefaultHistoryLimit = 10
	// ChangeCauseAnnotation is kubectl's record of the command that changed
	// an object. On a replica set, undo writes it; on a ControllerRevision,
	// it is the replica set's when the revision became current.
	ChangeCauseAnnotation = "kubernetes.io/change-cause"
)

// hashLength is how many hex digits of the SHA-256 a hash keeps.
const hashLength = 10

// maxNameLength bounds a ControllerRevision's name (a DNS subdomain).
const maxNameLength = 253

// Input is what the replica set's works are rendered from: its template
// and the WorkOverrides that name the replica set; its canonical JSON is
// hashed and kept as the ControllerRevision's data. A cluster's work is the
// template with the overrides' rules that select it applied (package
// render). The overrides join the template as a field omitted when empty,
// so that a revision without overrides has the hash it had before
// overrides existed.
type Input struct {
	ManifestWorkTemplate workv1.ManifestWorkSpec `json:"manifestWorkTemplate"`
	// Overrides are the specs of the WorkOverrides that name the replica
	// set, in the order they apply (render.Sort: priority, then name).
	Overrides []Override `json:"overrides,omitempty"`
}

// Override is a WorkOverride as a revision keeps it: its name and spec (the
// replica set it names is the revision's own), and its generation when the
// revision was recorded, which the works rendered from the revision name;
// the generation is kept but not hashed: an override back to an earlier
// spec is that earlier revision again.
type Override struct {
	Name       string                           `json:"name"`
	Generation int64                            `json:"generation,omitempty"`
	Priority   int32                            `json:"priority,omitempty"`
	Rules      []fleetv1alpha1.WorkOverrideRule `json:"rules"`
}

// InputOf is the input of the replica set's revision with the given
// overrides (those that name it, in the order they apply; none for a
// replica set without overrides).
func InputOf(rs *workv1alpha1.ManifestWorkReplicaSet, overrides ...Override) Input {
	return Input{ManifestWorkTemplate: rs.Spec.ManifestWorkTemplate, Overrides: overrides}
}

// Canonical is the input's JSON with every manifest and patch value in
// canonical form (compact, keys sorted, numbers as written): two inputs
// that differ only in key order or spacing have the same bytes.
func Canonical(in Input) ([]byte, error) {
	var overrides []Override
	for _, o := range in.Overrides {
		o.Rules = slices.Clone(o.Rules)
		for j, r := range o.Rules {
			r.Patches = slices.Clone(r.Patches)
			for k, p := range r.Patches {
				if p.Value == nil {
					continue
				}
				c, err := canonicalJSON(p.Value.Raw)
				if err != nil {
					return nil, fmt.Errorf("override %s, rule %d, patch %d: %w", o.Name, j, k, err)
				}
				r.Patches[k].Value = &apiextensionsv1.JSON{Raw: c}
			}
			o.Rules[j] = r
		}
		overrides = append(overrides, o)
	}
	in.Overrides = overrides

	spec := *in.ManifestWorkTemplate.DeepCopy()
	for i, m := range spec.Workload.Manifests {
		raw := m.Raw
		if raw == nil && m.Object != nil {
			var err error
			if raw, err = json.Marshal(m.Object); err != nil {
				return nil, fmt.Errorf("manifest %d: %w", i, err)
			}
		}
		c, err := canonicalJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("manifest %d: %w", i, err)
		}
		spec.Workload.Manifests[i] = workv1.Manifest{}
		spec.Workload.Manifests[i].Raw = c
	}
	in.ManifestWorkTemplate = spec
	return json.Marshal(in)
}

func canonicalJSON(raw []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v) // maps marshal with their keys sorted
}

// Hash is the input's hash: the first hex digits of the SHA-256 of its
// canonical JSON without the overrides' generations.
func Hash(in Input) (string, error) {
	in.Overrides = slices.Clone(in.Overrides)
	for i := range in.Overrides {
		in.Overrides[i].Generation = 0
	}
	b, err := Canonical(in)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:hashLength], nil
}

// Name is the ControllerRevision of the replica set's revision with hash:
// <replicaset>-<hash>, the replica set's name cut to fit.
func Name(replicaSet, hash string) string {
	prefix := replicaSet[:min(len(replicaSet), maxNameLength-len(hash)-1)]
	return prefix + "-" + hash
}

// Selector selects the ControllerRevisions of the named replica set (in
// its namespace).
func Selector(replicaSet string) labels.Selector {
	return labels.SelectorFromSet(labels.Set{ReplicaSetLabel: replicaSet})
}

// OfWork is the hash of the revision the work was last written from; ""
// when the work was last written before revisions were recorded.
func OfWork(w *workv1.ManifestWork) string {
	return w.Labels[HashLabel]
}

// Runs is the hash of the revision w runs: its label, else (a work written
// before the hub recorded revisions) the hash of its spec.
func Runs(w *workv1.ManifestWork) string {
	if h := OfWork(w); h != "" {
		return h
	}
	h, _ := Hash(Input{ManifestWorkTemplate: w.Spec})
	return h
}

// Decode reads a ControllerRevision's input back.
func Decode(cr *appsv1.ControllerRevision) (Input, error) {
	var in Input
	if err := json.Unmarshal(cr.Data.Raw, &in); err != nil {
		return Input{}, fmt.Errorf("ControllerRevision %s/%s: %w", cr.Namespace, cr.Name, err)
	}
	return in, nil
}

// OwnedBy keeps the revisions whose controller is the replica set (not one
// of the same name deleted before it), newest first.
func OwnedBy(rs *workv1alpha1.ManifestWorkReplicaSet, revs []*appsv1.ControllerRevision) []*appsv1.ControllerRevision {
	var out []*appsv1.ControllerRevision
	for _, cr := range revs {
		if ref := metav1.GetControllerOf(cr); ref != nil && ref.UID == rs.UID {
			out = append(out, cr)
		}
	}
	NewestFirst(out)
	return out
}

// NewestFirst sorts revisions by their number, the highest first.
func NewestFirst(revs []*appsv1.ControllerRevision) {
	slices.SortFunc(revs, func(a, b *appsv1.ControllerRevision) int {
		if a.Revision != b.Revision {
			return int(b.Revision - a.Revision)
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// List reads the replica set's revisions from the hub, newest first: the
// first is the current one, once the controller has recorded it.
func List(ctx context.Context, client appsv1client.ControllerRevisionsGetter,
	rs *workv1alpha1.ManifestWorkReplicaSet) ([]*appsv1.ControllerRevision, error) {
	list, err := client.ControllerRevisions(rs.Namespace).List(ctx, metav1.ListOptions{LabelSelector: Selector(rs.Name).String()})
	if err != nil {
		return nil, err
	}
	revs := make([]*appsv1.ControllerRevision, len(list.Items))
	for i := range list.Items {
		revs[i] = &list.Items[i]
	}
	return OwnedBy(rs, revs), nil
}

// HistoryLimit is how many revisions of rs are kept. A value that is not
// a whole number of at least 1 gives the default and an error that says so.
func HistoryLimit(rs *workv1alpha1.ManifestWorkReplicaSet) (int, error) {
	v, ok := rs.Annotations[HistoryLimitAnnotation]
	if !ok {
		return DefaultHistoryLimit, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 {
		return DefaultHistoryLimit, fmt.Errorf("the annotation %s is %q, not a whole number of at least 1: %d revisions are kept, the default",
			HistoryLimitAnnotation, v, DefaultHistoryLimit)
	}
	return n, nil
}
