package replicaset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// outcome is what reconcile leaves for sync to do.
type outcome struct {
	rs           *workv1alpha1.ManifestWorkReplicaSet // with its new status
	write        bool                                 // whether its status is to be written (if it changed)
	recheckAfter time.Duration                        // when to look again; zero: on events only
	stoppedHead  string                               // the failed clusters RolloutStopped names; "" when not stopped
	stopped      string                               // a Warning Event's message, once the status is written
	fleet        *fleet                               // the clusters' works, for the gauges; nil when rs is being deleted
}

// reconcile brings the works of rs in line with its placements and strategy,
// in this order, and sets rs's status in memory:
//
//  1. a replica set being deleted has its works deleted, then loses its
//     finalizer (with Foreground, once its works are gone);
//  2. a replica set without the finalizer gets it;
//  3. each placement's clusters get the template as the rollout allows
//     (deploy), and the works of clusters that no placement selects any
//     longer, or the extra works of a cluster, are deleted;
//  4. the summary and conditions are counted from the works; when failures
//     stop the rollout, RolloutStopped says which, and sync sends a Warning
//     Event each time the set of failed clusters changes.
//
// A paused replica set (PausedAnnotation) goes through the same steps but
// writes no work: only its finalizer and status change.
func (c *Controller) reconcile(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet) (outcome, error) {
	if rs.DeletionTimestamp != nil {
		return outcome{rs: rs}, c.finalize(ctx, rs)
	}
	if !slices.Contains(rs.Finalizers, workv1alpha1.ReplicaSetFinalizer) {
		updated, err := c.addFinalizer(ctx, rs)
		if err != nil {
			return outcome{rs: rs}, err
		}
		rs = updated
	}
	works, extras := c.worksByCluster(rs)
	paused := isPaused(rs)
	var errs []error
	for _, w := range extras {
		if paused {
			continue // a paused rollout changes nothing on the clusters
		}
		errs = append(errs, c.deleteWork(ctx, w, "another work of the replica set is on the same cluster"))
	}
	d, err := c.deploy(ctx, rs, works, paused)
	errs = append(errs, err)
	// OCM's conditions come first, in OCM's order, and this controller's own
	// after them: a client that reads them by position sees OCM's layout.
	f := fleetOf(works)
	if d.stop {
		c.setFleet(rs, f)
		c.setPaused(rs, paused, d)
		return outcome{rs: rs, write: true, fleet: &f}, errors.Join(errs...)
	}
	c.setStatus(rs, d, works)
	c.setFleet(rs, f)
	c.setPaused(rs, paused, d)
	var stops []stopped
	for _, p := range d.placements {
		if len(p.failures) > 0 {
			stops = append(stops, stopped{placement: p.name, failures: p.failures})
		}
	}
	head, event := c.setStopped(rs, stops)
	return outcome{rs: rs, write: true, recheckAfter: d.recheckAfter, stoppedHead: head, stopped: event, fleet: &f},
		errors.Join(errs...)
}

// deployment is what deploy found and did, for the status.
type deployment struct {
	stop         bool // a placement is missing: PlacementVerified says so, nothing else changes
	problems     []string
	placements   []placementResult
	recheckAfter time.Duration
	// kept are the clusters that no placement selects any longer whose
	// works stay while the rollout is paused.
	kept   []string
	paused bool
}

type placementResult struct {
	name      string
	placement *clusterv1beta1.Placement
	clusters  []string // clusters whose work has the current template
	waiting   []string // clusters it selects whose work lacks the current template
	succeeded int
	failures  []failure // set when failures stopped the rollout short of waiting clusters
}

// plan is one placement reference with what its decisions say.
type plan struct {
	ref       workv1alpha1.LocalPlacementReference
	placement *clusterv1beta1.Placement
	groups    []Group
	err       error // the decisions could not be read
}

