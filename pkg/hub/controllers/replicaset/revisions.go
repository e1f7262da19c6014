package replicaset

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// ConditionRevisionsRecorded says whether the replica set's revisions are
// kept as ControllerRevisions: True with the current revision's number and
// hash; False when the hub refuses the controller the right (Forbidden) or a
// write failed. Its works carry their revision's hash either way, and the
// rollout goes on.
const ConditionRevisionsRecorded = "RevisionsRecorded"

// Reasons of RevisionsRecorded.
const (
	// ReasonRecorded: the current revision is recorded.
	ReasonRecorded = "Recorded"
	// ReasonInvalidHistoryLimit: recorded, but the history limit annotation
	// is not a number; the default applies.
	ReasonInvalidHistoryLimit = "InvalidHistoryLimit"
	// ReasonForbidden: the controller may not read or write ControllerRevisions.
	ReasonForbidden = "Forbidden"
	// ReasonRecordFailed: a ControllerRevision could not be written.
	ReasonRecordFailed = "RecordFailed"
)

// revisionOutcome is the replica set's current revision and how recording
// it went, for the work labels and RevisionsRecorded.
type revisionOutcome struct {
	hash string // "" when the template cannot be hashed: works get no hash label
	// on: revisions are recorded on this hub. Off (the zero value), the
	// condition is absent unless reason says why.
	on      bool
	created bool // its ControllerRevision was created by this pass (the cache lacks it)
	number  int64
	kept    int
	// reason and message of a problem; "" when none.
	reason, message string
}

// ref names the revision in messages.
func (r revisionOutcome) ref() revisionRef {
	return revisionRef{number: r.number, hash: r.hash}
}

// condition is RevisionsRecorded, or absent when revisions are off with no
// reason to say (a controller built without them).
func (r revisionOutcome) condition() condition {
	switch {
	case r.reason != "" && r.reason != ReasonInvalidHistoryLimit:
		return trueIf(ConditionRevisionsRecorded, false, r.reason, r.message)
	case !r.on:
		return absent(ConditionRevisionsRecorded)
	}
	msg := fmt.Sprintf("Revision %d (hash %s) is current; %d kept", r.number, r.hash, r.kept)
	if r.reason == ReasonInvalidHistoryLimit {
		return trueIf(ConditionRevisionsRecorded, true, r.reason, msg+"; "+r.message)
	}
	return trueIf(ConditionRevisionsRecorded, true, ReasonRecorded, msg)
}

// byRevision remembers, per replica set, a value that holds while its
// current revision is the one of a given hash.
type byRevision[V any] struct {
	mu sync.Mutex
	m  map[cache.ObjectName]revisionValue[V]
}

type revisionValue[V any] struct {
	hash  string
	value V
}

// get is the value for key, if it was set for hash.
func (b *byRevision[V]) get(key cache.ObjectName, hash string) (V, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[key]
	if !ok || v.hash != hash {
		var zero V
		return zero, false
	}
	return v.value, true
}

func (b *byRevision[V]) set(key cache.ObjectName, hash string, value V) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[cache.ObjectName]revisionValue[V]{}
	}
	b.m[key] = revisionValue[V]{hash: hash, value: value}
}

func (b *byRevision[V]) forget(key cache.ObjectName) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, key)
}

// blocked is why the hub refused to record a revision: remembered per
// replica set and hash, so that the refusal costs one request per
// template, not one per sync.
type blocked struct{ reason, message string }

