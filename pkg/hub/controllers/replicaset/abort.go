package replicaset

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// Annotations of ours on a replica set that say and remember what happens
// when failures stop its rollout.
const (
	// OnFailureAnnotation is what a replica set does when failures stop its
	// rollout: OnFailureStop (the default) or OnFailureAbort.
	OnFailureAnnotation = "work.manifestwork.io/on-failure"
	// OnFailureStop: the rollout stops where it is (RolloutStopped).
	OnFailureStop = "Stop"
	// OnFailureAbort: every cluster on the failing revision goes back to the
	// stable revision at once, and the replica set holds.
	OnFailureAbort = "Abort"
	// StableRevisionAnnotation is the hash of the last revision complete on
	// every selected cluster, written by the controller when a rollout
	// completes while on-failure is Abort.
	StableRevisionAnnotation = "work.manifestwork.io/stable-revision"
	// AbortedRevisionAnnotation is the hash of the revision an abort holds
	// back, written by the controller when it aborts and removed when the
	// template changes (or on-failure is no longer Abort).
	AbortedRevisionAnnotation = "work.manifestwork.io/aborted-revision"
)

// ConditionRolloutAborted is True while the replica set holds an aborted
// revision back: its message says which revision failed where, which
// clusters went back to which revision, and that the spec's template is not
// what the clusters run. False when on-failure asks for something that
// cannot be done (a bad annotation value; Abort with no stable revision to
// go back to), which then acts as Stop. Absent otherwise: it goes when a
// different template rolls out.
const ConditionRolloutAborted = "RolloutAborted"

// Reasons of RolloutAborted, and its Event.
const (
	// ReasonAborted: the clusters on the failing revision went back.
	ReasonAborted = "Aborted"
	// ReasonNoStableRevision: failures stopped the rollout, and there is no
	// stable revision to go back to: the rollout stops.
	ReasonNoStableRevision = "NoStableRevision"
	// ReasonInvalidOnFailure: the on-failure annotation is neither Stop nor
	// Abort: failures stop the rollout.
	ReasonInvalidOnFailure = "InvalidOnFailure"
	// EventRolloutAborted is the reason of the Warning Event sent once per abort.
	EventRolloutAborted = "RolloutAborted"
)

// revisionRef names a revision by its number (0: unknown) and hash.
type revisionRef struct {
	number int64
	hash   string
}

func (r revisionRef) String() string {
	if r.number == 0 {
		return "the revision of hash " + r.hash
	}
	return fmt.Sprintf("revision %d (hash %s)", r.number, r.hash)
}

// abortState is what the on-failure policy and our annotations say of a
// replica set, and what a pass did of it: the facts RolloutAborted is made of.
type abortState struct {
	abort    bool   // on-failure is Abort
	invalid  string // why the annotation's value is not understood; "" when it is
	noStable string // why Abort cannot go back (it acts as Stop); "" when it can
	failing  revisionRef
	stable   revisionRef
	// stableIn is the stable revision's template and overrides; nil when
	// there is none to go back to. stableRender renders its works (set by
	// deploy, which knows the clusters' groups).
	stableIn     *revision.Input
	stableRender *renderer
	held         bool // the current revision is aborted: the clusters get the stable one
	// abortRecord is what the abort of the held revision did so far (the
	// clusters whose failures made it abort, those sent back to the stable
	// revision, whether its Warning Event was sent), this pass included.
	abortRecord
}

// abortOf reads the replica set's on-failure policy and, with Abort, the
// stable revision (from its ControllerRevision) and whether the current
// revision is held back.
func (c *Controller) abortOf(rs *workv1alpha1.ManifestWorkReplicaSet, rev revisionOutcome) abortState {
	a := abortState{failing: rev.ref()}
	switch v := rs.Annotations[OnFailureAnnotation]; v {
	case "", OnFailureStop:
		return a
	case OnFailureAbort:
		a.abort = true
	default:
		a.invalid = fmt.Sprintf("The annotation %s is %q, not %s or %s: failures stop the rollout (%s)",
			OnFailureAnnotation, v, OnFailureStop, OnFailureAbort, OnFailureStop)
		return a
	}
	a.stable, a.stableIn, a.noStable = c.stableOf(rs, rev)
	record, remembered := c.aborted.get(cache.MetaObjectToName(rs), rev.hash)
	a.held = a.stableIn != nil && rev.hash != "" && (rs.Annotations[AbortedRevisionAnnotation] == rev.hash || remembered)
	if a.held {
		a.abortRecord = abortRecord{failedOn: slices.Clone(record.failedOn), wentBack: slices.Clone(record.wentBack), announced: record.announced}
	}
	return a
}

