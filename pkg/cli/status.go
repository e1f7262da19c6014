package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// StatusView is what status shows of a replica set: its rollout at a
// glance and one row per cluster. -o yaml and -o json print it as it is.
type StatusView struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Paused    bool   `json:"paused"`
	// Waiting is what a gate holds the rollout for (RolloutWaiting's reason
	// and message), when it does.
	Waiting    string                                     `json:"waiting,omitempty"`
	Summary    workv1alpha1.ManifestWorkReplicaSetSummary `json:"summary"`
	Placements []workv1alpha1.PlacementSummary            `json:"placements,omitempty"`
	Conditions []metav1.Condition                         `json:"conditions,omitempty"`
	Clusters   []ClusterRow                               `json:"clusters"`
}

// ClusterRow is a cluster's work of the replica set.
type ClusterRow struct {
	Cluster   string `json:"cluster"`
	Work      string `json:"work"`
	Placement string `json:"placement,omitempty"`
	// Revision is the hash of the revision the work runs (revision.OfWork), empty before the controller labelled it.
	Revision string `json:"revision,omitempty"`
	// Updated: the work has what the hub writes to its cluster now: the
	// replica set's template, or its render with the WorkOverrides that
	// name the replica set.
	Updated bool `json:"updated"`
	// The status of the work's conditions of these types, "" when absent.
	Applied     metav1.ConditionStatus `json:"applied,omitempty"`
	Progressing metav1.ConditionStatus `json:"progressing,omitempty"`
	Degraded    metav1.ConditionStatus `json:"degraded,omitempty"`
	Healthy     metav1.ConditionStatus `json:"healthy,omitempty"`
	InSync      metav1.ConditionStatus `json:"inSync,omitempty"`
	Created     metav1.Time            `json:"created"`
	// Message is what is wrong, if anything (see problem).
	Message string `json:"message,omitempty"`
}

// Status prints the rollout of the replica set name; it exits 1 when the
// rollout has stopped or aborted.
func Status(ctx context.Context, o *Options, out OutputOptions, name string) error {
	h, err := o.connectHub()
	if err != nil {
		return err
	}
	rs, works, err := replicaSetAndWorks(ctx, h.work, h.namespace, name)
	if err != nil {
		return err
	}
	overrides, err := h.overrides(ctx, fileObjects{}, name)
	if err != nil {
		return err
	}
	cur, err := h.currentWorks(ctx, rs, overrides)
	if err != nil {
		return err
	}
	view := statusView(rs, works, cur)
	switch out.Output {
	case OutputYAML, OutputJSON:
		err = printObject(o.Out, out.Output, view)
	default:
		err = printStatus(o.Out, view, o, out.Output == OutputWide)
	}
	if err != nil {
		return err
	}
	return failed(rs)
}

// replicaSetAndWorks reads the replica set and its works on every cluster.
func replicaSetAndWorks(ctx context.Context, client versioned.Interface, namespace, name string) (*workv1alpha1.ManifestWorkReplicaSet, []workv1.ManifestWork, error) {
	rs, err := client.WorkV1alpha1().ManifestWorkReplicaSets(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, usageError(err)
	}
	list, err := client.WorkV1().ManifestWorks(metav1.NamespaceAll).List(ctx, metav1.ListOptions{LabelSelector: worksSelector(rs).String()})
	if err != nil {
		return nil, nil, usageError(err)
	}
	return rs, list.Items, nil
}

// worksSelector selects the works of rs, by OCM's label.
func worksSelector(rs *workv1alpha1.ManifestWorkReplicaSet) labels.Selector {
	return labels.SelectorFromSet(labels.Set{workv1alpha1.ReplicaSetLabel: rs.Namespace + "." + rs.Name})
}