// recordRevision makes in, the replica set's template and overrides, its
// newest revision: it
// creates the ControllerRevision of a template not seen before, numbered
// after the newest, or gives an earlier one of the same content the newest
// number. It writes nothing when the current revision is the newest already.
// A refusal is remembered and said in the outcome; the rollout goes on.
func (c *Controller) recordRevision(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, in revision.Input) (revisionOutcome, error) {
	data, err := revision.Canonical(in)
	if err != nil {
		return revisionOutcome{reason: ReasonRecordFailed, message: "The template cannot be hashed: " + err.Error()}, nil
	}
	hash, _ := revision.Hash(in)
	out := revisionOutcome{hash: hash, on: c.revisions != nil}
	if c.revisions == nil {
		if c.revisionsOff != "" {
			out.reason, out.message = ReasonForbidden, c.revisionsOff
		}
		return out, nil
	}
	ref := cache.MetaObjectToName(rs)
	if b, ok := c.blocked.get(ref, hash); ok {
		out.reason, out.message = b.reason, b.message
		return out, nil
	}
	err = c.writeRevision(ctx, rs, data, &out)
	switch {
	case err == nil:
		return out, nil
	case apierrors.IsForbidden(err), apierrors.IsAlreadyExists(err):
		b := blocked{reason: ReasonForbidden, message: err.Error()}
		if apierrors.IsAlreadyExists(err) {
			b.reason = ReasonRecordFailed
		}
		c.blocked.set(ref, hash, b)
		out.reason, out.message = b.reason, b.message
		return out, nil // only a new template, or a restart, tries again
	}
	out.reason, out.message = ReasonRecordFailed, err.Error()
	return out, err
}

// writeRevision creates or renumbers the ControllerRevision of out.hash, as
// recordRevision says, and fills out's number and count.
func (c *Controller) writeRevision(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, data []byte, out *revisionOutcome) error {
	revs, err := c.ownedRevisions(rs)
	if err != nil {
		return err
	}
	newest := int64(0)
	var mine *appsv1.ControllerRevision
	for _, cr := range revs {
		newest = max(newest, cr.Revision)
		if cr.Labels[revision.HashLabel] == out.hash {
			mine = cr
		}
	}
	out.kept = len(revs)
	switch {
	case mine == nil:
		out.number = newest + 1
		out.kept++
		err = c.createRevision(ctx, rs, out.hash, data, out.number)
		out.created = err == nil
	case mine.Revision != newest || c.sharesNewest(revs, mine):
		out.number = newest + 1
		err = c.renumberRevision(ctx, rs, mine, out.number)
	default:
		out.number = mine.Revision
	}
	return err
}

// sharesNewest tells whether another revision has mine's number (as after
// a renumbering the cache has not seen yet): mine then takes a new one.
func (c *Controller) sharesNewest(revs []*appsv1.ControllerRevision, mine *appsv1.ControllerRevision) bool {
	for _, cr := range revs {
		if cr != mine && cr.Revision == mine.Revision {
			return true
		}
	}
	return false
}

// ownedRevisions are the cached revisions of rs, newest first.
func (c *Controller) ownedRevisions(rs *workv1alpha1.ManifestWorkReplicaSet) ([]*appsv1.ControllerRevision, error) {
	revs, err := c.revisions.ControllerRevisions(rs.Namespace).List(revision.Selector(rs.Name))
	if err != nil {
		return nil, err
	}
	return revision.OwnedBy(rs, revs), nil
}

func (c *Controller) createRevision(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, hash string, data []byte, number int64) error {
	cr := &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   rs.Namespace,
			Name:        revision.Name(rs.Name, hash),
			Labels:      map[string]string{revision.ReplicaSetLabel: rs.Name, revision.HashLabel: hash},
			Annotations: changeCause(rs),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs,
				workv1alpha1.SchemeGroupVersion.WithKind("ManifestWorkReplicaSet"))},
		},
		Data:     runtime.RawExtension{Raw: data},
		Revision: number,
	}
	created, err := c.revisionClient.ControllerRevisions(rs.Namespace).Create(ctx, cr, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return c.adoptExisting(ctx, rs, cr.Name, err)
	}
	if err != nil {
		return err
	}
	klog.FromContext(ctx).V(2).Info("Recorded revision", "controllerRevision", klog.KObj(created), "revision", number)
	return nil
}