// abortRecord is what an abort did, remembered by hash of the revision
// held back while the hold lasts, so that RolloutAborted says it on every
// pass, and the hold holds, whatever the cache shows: the annotation says
// which revision is held too, but the cache may be a write behind it, and a
// sync that read the replica set before the write landed would roll the
// failing revision out again.
type abortRecord struct {
	failedOn, wentBack []string
	announced          bool // its Warning Event was sent
}

// stableOf is the replica set's stable revision and its input (template and
// overrides), or why there is none to go back to.
func (c *Controller) stableOf(rs *workv1alpha1.ManifestWorkReplicaSet, rev revisionOutcome) (revisionRef, *revision.Input, string) {
	hash := rs.Annotations[StableRevisionAnnotation]
	switch {
	case c.revisions == nil || !rev.on || rev.reason != "" && rev.reason != ReasonInvalidHistoryLimit:
		return revisionRef{}, nil, "revisions are not recorded (see the condition " + ConditionRevisionsRecorded + ")"
	case hash == "":
		return revisionRef{}, nil, "no revision has been complete on every selected cluster while " + OnFailureAnnotation + " was " + OnFailureAbort
	case hash == rev.hash:
		return revisionRef{}, nil, "the current revision is the last one that was complete on every selected cluster: there is none to go back to"
	}
	ref := revisionRef{hash: hash}
	cr, err := c.revisions.ControllerRevisions(rs.Namespace).Get(revision.Name(rs.Name, hash))
	if err != nil || metav1.GetControllerOf(cr) == nil || metav1.GetControllerOf(cr).UID != rs.UID {
		return ref, nil, fmt.Sprintf("the ControllerRevision %s of the stable revision (hash %s) is not there",
			revision.Name(rs.Name, hash), hash)
	}
	ref.number = cr.Revision
	in, err := revision.Decode(cr)
	if err != nil {
		return ref, nil, "the stable revision cannot be read: " + err.Error()
	}
	return ref, &in, ""
}

// startAbort holds the current revision back: it records it in the
// annotation first, so that a restart holds it too, then says in d that the
// clusters go back.
func (c *Controller) startAbort(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, d *deployment, stops []stopped) error {
	hash := d.abort.failing.hash
	if err := c.annotate(ctx, rs, map[string]*string{AbortedRevisionAnnotation: &hash}); err != nil {
		return fmt.Errorf("abort: %w", err)
	}
	d.abort.held = true
	for _, s := range stops {
		for _, f := range s.failures {
			d.abort.failedOn = append(d.abort.failedOn, f.cluster)
		}
	}
	slices.Sort(d.abort.failedOn)
	d.abort.failedOn = slices.Compact(d.abort.failedOn)
	c.aborted.set(cache.MetaObjectToName(rs), hash, abortRecord{failedOn: d.abort.failedOn})
	klog.FromContext(ctx).Info("Rollout aborted", "revision", d.abort.failing.String(), "failedOn", d.abort.failedOn,
		"stable", d.abort.stable.String())
	return nil
}

// settleAnnotations writes what the pass learnt into our annotations, in
// one patch, and only when they change: the stable revision when the
// rollout of the current one is complete (with Abort), and the end of a
// hold when the template changed or Abort was dropped.
func (c *Controller) settleAnnotations(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, d deployment, complete bool) error {
	set := map[string]*string{}
	if _, ok := rs.Annotations[AbortedRevisionAnnotation]; ok && !d.abort.held {
		set[AbortedRevisionAnnotation] = nil
	}
	if d.abort.held {
		c.aborted.set(cache.MetaObjectToName(rs), d.abort.failing.hash, d.abort.abortRecord)
	} else {
		c.aborted.forget(cache.MetaObjectToName(rs))
	}
	hash := d.abort.failing.hash
	if d.abort.abort && complete && !d.abort.held && hash != "" && rs.Annotations[StableRevisionAnnotation] != hash &&
		d.revision.on && (d.revision.reason == "" || d.revision.reason == ReasonInvalidHistoryLimit) {
		set[StableRevisionAnnotation] = &hash
	}
	return c.annotate(ctx, rs, set)
}