// statusView is the view of rs and its works; a work is updated when it
// has what cur says the hub writes to its cluster now. A work whose render
// fails is not, and its message says why.
func statusView(rs *workv1alpha1.ManifestWorkReplicaSet, works []workv1.ManifestWork, cur *current) StatusView {
	v := StatusView{
		Name: rs.Name, Namespace: rs.Namespace,
		Paused:     rs.Annotations[replicaset.PausedAnnotation] == "true",
		Waiting:    waitingText(rs),
		Summary:    rs.Status.Summary,
		Placements: rs.Status.PlacementsSummary,
		Conditions: rs.Status.Conditions,
		Clusters:   []ClusterRow{},
	}
	sortWorks(works)
	for i := range works {
		w := &works[i]
		updated, _, renderErr := cur.has(w)
		message := problem(w)
		if renderErr != nil {
			message = notRendered(renderErr)
		}
		v.Clusters = append(v.Clusters, ClusterRow{
			Cluster: w.Namespace, Work: w.Name, Placement: w.Labels[workv1alpha1.PlacementNameLabel],
			Revision:    revision.OfWork(w),
			Updated:     updated,
			Applied:     conditionStatus(w, workv1.WorkApplied),
			Progressing: conditionStatus(w, workv1.WorkProgressing),
			Degraded:    conditionStatus(w, workv1.WorkDegraded),
			Healthy:     conditionStatus(w, workv1.WorkHealthy),
			InSync:      conditionStatus(w, workv1.WorkInSync),
			Created:     w.CreationTimestamp,
			Message:     message,
		})
	}
	return v
}

// waitingText is "<reason>: <message>" of RolloutWaiting when it is True, else "".
func waitingText(rs *workv1alpha1.ManifestWorkReplicaSet) string {
	c := apimeta.FindStatusCondition(rs.Status.Conditions, replicaset.ConditionRolloutWaiting)
	if c == nil || c.Status != metav1.ConditionTrue {
		return ""
	}
	return c.Reason + ": " + c.Message
}

