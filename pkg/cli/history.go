package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// ChangeCauseAnnotation is kubectl's record of the command that changed an
// object; undo writes it on the replica set, history reads it from the
// revisions (the controller copies it there).
const ChangeCauseAnnotation = revision.ChangeCauseAnnotation

// HistoryView is what history shows of a replica set: its revisions,
// newest first. -o yaml and -o json print it as it is.
type HistoryView struct {
	Name      string        `json:"name"`
	Namespace string        `json:"namespace"`
	Revisions []RevisionRow `json:"revisions"`
}

// RevisionRow is one revision of the replica set.
type RevisionRow struct {
	Revision int64  `json:"revision"`
	Hash     string `json:"hash"`
	// ControllerRevision is the name of the object that keeps it.
	ControllerRevision string `json:"controllerRevision"`
	// Current: it is the replica set's template, with its WorkOverrides, now.
	Current bool `json:"current"`
	// ChangeCause is the revision's kubernetes.io/change-cause, else, for
	// the current revision, the replica set's; "" when neither has one.
	ChangeCause string      `json:"changeCause,omitempty"`
	Created     metav1.Time `json:"created"`
	// Clusters are the clusters whose work runs the revision: the current
	// one when the work has what the hub writes to its cluster now, else
	// the one its label names.
	Clusters []string `json:"clusters"`
}

// HistoryOptions are the flags of history.
type HistoryOptions struct {
	OutputOptions
	Revision int64 // --revision; 0 lists them all
}

// Validate refuses a negative --revision and an unknown -o, with exit code 2.
func (o *HistoryOptions) Validate() error {
	if o.Revision < 0 {
		return exitf(ExitUsage, "--revision must be positive, got %d", o.Revision)
	}
	return o.OutputOptions.Validate()
}

// History prints the revisions of the replica set name, newest first, with
// the clusters on each; with ho.Revision, that revision's template. A
// revision that is not in the history exits 1.
func History(ctx context.Context, o *Options, ho HistoryOptions, name string) error {
	h, rs, revs, err := o.replicaSetRevisions(ctx, name)
	if err != nil {
		return err
	}
	if ho.Revision != 0 {
		return printRevision(o.Out, ho.Output, rs, revs, ho.Revision)
	}
	list, err := h.work.WorkV1().ManifestWorks(metav1.NamespaceAll).List(ctx, metav1.ListOptions{LabelSelector: worksSelector(rs).String()})
	if err != nil {
		return usageError(err)
	}
	overrides, err := h.overrides(ctx, fileObjects{}, rs.Name)
	if err != nil {
		return err
	}
	cur, err := h.currentWorks(ctx, rs, overrides)
	if err != nil {
		return err
	}
	view := historyView(rs, revs, list.Items, cur, overrides...)
	switch ho.Output {
	case OutputYAML, OutputJSON:
		return printObject(o.Out, ho.Output, view)
	}
	return printHistory(o.Out, view, o, ho.Output == OutputWide)
}

// replicaSetRevisions connects to the hub and reads the replica set and its
// revisions, newest first. The hub's refusal, or no revision at all, exits
// 2, with the replica set's RevisionsRecorded when it says why.
func (o *Options) replicaSetRevisions(ctx context.Context, name string) (hub, *workv1alpha1.ManifestWorkReplicaSet, []*appsv1.ControllerRevision, error) {
	h, err := o.connectHub()
	if err != nil {
		return h, nil, nil, err
	}
	rs, err := h.work.WorkV1alpha1().ManifestWorkReplicaSets(h.namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return h, nil, nil, usageError(err)
	}
	revs, err := revision.List(ctx, h.kube.AppsV1(), rs)
	switch {
	case apierrors.IsForbidden(err):
		return h, nil, nil, exitf(ExitUsage, "the revisions of manifestworkreplicaset %s/%s cannot be read: you may not list controllerrevisions (group apps) in %s: %v",
			h.namespace, name, h.namespace, err)
	case err != nil:
		return h, nil, nil, usageError(fmt.Errorf("the revisions of manifestworkreplicaset %s/%s: %w", h.namespace, name, err))
	case len(revs) == 0:
		return h, nil, nil, exitf(ExitUsage, "manifestworkreplicaset %s/%s has no revision recorded: %s", h.namespace, name, whyNoRevisions(rs))
	}
	return h, rs, revs, nil
}