// annotate sets (or, for nil, removes) annotations of the replica set with
// a merge patch, and keeps what the hub stored in rs. Nothing to set costs
// no request.
func (c *Controller) annotate(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, set map[string]*string) error {
	if len(set) == 0 {
		return nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": set}})
	if err != nil {
		return err
	}
	stored, err := c.client.WorkV1alpha1().ManifestWorkReplicaSets(rs.Namespace).Patch(ctx, rs.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	rs.Annotations = stored.Annotations
	return nil
}

// goBack sends the placement's clusters on the held revision, and those
// without a work, to the stable revision (its template with its overrides,
// rendered per cluster), all at once: maxConcurrency does not apply to going
// back. A cluster whose work the held revision could not render was never
// written: it keeps its work. A paused replica set writes nothing.
func (c *Controller) goBack(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, p *plan, groups []Group,
	works map[string]*workv1.ManifestWork, d *deployment) (*placementResult, error) {
	res := &placementResult{name: p.ref.Name, placement: p.placement}
	var back, had []string
	for _, g := range groups {
		for _, cluster := range g.Clusters {
			w := works[cluster]
			switch {
			case w == nil:
				back = append(back, cluster)
			case w.DeletionTimestamp == nil && d.onCurrent(cluster, w):
				back = append(back, cluster)
				had = append(had, cluster)
			}
		}
	}
	var err error
	if !d.paused {
		err = c.applyWorks(ctx, rs, target{placement: p.ref.Name, hash: d.abort.stable.hash, render: d.abort.stableRender}, back, works)
	}
	for _, cluster := range had {
		if !d.current(cluster, works[cluster], p.ref.Name) {
			d.abort.wentBack = append(d.abort.wentBack, cluster)
		}
	}
	slices.Sort(d.abort.wentBack)
	d.abort.wentBack = slices.Compact(d.abort.wentBack)
	for _, g := range groups {
		for _, cluster := range g.Clusters {
			if d.current(cluster, works[cluster], p.ref.Name) {
				res.clusters = append(res.clusters, cluster)
			} else {
				res.waiting = append(res.waiting, cluster)
			}
		}
	}
	return res, err
}

// rolloutAborted is RolloutAborted from the abort facts of a pass, and the
// message of the Warning Event to send: once per abort, until sync has sent
// it (or, after a restart, the condition in old names the abort already).
// stopped tells whether failures stopped the rollout. While the hold lasts,
// the message says what the abort did, as the controller remembers it;
// after a restart, the message written when it began stays.
func rolloutAborted(old []metav1.Condition, a abortState, stopped bool) (cond condition, event string) {
	switch {
	case a.invalid != "":
		return trueIf(ConditionRolloutAborted, false, ReasonInvalidOnFailure, a.invalid), ""
	case a.held:
		msg := abortedMessage(a)
		c := apimeta.FindStatusCondition(old, ConditionRolloutAborted)
		named := c != nil && c.Status == metav1.ConditionTrue && c.Reason == ReasonAborted &&
			strings.HasPrefix(c.Message, capitalized(a.failing.String())+" failed")
		if named && len(a.failedOn) == 0 {
			msg = c.Message
		}
		if !a.announced && !named {
			event = shorten(msg, maxEventMessage)
		}
		return trueIf(ConditionRolloutAborted, true, ReasonAborted, msg), event
	case a.abort && stopped && a.noStable != "":
		return trueIf(ConditionRolloutAborted, false, ReasonNoStableRevision,
			fmt.Sprintf("On failure %s, but %s: the rollout stops (%s)", OnFailureAbort, a.noStable, OnFailureStop)), ""
	}
	return absent(ConditionRolloutAborted), ""
}

// announceAbort remembers that the Warning Event of the abort of hash was sent.
func (c *Controller) announceAbort(key cache.ObjectName, hash string) {
	if rec, ok := c.aborted.get(key, hash); ok {
		rec.announced = true
		c.aborted.set(key, hash, rec)
	}
}

// abortedMessage says which revision failed where, which clusters went back
// to which revision, and what the summary counts while the hold lasts.
func abortedMessage(a abortState) string {
	msg := capitalized(a.failing.String()) + " failed"
	if len(a.failedOn) > 0 {
		msg += " on " + named(a.failedOn)
	}
	switch {
	case len(a.wentBack) > 0:
		msg += fmt.Sprintf("; %s went back to %s", named(a.wentBack), a.stable)
	default:
		msg += fmt.Sprintf("; its clusters went back to %s", a.stable)
	}
	return msg + fmt.Sprintf(". The spec's template is %s, which the clusters do not run: summary.updated counts the clusters on it."+
		" The replica set holds (clusters that join get %s) until its template changes", a.failing, a.stable)
}

func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
