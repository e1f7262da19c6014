package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
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
	// Updated: the work has the replica set's current template.
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
	client, namespace, err := o.connect()
	if err != nil {
		return err
	}
	rs, works, err := replicaSetAndWorks(ctx, client, namespace, name)
	if err != nil {
		return err
	}
	view := statusView(rs, works)
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

func statusView(rs *workv1alpha1.ManifestWorkReplicaSet, works []workv1.ManifestWork) StatusView {
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
	template := jsonValue(rs.Spec.ManifestWorkTemplate)
	for i := range works {
		w := &works[i]
		v.Clusters = append(v.Clusters, ClusterRow{
			Cluster: w.Namespace, Work: w.Name, Placement: w.Labels[workv1alpha1.PlacementNameLabel],
			Revision:    revision.OfWork(w),
			Updated:     sameTemplate(w.Spec, template),
			Applied:     conditionStatus(w, workv1.WorkApplied),
			Progressing: conditionStatus(w, workv1.WorkProgressing),
			Degraded:    conditionStatus(w, workv1.WorkDegraded),
			Healthy:     conditionStatus(w, workv1.WorkHealthy),
			InSync:      conditionStatus(w, workv1.WorkInSync),
			Created:     w.CreationTimestamp,
			Message:     problem(w),
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

func shortMessage(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return workv1.Shorten(strings.TrimSpace(s), messageWidth, " …")
}

// sameTemplate tells whether a work's spec is the template, given as
// jsonValue(template): both compared as JSON values, so that the
// manifests' key order does not count.
func sameTemplate(spec workv1.ManifestWorkSpec, template any) bool {
	return equality.Semantic.DeepEqual(jsonValue(spec), template)
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