// whyNoRevisions is what the replica set's RevisionsRecorded says.
func whyNoRevisions(rs *workv1alpha1.ManifestWorkReplicaSet) string {
	c := apimeta.FindStatusCondition(rs.Status.Conditions, replicaset.ConditionRevisionsRecorded)
	if c == nil {
		return "its condition " + replicaset.ConditionRevisionsRecorded + " is absent: the hub has not synced it yet, or its controller records no revisions (as OCM's does not)"
	}
	return fmt.Sprintf("%s %s %s: %s", c.Type, c.Status, c.Reason, shortMessage(c.Message))
}

// currentHash is the hash of the replica set's template with the overrides
// that name it; "" when it cannot be hashed (no revision is then current).
func currentHash(rs *workv1alpha1.ManifestWorkReplicaSet, overrides ...fleetv1alpha1.WorkOverride) string {
	h, _ := revision.Hash(render.Input(rs.Spec.ManifestWorkTemplate, overrides))
	return h
}

// historyView lists the revisions of rs with the clusters whose work runs
// each: a work that has what the hub writes to its cluster now (cur) runs
// the current revision, whatever revision's hash it is labelled with (an
// override change that leaves a cluster's work as it was leaves its label
// too), once that revision is recorded; another runs the revision of its
// label, else of its spec's hash.
func historyView(rs *workv1alpha1.ManifestWorkReplicaSet, revs []*appsv1.ControllerRevision, works []workv1.ManifestWork,
	cur *current, overrides ...fleetv1alpha1.WorkOverride) HistoryView {
	sortWorks(works)
	current := currentHash(rs, overrides...)
	recorded := slices.ContainsFunc(revs, func(cr *appsv1.ControllerRevision) bool { return cr.Labels[revision.HashLabel] == current })
	on := map[string][]string{}
	for i := range works {
		hash := revision.Runs(&works[i])
		if ok, _, _ := cur.has(&works[i]); ok && recorded && works[i].DeletionTimestamp == nil {
			hash = current
		}
		on[hash] = append(on[hash], works[i].Namespace)
	}
	v := HistoryView{Name: rs.Name, Namespace: rs.Namespace, Revisions: []RevisionRow{}}
	for _, cr := range revs {
		hash := cr.Labels[revision.HashLabel]
		row := RevisionRow{
			Revision: cr.Revision, Hash: hash, ControllerRevision: cr.Name, Current: hash == current,
			ChangeCause: cr.Annotations[ChangeCauseAnnotation], Created: cr.CreationTimestamp,
			Clusters: append([]string{}, on[hash]...),
		}
		if row.ChangeCause == "" && row.Current {
			row.ChangeCause = rs.Annotations[ChangeCauseAnnotation]
		}
		v.Revisions = append(v.Revisions, row)
	}
	return v
}

func printHistory(w io.Writer, v HistoryView, o *Options, wide bool) error {
	head := []string{"REVISION", "HASH", "CREATED", "CLUSTERS"}
	if wide {
		head = append(head, "CLUSTER-NAMES")
	}
	t := newTable(w, append(head, "CHANGE-CAUSE")...)
	for _, r := range v.Revisions {
		cells := []string{strconv.FormatInt(r.Revision, 10), r.Hash, age(o.Now(), r.Created.Time), strconv.Itoa(len(r.Clusters))}
		if wide {
			cells = append(cells, cmpOr(strings.Join(r.Clusters, ","), "-"))
		}
		t.row(append(cells, cmpOr(shortMessage(r.ChangeCause), "<none>"))...)
	}
	return t.flush()
}

// findRevision is the revision numbered n; a number not in the history
// exits 1.
func findRevision(rs *workv1alpha1.ManifestWorkReplicaSet, revs []*appsv1.ControllerRevision, n int64) (*appsv1.ControllerRevision, error) {
	numbers := make([]string, len(revs))
	for i, cr := range revs {
		if cr.Revision == n {
			return cr, nil
		}
		numbers[i] = strconv.FormatInt(cr.Revision, 10)
	}
	return nil, exitf(ExitFailed, "manifestworkreplicaset %s/%s has no revision %d (its revisions: %s)",
		rs.Namespace, rs.Name, n, strings.Join(numbers, ", "))
}

// printRevision prints the template of revision n, as YAML (or JSON with
// -o json).
func printRevision(w io.Writer, format string, rs *workv1alpha1.ManifestWorkReplicaSet, revs []*appsv1.ControllerRevision, n int64) error {
	cr, err := findRevision(rs, revs, n)
	if err != nil {
		return err
	}
	in, err := revision.Decode(cr)
	if err != nil {
		return exitf(ExitFailed, "%v", err)
	}
	if format != OutputJSON {
		format = OutputYAML
	}
	return printObject(w, format, in)
}