func sortWorks(works []workv1.ManifestWork) {
	slices.SortFunc(works, func(a, b workv1.ManifestWork) int {
		if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

func conditionStatus(w *workv1.ManifestWork, t string) metav1.ConditionStatus {
	if c := apimeta.FindStatusCondition(w.Status.Conditions, t); c != nil {
		return c.Status
	}
	return ""
}

// wrong are the conditions that tell what is wrong with a work, in the
// order problem reads them, each with the status that is bad.
var wrong = []struct {
	condition string
	bad       func(metav1.ConditionStatus) bool
}{
	{workv1.WorkDegraded, isTrue},
	{workv1.WorkStalled, isTrue},
	{workv1.WorkApplied, notTrue},
	{workv1.WorkAvailable, notTrue},
	{workv1.WorkHealthy, notTrue},
	{workv1.WorkInSync, notTrue},
}

func isTrue(s metav1.ConditionStatus) bool  { return s == metav1.ConditionTrue }
func notTrue(s metav1.ConditionStatus) bool { return s != metav1.ConditionTrue }

// messageWidth is how many bytes of a message a table shows.
const messageWidth = 100

// problem is the message of the first condition of wrong that is bad,
// as "Type: message", its first line shortened; "" when none is.
func problem(w *workv1.ManifestWork) string {
	for _, c := range wrong {
		cond := apimeta.FindStatusCondition(w.Status.Conditions, c.condition)
		if cond != nil && c.bad(cond.Status) {
			return shortMessage(cond.Type + ": " + cond.Message)
		}
	}
	return ""
}

// notRendered is the message of a work whose cluster's render fails: the
// reason first, then where (the override's status has the whole).
func notRendered(err error) string {
	var re *render.Error
	if !errors.As(err, &re) {
		return shortMessage("NotRendered: " + err.Error())
	}
	return shortMessage(fmt.Sprintf("NotRendered: %s (override %s, rule %d)", re.Reason, re.Override, re.Rule))
}

func shortMessage(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return workv1.Shorten(strings.TrimSpace(s), messageWidth, " …")
}

// current is what the hub writes now to each cluster of a replica set:
// its template, or, when WorkOverrides name the replica set, each selected
// cluster's render of it.
type current struct {
	rs       *workv1alpha1.ManifestWorkReplicaSet
	template any // jsonValue of the template, without overrides
	// rendered, with overrides, are the selected clusters' works as
	// jsonValue of their spec, or why they cannot be rendered.
	rendered map[string]renderedValue
}

type renderedValue struct {
	spec any
	err  error
}

// currentWorks is what the hub writes now to each cluster of rs with the
// overrides that name it: without any, the template, read from rs alone;
// with some, the render of each selected cluster (its decisions and facts
// read, as render does).
func (h hub) currentWorks(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, overrides []fleetv1alpha1.WorkOverride) (*current, error) {
	c := &current{rs: rs, template: jsonValue(rs.Spec.ManifestWorkTemplate)}
	if len(overrides) == 0 {
		return c, nil
	}
	selected, err := h.selected(ctx, rs)
	if err != nil {
		return nil, err
	}
	clusters := slices.Sorted(maps.Keys(selected))
	works, err := h.renderWorks(ctx, rs, overrides, clusters, selected)
	if err != nil {
		return nil, err
	}
	c.rendered = make(map[string]renderedValue, len(works))
	for cluster, w := range works {
		v := renderedValue{err: w.err}
		if w.err == nil {
			v.spec = jsonValue(w.spec)
		}
		c.rendered[cluster] = v
	}
	return c, nil
}

// has tells whether w has what the hub writes to its cluster now (both
// compared as JSON values, so that the manifests' key order does not
// count); if not, lacks says so as the end of a sentence about the work
// ("does not have the current template yet", "does not have its rendered
// spec yet", "is on a cluster no placement selects"), and err is why it
// cannot get it: its cluster's render fails.
func (c *current) has(w *workv1.ManifestWork) (ok bool, lacks string, err error) {
	if c.rendered == nil {
		return equality.Semantic.DeepEqual(jsonValue(w.Spec), c.template), "does not have the current template yet", nil
	}
	r, selected := c.rendered[w.Namespace]
	switch {
	case !selected:
		return false, "is on a cluster no placement selects", nil
	case r.err != nil:
		return false, "does not have its rendered spec", r.err
	}
	return equality.Semantic.DeepEqual(jsonValue(w.Spec), r.spec), "does not have its rendered spec yet", nil
}

// failed is exit code 1 naming the selected clusters whose render fails,
// then why it matters; nil when none does.
func (c *current) failed(then string) error {
	var names []string
	for cluster, r := range c.rendered {
		if r.err != nil {
			names = append(names, cluster)
		}
	}
	slices.Sort(names)
	return renderFailed(c.rs, names, len(c.rendered), then)
}

func jsonValue(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return err.Error()
	}
	return out
}

func printStatus(w io.Writer, v StatusView, o *Options, wide bool) error {
	paused := "no"
	if v.Paused {
		paused = "yes (" + replicaset.PausedAnnotation + "=true)"
	}
	s := v.Summary
	fmt.Fprintf(w, "Name:        %s\nNamespace:   %s\nPaused:      %s\n", v.Name, v.Namespace, paused)
	if v.Waiting != "" {
		fmt.Fprintf(w, "Waiting:     %s\n", v.Waiting)
	}
	fmt.Fprintf(w, "Clusters:    %d selected, %d updated, %d applied, %d available, %d progressing, %d degraded\n",
		s.DesiredTotal, s.Updated, s.Applied, s.Available, s.Progressing, s.Degraded)
	for i, p := range v.Placements {
		label := ""
		if i == 0 {
			label = "Placements:"
		}
		fmt.Fprintf(w, "%-12s %s: %s\n", label, p.Name, p.AvailableDecisionGroups)
	}
	fmt.Fprintln(w)
	if err := printConditions(w, v.Conditions); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if len(v.Clusters) == 0 {
		_, err := fmt.Fprintln(w, "No works.")
		return err
	}
	head := []string{"CLUSTER", "REVISION", "APPLIED", "PROGRESSING", "DEGRADED", "HEALTHY", "INSYNC", "AGE", "MESSAGE"}
	if wide {
		head = append(head, "WORK", "PLACEMENT", "UPDATED")
	}
	t := newTable(w, head...)
	for _, r := range v.Clusters {
		cells := []string{r.Cluster, r.Revision, cell(r.Applied), cell(r.Progressing), cell(r.Degraded), cell(r.Healthy), cell(r.InSync),
			age(o.Now(), r.Created.Time), r.Message}
		if wide {
			cells = append(cells, r.Work, r.Placement, yesNo(r.Updated))
		}
		t.row(cells...)
	}
	return t.flush()
}

// printConditions is the table of the replica set's conditions.
func printConditions(w io.Writer, conds []metav1.Condition) error {
	if len(conds) == 0 {
		_, err := fmt.Fprintln(w, "No conditions yet.")
		return err
	}
	t := newTable(w, "CONDITION", "STATUS", "REASON", "MESSAGE")
	for _, c := range conds {
		t.row(c.Type, string(c.Status), c.Reason, shortMessage(c.Message))
	}
	return t.flush()
}
