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
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
)

// outcome is what reconcile leaves for sync to do.
type outcome struct {
	deleting bool // the replica set is being deleted: its gauges go
	// rs is the replica set as reconciled, for its Event; nil when no status
	// was computed (being deleted, or its finalizer could not be added).
	rs           *workv1alpha1.ManifestWorkReplicaSet
	next         nextStatus    // its status (written if it changed), fleet and RolloutStopped
	recheckAfter time.Duration // when to look again; zero: on events only
}

// reconcile brings the works of rs in line with its placements and strategy,
// in this order, then writes rs's status once, if it changed:
//
//  1. a replica set being deleted has its works deleted, then loses its
//     finalizer (with Foreground, once its works are gone);
//  2. a replica set without the finalizer gets it;
//  3. each placement's clusters get their work, the template with the
//     rules of the WorkOverrides that select the cluster (render), as the
//     rollout allows
//     (deploy), and the works of clusters that no placement selects any
//     longer, or the extra works of a cluster, are deleted;
//  4. the revision (the template with the specs of the overrides that name
//     the replica set) is recorded as a ControllerRevision before
//     any work is written from it (recordRevision), each work written
//     carries its hash, and revisions beyond the history limit that no
//     work runs are deleted (pruneRevisions);
//  5. the summary and conditions are counted from the works (statusOf);
//     when failures stop the rollout, RolloutStopped says which, and sync
//     sends a Warning Event each time the set of failed clusters changes;
//     with on-failure Abort, the clusters on the failing revision go back
//     to the stable one instead, and RolloutAborted says so (abort.go);
//  6. our annotations learn the stable revision, or the end of a hold.
//
// A paused replica set (PausedAnnotation) goes through the same steps but
// writes no work: only its finalizer and status change.
func (c *Controller) reconcile(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet) (outcome, error) {
	if rs.DeletionTimestamp != nil {
		return outcome{deleting: true}, c.finalize(ctx, rs)
	}
	cached := rs.Status
	if !slices.Contains(rs.Finalizers, workv1alpha1.ReplicaSetFinalizer) {
		updated, err := c.addFinalizer(ctx, rs)
		if err != nil {
			return outcome{}, err
		}
		rs = updated
	}
	overrides := c.overridesOf(rs)
	rev, rerr := c.recordRevision(ctx, rs, render.Input(rs.Spec.ManifestWorkTemplate, overrides))
	works, d, err := c.deploy(ctx, rs, rev, c.abortOf(rs, rev), overrides)
	err = errors.Join(err, rerr, c.pruneRevisions(ctx, rs, &rev))
	if d.missing == "" && d.render != nil {
		err = errors.Join(err, c.writeOverrideStatuses(ctx, overrides, d.renderFailed))
	}
	d.revision = rev
	next := statusOf(rs, d, works, c.clock.Now())
	if werr := c.writeStatus(ctx, rs, cached, next.status); werr != nil {
		return outcome{}, werr
	}
	complete := next.status.Summary.Total > 0 &&
		apimeta.IsStatusConditionTrue(next.status.Conditions, workv1alpha1.ConditionPlacementRolledOut)
	err = errors.Join(err, c.settleAnnotations(ctx, rs, d, complete))
	return outcome{rs: rs, next: next, recheckAfter: d.recheckAfter}, err
}

// deployment is what deploy found and did, for the status.
type deployment struct {
	missing      string // a placement that is missing: PlacementVerified says so, nothing else changes
	problems     []string
	placements   []placementResult
	recheckAfter time.Duration
	// kept are the clusters that no placement selects any longer whose
	// works stay while the rollout is paused.
	kept   []string
	paused bool
	// revision is how recording the current revision went; its hash is
	// written on each work written ("" writes none).
	revision revisionOutcome
	abort    abortState // what on-failure says, and whether the pass aborted or holds
	gates    gateSpec   // what the gate annotations say
	// render renders each cluster's work from the current revision;
	// overrides tells whether any WorkOverride names the replica set, and
	// renderFailed are the selected clusters whose work it cannot render.
	render       *renderer
	overrides    bool
	renderFailed map[string]error
}

type placementResult struct {
	name      string
	placement *clusterv1beta1.Placement
	clusters  []string // clusters whose work has the current template
	waiting   []string // clusters it selects whose work lacks the current template
	succeeded int
	failures  []failure // set when failures stopped the rollout short of waiting clusters
	wait      *gateWait // what a gate holds it for; nil when none
}

// plan is one placement reference with what its decisions say.
type plan struct {
	ref       workv1alpha1.LocalPlacementReference
	placement *clusterv1beta1.Placement
	groups    []Group
	err       error // the decisions could not be read
}