// deploy rolls the template out over each placement's clusters. A cluster
// selected by several placements belongs to the one its work is labelled
// with, else to the first in spec order: a cluster never has two works.
//
// While paused, nothing is written: the decisions are made, for the status,
// but no work is created, updated or deleted.
func (c *Controller) deploy(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, works map[string]*workv1.ManifestWork, paused bool) (deployment, error) {
	d := deployment{paused: paused}
	plans := make([]*plan, 0, len(rs.Spec.PlacementRefs))
	for _, ref := range rs.Spec.PlacementRefs {
		placement, err := c.placements.Placements(rs.Namespace).Get(ref.Name)
		if apierrors.IsNotFound(err) {
			c.setCondition(rs, workv1alpha1.ConditionPlacementVerified, false, workv1alpha1.ReasonPlacementDecisionNotFound,
				fmt.Sprintf("Placement %s not found", ref.Name))
			d.stop = true
			return d, nil
		}
		if err != nil {
			return d, err
		}
		p := &plan{ref: ref, placement: placement}
		p.groups, p.err = c.groupsOf(placement)
		plans = append(plans, p)
	}
	owner := owners(plans, works)

	var errs []error
	now := c.clock.Now()
	for _, p := range plans {
		if p.err != nil {
			d.problems = append(d.problems, p.err.Error())
			continue
		}
		res, recheck, err := c.rollOut(ctx, rs, p, owner, works, now, paused)
		if res == nil {
			d.problems = append(d.problems, err.Error()) // the strategy is invalid: only a new spec helps
			continue
		}
		errs = append(errs, err)
		d.placements = append(d.placements, *res)
		if recheck > 0 && (d.recheckAfter == 0 || recheck < d.recheckAfter) {
			d.recheckAfter = recheck
		}
	}
	for cluster, w := range works {
		if owner[cluster] == nil && !unknownOwner(plans, w) {
			if paused {
				d.kept = append(d.kept, cluster)
				continue
			}
			errs = append(errs, c.deleteWork(ctx, w, "no placement of the replica set selects the cluster"))
			delete(works, cluster)
		}
	}
	slices.Sort(d.kept)
	return d, errors.Join(errs...)
}

// rollOut decides and applies the rollout of one placement; a nil result
// means its strategy could not be read, and the error says why.
func (c *Controller) rollOut(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, p *plan, owner map[string]*plan,
	works map[string]*workv1.ManifestWork, now time.Time, paused bool) (*placementResult, time.Duration, error) {
	var groups []Group
	for _, g := range p.groups {
		var mine []string
		for _, cluster := range g.Clusters {
			if owner[cluster] == p {
				mine = append(mine, cluster)
			}
		}
		groups = append(groups, Group{Key: g.Key, Clusters: mine})
	}
	res := &placementResult{name: p.ref.Name, placement: p.placement}
	// Each work is compared with the template once per pass; a work the
	// pass writes is a new object, compared again.
	known := map[*workv1.ManifestWork]bool{}
	isCurrent := func(w *workv1.ManifestWork) bool {
		v, ok := known[w]
		if !ok {
			v = current(rs, w, p.ref.Name)
			known[w] = v
		}
		return v
	}
	var states []ClusterState
	for _, g := range groups {
		for _, cluster := range g.Clusters {
			w := works[cluster]
			if !isCurrent(w) {
				continue
			}
			state, since := WorkState(w)
			states = append(states, ClusterState{Cluster: cluster, Group: g.Key, State: state, Since: since})
			if state == Succeeded {
				res.succeeded++
			}
		}
	}
	decision, err := Decide(p.ref.RolloutStrategy, groups, states, now)
	if err != nil {
		return nil, 0, fmt.Errorf("placement %s: %w", p.ref.Name, err)
	}
	var applyErr error
	if !paused {
		applyErr = c.applyWorks(ctx, rs, p.ref.Name, decision.ToApply(), works)
	}
	for _, g := range groups {
		for _, cluster := range g.Clusters {
			if isCurrent(works[cluster]) {
				res.clusters = append(res.clusters, cluster)
			} else {
				res.waiting = append(res.waiting, cluster)
			}
		}
	}
	if decision.MaxFailuresReached && len(res.waiting) > 0 {
		res.failures = failuresOf(states, decision, works)
	}
	return res, decision.RecheckAfter, applyErr
}