// adoptExisting checks a ControllerRevision of the name wanted that the
// cache did not show yet: it is fine when the replica set controls it,
// else alreadyExists stands.
func (c *Controller) adoptExisting(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, name string, alreadyExists error) error {
	cr, err := c.revisionClient.ControllerRevisions(rs.Namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if ref := metav1.GetControllerOf(cr); ref != nil && ref.UID == rs.UID {
		return nil
	}
	return fmt.Errorf("ControllerRevision %s/%s is there and not this replica set's: %w", rs.Namespace, name, alreadyExists)
}

// changeCause is the replica set's change cause, as a revision's
// annotations; nil when it has none.
func changeCause(rs *workv1alpha1.ManifestWorkReplicaSet) map[string]string {
	if cause, ok := rs.Annotations[revision.ChangeCauseAnnotation]; ok {
		return map[string]string{revision.ChangeCauseAnnotation: cause}
	}
	return nil
}

// renumberRevision makes cr, a revision rs goes back to, the newest, with
// the change cause that brought it back when rs records one.
func (c *Controller) renumberRevision(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, cr *appsv1.ControllerRevision, number int64) error {
	meta := map[string]any{"uid": cr.UID} // a precondition: this very revision
	if cause := changeCause(rs); cause != nil {
		meta["annotations"] = cause
	}
	patch, err := json.Marshal(map[string]any{"metadata": meta, "revision": number})
	if err != nil {
		return err
	}
	_, err = c.revisionClient.ControllerRevisions(cr.Namespace).Patch(ctx, cr.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return err
	}
	klog.FromContext(ctx).V(2).Info("Reused revision", "controllerRevision", klog.KObj(cr), "from", cr.Revision, "revision", number)
	return nil
}

// pruneRevisions deletes the oldest revisions beyond the history limit,
// never the current one, the stable one (StableRevisionAnnotation) nor one
// that a work of the replica set runs. A bad limit is said in out, and the
// default applies.
func (c *Controller) pruneRevisions(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, out *revisionOutcome) error {
	limit, lerr := revision.HistoryLimit(rs)
	if lerr != nil && out.reason == "" {
		out.reason, out.message = ReasonInvalidHistoryLimit, lerr.Error()
	}
	if c.revisions == nil || out.reason != "" && out.reason != ReasonInvalidHistoryLimit {
		return nil
	}
	revs, err := c.ownedRevisions(rs)
	if err != nil {
		return err
	}
	excess := len(revs) - limit
	if out.created && !slices.ContainsFunc(revs, func(cr *appsv1.ControllerRevision) bool {
		return cr.Labels[revision.HashLabel] == out.hash
	}) {
		excess++ // the cache does not hold the revision this pass created yet
	}
	if excess <= 0 {
		return nil
	}
	running := c.runningHashes(rs)
	var errs []error
	for i := len(revs) - 1; i >= 0 && excess > 0; i-- { // oldest first
		cr := revs[i]
		hash := cr.Labels[revision.HashLabel]
		if hash == out.hash || running[hash] || hash == rs.Annotations[StableRevisionAnnotation] {
			continue
		}
		uid := cr.UID
		err := c.revisionClient.ControllerRevisions(cr.Namespace).Delete(ctx, cr.Name,
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
			continue
		}
		klog.FromContext(ctx).V(2).Info("Pruned revision", "controllerRevision", klog.KObj(cr), "revision", cr.Revision)
		excess--
		out.kept--
	}
	if len(errs) > 0 {
		return fmt.Errorf("prune revisions: %w", errs[0])
	}
	return nil
}

// runningHashes are the hashes of the revisions the replica set's works run:
// their label, else (a work last written before revisions were recorded)
// the hash of their spec.
func (c *Controller) runningHashes(rs *workv1alpha1.ManifestWorkReplicaSet) map[string]bool {
	running := map[string]bool{}
	for _, w := range c.labelledWorks(rs) {
		running[revision.Runs(w)] = true
	}
	return running
}

// replicaSetOfRevision maps a ControllerRevision to the replica set its
// label names, in its namespace.
func replicaSetOfRevision(obj runtime.Object) []string {
	cr, ok := obj.(*appsv1.ControllerRevision)
	if !ok || cr.Labels[revision.ReplicaSetLabel] == "" {
		return nil
	}
	return []string{cache.NewObjectName(cr.Namespace, cr.Labels[revision.ReplicaSetLabel]).String()}
}