// deploy rolls the template out over each placement's clusters and returns
// the replica set's work on each cluster after it. A cluster selected by
// several placements belongs to the one its work is labelled with, else to
// the first in spec order: a cluster never has two works.
//
// While paused, nothing is written: the decisions are made, for the status,
// but no work is created, updated or deleted.
//
// With on-failure Abort, failures that stop the rollout abort it: the pass
// holds the current revision back and rolls out the stable one instead.
func (c *Controller) deploy(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, rev revisionOutcome,
	abort abortState, overrides []fleetv1alpha1.WorkOverride) (map[string]*workv1.ManifestWork, deployment, error) {
	works, extras := c.worksByCluster(rs)
	d := deployment{paused: isPaused(rs), revision: rev, abort: abort, gates: parseGates(rs), overrides: len(overrides) > 0}
	var errs []error
	for _, w := range extras {
		if d.paused {
			continue // a paused rollout changes nothing on the clusters
		}
		errs = append(errs, c.deleteWork(ctx, w, "another work of the replica set is on the same cluster"))
	}
	plans, err := c.plansOf(rs, &d)
	if err != nil || d.missing != "" {
		return works, d, errors.Join(append(errs, err)...)
	}
	groups := groupRefs(plans)
	facts := func(cluster string) render.ClusterFacts { return c.factsOf(cluster, groups[cluster]) }
	d.render = newRenderer(rs.Spec.ManifestWorkTemplate, overrides, facts)
	memo := memoKey(rev.hash, overrides)
	if rev.hash != "" && len(overrides) > 0 {
		d.render.prior, _ = c.renders.get(cache.MetaObjectToName(rs), memo)
		defer func() { c.renders.set(cache.MetaObjectToName(rs), memo, d.render.rendered()) }()
	} else {
		c.renders.forget(cache.MetaObjectToName(rs))
	}
	if in := d.abort.stableIn; in != nil {
		d.abort.stableRender = newRenderer(in.ManifestWorkTemplate, render.Overrides(*in, rs.Name, overrides), facts)
	}
	owner := owners(plans, works)
	d.renderFailed = renderFailures(d.render, owner)
	errs = append(errs, c.rollOutAll(ctx, rs, plans, owner, works, &d))
	if stops := d.stops(); len(stops) > 0 && d.abort.stableIn != nil && !d.abort.held && !d.paused {
		if err := c.startAbort(ctx, rs, &d, stops); err != nil {
			errs = append(errs, err)
		} else {
			d.placements, d.problems, d.recheckAfter = nil, nil, 0
			errs = append(errs, c.rollOutAll(ctx, rs, plans, owner, works, &d))
		}
	}
	for cluster, w := range works {
		if owner[cluster] == nil && !unknownOwner(plans, w) {
			if d.paused {
				d.kept = append(d.kept, cluster)
				continue
			}
			errs = append(errs, c.deleteWork(ctx, w, "no placement of the replica set selects the cluster"))
			delete(works, cluster)
		}
	}
	slices.Sort(d.kept)
	return works, d, errors.Join(errs...)
}