// owners maps each selected cluster to the placement it belongs to.
func owners(plans []*plan, works map[string]*workv1.ManifestWork) map[string]*plan {
	owner := map[string]*plan{}
	selects := func(p *plan, cluster string) bool {
		for _, g := range p.groups {
			if slices.Contains(g.Clusters, cluster) {
				return true
			}
		}
		return false
	}
	for cluster, w := range works {
		for _, p := range plans {
			if p.ref.Name == w.Labels[workv1alpha1.PlacementNameLabel] && selects(p, cluster) {
				owner[cluster] = p
			}
		}
	}
	for _, p := range plans {
		for _, g := range p.groups {
			for _, cluster := range g.Clusters {
				if owner[cluster] == nil {
					owner[cluster] = p
				}
			}
		}
	}
	return owner
}

// unknownOwner tells whether w is labelled with a placement whose decisions
// could not be read: its cluster may still be selected, so w stays.
func unknownOwner(plans []*plan, w *workv1.ManifestWork) bool {
	for _, p := range plans {
		if p.err != nil && p.ref.Name == w.Labels[workv1alpha1.PlacementNameLabel] {
			return true
		}
	}
	return false
}

// current tells whether w is a live work of the placement with the replica
// set's current template.
func current(rs *workv1alpha1.ManifestWorkReplicaSet, w *workv1.ManifestWork, placement string) bool {
	return w != nil && w.DeletionTimestamp == nil && w.Labels[workv1alpha1.PlacementNameLabel] == placement &&
		sameSpec(w.Spec, rs.Spec.ManifestWorkTemplate)
}

// groupsOf reads the decision groups of a placement from its
// PlacementDecisions, by their labels, in index order.
func (c *Controller) groupsOf(placement *clusterv1beta1.Placement) ([]Group, error) {
	selector := labels.SelectorFromSet(labels.Set{clusterv1beta1.PlacementLabel: placement.Name})
	decisions, err := c.decisions.PlacementDecisions(placement.Namespace).List(selector)
	if err != nil {
		return nil, err
	}
	byKey := map[GroupKey]*Group{}
	for _, pd := range decisions {
		index, err := strconv.ParseInt(pd.Labels[clusterv1beta1.DecisionGroupIndexLabel], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("PlacementDecision %s: label %s is %q, not a group index",
				pd.Name, clusterv1beta1.DecisionGroupIndexLabel, pd.Labels[clusterv1beta1.DecisionGroupIndexLabel])
		}
		key := GroupKey{Name: pd.Labels[clusterv1beta1.DecisionGroupNameLabel], Index: int32(index)}
		g := byKey[key]
		if g == nil {
			g = &Group{Key: key}
			byKey[key] = g
		}
		for _, decision := range pd.Status.Decisions {
			g.Clusters = append(g.Clusters, decision.ClusterName)
		}
	}
	groups := make([]Group, 0, len(byKey))
	for _, g := range byKey {
		slices.Sort(g.Clusters)
		g.Clusters = slices.Compact(g.Clusters)
		groups = append(groups, *g)
	}
	slices.SortFunc(groups, func(a, b Group) int {
		if a.Key.Index != b.Key.Index {
			return int(a.Key.Index) - int(b.Key.Index)
		}
		return strings.Compare(a.Key.Name, b.Key.Name)
	})
	return groups, nil
}

// setStatus writes the summaries and conditions into rs.Status as OCM v1.3
// does (deployReconciler, then statusReconciler). Totals count the works
// with the current template; PlacementRolledOut is Complete once as many of
// them have succeeded as the placements select clusters.
func (c *Controller) setStatus(rs *workv1alpha1.ManifestWorkReplicaSet, d deployment, works map[string]*workv1.ManifestWork) {
	var total workv1alpha1.ManifestWorkReplicaSetSummary
	selected, succeeded := 0, 0
	summaries := make([]workv1alpha1.PlacementSummary, 0, len(d.placements))
	for _, p := range d.placements {
		s := workv1alpha1.ManifestWorkReplicaSetSummary{
			Total:        len(p.clusters),
			DesiredTotal: int(p.placement.Status.NumberOfSelectedClusters),
			Updated:      len(p.clusters),
		}
		for _, cluster := range p.clusters {
			count(&s, works[cluster].Status.Conditions)
		}
		summaries = append(summaries, workv1alpha1.PlacementSummary{
			Name: p.name,
			AvailableDecisionGroups: fmt.Sprintf("%d (%d / %d clusters applied)",
				len(p.placement.Status.DecisionGroups), len(p.clusters), p.placement.Status.NumberOfSelectedClusters),
			Summary: s,
		})
		total.Total += s.Total
		total.DesiredTotal += s.DesiredTotal
		total.Updated += s.Updated
		total.Applied += s.Applied
		total.Available += s.Available
		total.Progressing += s.Progressing
		total.Degraded += s.Degraded
		selected += s.DesiredTotal
		succeeded += p.succeeded
	}
	rs.Status.PlacementsSummary = summaries
	rs.Status.Summary = total

	verified := workv1alpha1.ReasonAsExpected
	switch {
	case len(d.problems) > 0:
		verified = workv1alpha1.ReasonNotAsExpected
	case total.Total == 0:
		verified = workv1alpha1.ReasonPlacementDecisionEmpty
	}
	c.setCondition(rs, workv1alpha1.ConditionPlacementVerified, verified == workv1alpha1.ReasonAsExpected, verified,
		strings.Join(d.problems, "; "))

	stopped := false
	for _, p := range d.placements {
		stopped = stopped || len(p.failures) > 0
	}
	if selected == succeeded {
		c.setCondition(rs, workv1alpha1.ConditionPlacementRolledOut, true, workv1alpha1.ReasonComplete, "")
	} else {
		c.setCondition(rs, workv1alpha1.ConditionPlacementRolledOut, false, workv1alpha1.ReasonProgressing, rolledOutMessage(d, stopped))
	}

	applied := workv1alpha1.ReasonNotAsExpected
	switch {
	case total.Total == 0 && verified == workv1alpha1.ReasonPlacementDecisionEmpty:
		applied = workv1alpha1.ReasonPlacementDecisionEmpty
	case total.Total == 0:
	case total.Available == total.Total && total.Progressing == 0 && total.Degraded == 0:
		applied = workv1alpha1.ReasonAsExpected
	case total.Progressing > 0 && total.Degraded == 0:
		applied = workv1alpha1.ReasonProcessing
	}
	c.setCondition(rs, workv1alpha1.ConditionManifestworkApplied, applied == workv1alpha1.ReasonAsExpected, applied, "")
}

// count adds a work's Applied, Available, Progressing and Degraded (when
// True) to s.
func count(s *workv1alpha1.ManifestWorkReplicaSetSummary, conds []metav1.Condition) {
	for _, c := range []struct {
		cond string
		n    *int
	}{
		{workv1.WorkApplied, &s.Applied},
		{workv1.WorkAvailable, &s.Available},
		{workv1.WorkProgressing, &s.Progressing},
		{workv1.WorkDegraded, &s.Degraded},
	} {
		if apimeta.IsStatusConditionTrue(conds, c.cond) {
			*c.n++
		}
	}
}

func (c *Controller) setCondition(rs *workv1alpha1.ManifestWorkReplicaSet, t string, ok bool, reason, message string) {
	status := metav1.ConditionFalse
	if ok {
		status = metav1.ConditionTrue
	}
	c.setConditionStatus(rs, t, status, reason, message)
}

func (c *Controller) setConditionStatus(rs *workv1alpha1.ManifestWorkReplicaSet, t string, status metav1.ConditionStatus, reason, message string) {
	apimeta.SetStatusCondition(&rs.Status.Conditions, metav1.Condition{
		Type: t, Status: status, Reason: reason, Message: message, LastTransitionTime: metav1.NewTime(c.clock.Now()),
	})
}