// plansOf reads each placement of rs and its decisions; a missing
// placement is named in d.missing.
func (c *Controller) plansOf(rs *workv1alpha1.ManifestWorkReplicaSet, d *deployment) ([]*plan, error) {
	plans := make([]*plan, 0, len(rs.Spec.PlacementRefs))
	for _, ref := range rs.Spec.PlacementRefs {
		placement, err := c.placements.Placements(rs.Namespace).Get(ref.Name)
		if apierrors.IsNotFound(err) {
			d.missing = ref.Name
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		p := &plan{ref: ref, placement: placement}
		p.groups, p.err = c.groupsOf(placement)
		plans = append(plans, p)
	}
	return plans, nil
}

// rollOutAll rolls out each placement whose decisions could be read, and
// adds to d what each became.
func (c *Controller) rollOutAll(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, plans []*plan, owner map[string]*plan,
	works map[string]*workv1.ManifestWork, d *deployment) error {
	var errs []error
	now := c.clock.Now()
	for _, p := range plans {
		if p.err != nil {
			d.problems = append(d.problems, p.err.Error())
			continue
		}
		res, recheck, err := c.rollOut(ctx, rs, p, owner, works, now, d)
		if res == nil {
			d.problems = append(d.problems, err.Error()) // the strategy is invalid: only a new spec helps
			continue
		}
		errs = append(errs, err)
		d.placements = append(d.placements, *res)
		d.recheckAfter = earliest(d.recheckAfter, recheck)
	}
	return errors.Join(errs...)
}

// rollOut decides and applies the rollout of one placement; a nil result
// means its strategy could not be read, and the error says why.
func (c *Controller) rollOut(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, p *plan, owner map[string]*plan,
	works map[string]*workv1.ManifestWork, now time.Time, d *deployment) (*placementResult, time.Duration, error) {
	groups := p.ownGroups(owner)
	if d.abort.held {
		res, err := c.goBack(ctx, rs, p, groups, works, d)
		return res, 0, err
	}
	res := &placementResult{name: p.ref.Name, placement: p.placement}
	// Each work is compared with its cluster's rendered work once per pass;
	// a work the pass writes is a new object, compared again.
	known := map[*workv1.ManifestWork]bool{}
	isCurrent := func(cluster string) bool {
		w := works[cluster]
		v, ok := known[w]
		if !ok {
			v = d.current(cluster, w, p.ref.Name)
			known[w] = v
		}
		return v
	}
	var states []ClusterState
	for _, g := range groups {
		for _, cluster := range g.Clusters {
			w := works[cluster]
			if d.renderFailed[cluster] != nil {
				// Its work is left as it is: a failure of the rollout that
				// nothing will move on, failed since ever. Its
				// progressDeadline, when there is one, has passed: it holds
				// no slot of maxConcurrency; without one it holds one, as a
				// failed work does.
				states = append(states, ClusterState{Cluster: cluster, Group: g.Key, State: Failed, Since: new(time.Time)})
				continue
			}
			if !isCurrent(cluster) {
				continue
			}
			state, since := WorkState(w)
			states = append(states, ClusterState{Cluster: cluster, Group: g.Key, State: state, Since: since})
			if state == Succeeded {
				res.succeeded++
			}
		}
	}
	open, gateRecheck, gateErr := groups, time.Duration(0), error(nil)
	if !d.paused {
		open, res.wait, gateRecheck, gateErr = c.gateGroups(ctx, rs, p, groups, states, works, now, d)
	}
	decision, err := Decide(p.ref.RolloutStrategy, open, states, now)
	if err != nil {
		return nil, 0, fmt.Errorf("placement %s: %w", p.ref.Name, err)
	}
	applyErr := gateErr
	if !d.paused {
		applyErr = errors.Join(gateErr, c.applyWorks(ctx, rs, target{placement: p.ref.Name, hash: d.revision.hash, render: d.render}, decision.ToApply(), works))
	}
	for _, g := range groups {
		for _, cluster := range g.Clusters {
			if isCurrent(cluster) {
				res.clusters = append(res.clusters, cluster)
			} else {
				res.waiting = append(res.waiting, cluster)
			}
		}
	}
	if decision.MaxFailuresReached && len(res.waiting) > 0 {
		res.failures = failuresOf(states, decision, works)
		for i, f := range res.failures {
			if err := d.renderFailed[f.cluster]; err != nil {
				res.failures[i].timedOut = false // it failed; no deadline was waited for
				res.failures[i].detail = "its work cannot be rendered, and is left as it is: " + shorten(failureReason(err), maxDetail)
			}
		}
	}
	return res, earliest(decision.RecheckAfter, gateRecheck), applyErr
}

// ownGroups are p's decision groups with only the clusters p owns.
func (p *plan) ownGroups(owner map[string]*plan) []Group {
	groups := make([]Group, 0, len(p.groups))
	for _, g := range p.groups {
		var mine []string
		for _, cluster := range g.Clusters {
			if owner[cluster] == p {
				mine = append(mine, cluster)
			}
		}
		groups = append(groups, Group{Key: g.Key, Clusters: mine})
	}
	return groups
}

// earliest is the shorter of two waits, zero meaning none.
func earliest(a, b time.Duration) time.Duration {
	if a == 0 || b > 0 && b < a {
		return b
	}
	return a
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

// current tells whether w is a live work of the placement with the
// cluster's work rendered from the current revision.
func (d *deployment) current(cluster string, w *workv1.ManifestWork, placement string) bool {
	return w != nil && w.DeletionTimestamp == nil && w.Labels[workv1alpha1.PlacementNameLabel] == placement && d.onCurrent(cluster, w)
}

// onCurrent tells whether w has the cluster's work rendered from the
// current revision (false when it cannot be rendered).
func (d *deployment) onCurrent(cluster string, w *workv1.ManifestWork) bool {
	r := d.render.of(cluster)
	return r.err == nil && sameSpec(w.Spec, r.spec)
}

// groupsOf reads the decision groups of a placement from its
// PlacementDecisions, by their labels, in index order.
func (c *Controller) groupsOf(placement *clusterv1beta1.Placement) ([]Group, error) {
	selector := labels.SelectorFromSet(labels.Set{clusterv1beta1.PlacementLabel: placement.Name})
	decisions, err := c.decisions.PlacementDecisions(placement.Namespace).List(selector)
	if err != nil {
		return nil, err
	}
	return GroupsOf(decisions)
}

// GroupsOf are the decision groups of one placement's PlacementDecisions,
// by their labels, in index order, each with its clusters sorted: the
// controller's groups, and what the CLI previews.
func GroupsOf(decisions []*clusterv1beta1.PlacementDecision) ([]Group, error) {
	byKey := map[GroupKey]*Group{}
	for _, pd := range decisions {
		index, err := strconv.ParseInt(pd.Labels[clusterv1beta1.DecisionGroupIndexLabel], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("PlacementDecision %s/%s: label %s is %q, not a group index",
				pd.Namespace, pd.Name, clusterv1beta1.DecisionGroupIndexLabel, pd.Labels[clusterv1beta1.DecisionGroupIndexLabel])
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
