package appliedresources

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/apply/records"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// state is what one reconcile builds up before its single status write.
type state struct {
	work    *workv1.ManifestWork
	applied *workv1.AppliedManifestWork
	// known are the resources recorded in the AppliedManifestWork, and the
	// ones applied since that it does not list yet (unrecorded).
	known      []workv1.AppliedManifestResourceMeta
	unrecorded []workv1.AppliedManifestResourceMeta
	// resources is the new status.appliedResources.
	resources []workv1.AppliedManifestResourceMeta
	// inWork holds every resource the work's status names, applied or not.
	inWork map[workv1.ResourceIdentifier]bool
	// unmapped holds the manifests whose resource type could not be found
	// this time (a CRD missing), with an empty Resource: a recorded resource
	// of the same group, namespace and name may be one of them.
	unmapped map[workv1.ResourceIdentifier]bool
	// inNamespace holds, each with its namespace left out, the resources
	// the work's status names with one. A recorded resource without
	// namespace is of a cluster-scoped kind, and one of these of the same
	// name is the same object: its manifest carries a namespace, which the
	// status of an earlier version of the agent kept (the current one names
	// it as the API server does, without).
	inNamespace map[workv1.ResourceIdentifier]bool
	// settled is true when the work's status describes its current spec, so
	// that a resource it does not name was really dropped.
	settled bool
	// errs are per-resource failures; the other resources go on.
	errs []error
	// unpruned are the failures to prune a resource dropped from the work
	// (also in errs).
	unpruned []error
	// missing is set when an applied object was not found: the manifestwork
	// controller puts it back, and its new UID must then be recorded, but
	// the creation of an object brings no event here.
	missing bool
}

// reconcile records what the work applied, prunes what it dropped, and
// writes the AppliedManifestWork status once, if it changed. While any
// resource fails it returns an error, so the queue retries with backoff; it
// returns how soon to look again when an applied object was missing.
func (c *Controller) reconcile(ctx context.Context, work *workv1.ManifestWork) (time.Duration, error) {
	if work.DeletionTimestamp != nil {
		return 0, nil // the finalize controllers own deleted works
	}
	applied, err := c.appliedWork(work)
	if err != nil || applied == nil {
		return 0, err
	}
	if c.outdated(applied) {
		return 0, nil // the event of our own write brings the current copy
	}
	st := &state{work: work, applied: applied}
	for _, step := range []func(context.Context, *state) error{
		c.knownResources,
		c.recordApplied,
		c.pruneDropped,
		c.updateStatus,
		c.persistRecords,
	} {
		if err := step(ctx, st); err != nil {
			return 0, err
		}
	}
	c.reportPruning(st)
	if err := errors.Join(st.errs...); err != nil {
		return 0, err
	}
	if st.missing {
		return wait.Jitter(missingRecheck, 0.5), nil
	}
	return 0, nil
}

// appliedWork is the work's AppliedManifestWork, or nil when there is none
// yet (the manifestwork controller creates it, and its event requeues the
// work) or it is being deleted.
func (c *Controller) appliedWork(work *workv1.ManifestWork) (*workv1.AppliedManifestWork, error) {
	applied, err := c.applied.Get(c.AppliedName(work.Name))
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if applied.DeletionTimestamp != nil {
		return nil, nil
	}
	return applied, nil
}

// knownResources adds to the recorded resources those the agent applied
// since that the AppliedManifestWork does not list yet: a pass whose status
// write failed, because the work changed meanwhile, left its objects
// nowhere else, and they must be recorded, or pruned when the work no
// longer names them. They are taken once the work's status describes its
// current spec, when the pass that applied them is over: objects of a pass
// still going on are recorded from that status, in one write, not one by one
// as each is created.
func (c *Controller) knownResources(_ context.Context, st *state) error {
	st.known = st.applied.Status.AppliedResources
	if c.Records == nil || !statusCurrent(st.work) {
		return nil
	}
	st.unrecorded = c.Records.Unrecorded(cache.MetaObjectToName(st.work).String())
	if len(st.unrecorded) == 0 {
		return nil
	}
	byID := map[workv1.ResourceIdentifier]int{}
	st.known = slices.Clone(st.known)
	for i, r := range st.known {
		byID[r.ResourceIdentifier] = i
	}
	for _, r := range st.unrecorded {
		if i, ok := byID[r.ResourceIdentifier]; ok {
			st.known[i] = r // the latest object of that name the agent applied
			continue
		}
		byID[r.ResourceIdentifier] = len(st.known)
		st.known = append(st.known, r)
	}
	return nil
}

// recordApplied lists, as OCM's agent does, every resource of the work's
// status whose object exists, with the UID of the live object, whatever its
// update strategy (ReadOnly too) and whether it is applied right now. Being
// listed never makes an object ours: pruning and finalizing only ever delete
// or release an object that carries our owner reference (appliedwork.Cleaner).
// An applied object that is not found, and one that cannot be looked up,
// keeps its previous record, so that neither looks like a removal.
func (c *Controller) recordApplied(ctx context.Context, st *state) error {
	previous := map[workv1.ResourceIdentifier]workv1.AppliedManifestResourceMeta{}
	for _, r := range st.known {
		previous[r.ResourceIdentifier] = r
	}
	st.inWork = map[workv1.ResourceIdentifier]bool{}
	st.unmapped = map[workv1.ResourceIdentifier]bool{}
	st.inNamespace = map[workv1.ResourceIdentifier]bool{}
	st.settled = statusCurrent(st.work)
	for _, m := range st.work.Status.ResourceStatus.Manifests {
		meta := m.ResourceMeta
		switch {
		case meta.Name == "" || meta.Version == "":
			st.settled = false // undecodable: it could be any recorded resource
			continue
		case meta.Resource == "":
			st.unmapped[workv1.ResourceIdentifier{Group: meta.Group, Namespace: meta.Namespace, Name: meta.Name}] = true
			continue
		}
		id := workv1.ResourceIdentifier{Group: meta.Group, Resource: meta.Resource, Namespace: meta.Namespace, Name: meta.Name}
		if meta.Namespace != "" {
			st.inNamespace[workv1.ResourceIdentifier{Group: meta.Group, Resource: meta.Resource, Name: meta.Name}] = true
		}
		if st.inWork[id] {
			continue
		}
		st.inWork[id] = true
		prev, recorded := previous[id]
		entry := workv1.AppliedManifestResourceMeta{ResourceIdentifier: id, Version: meta.Version}
		live, err := c.lookup(ctx, appliedwork.GVR(entry), meta.Namespace, meta.Name)
		switch {
		case err != nil:
			st.errs = append(st.errs, err)
			if recorded {
				st.resources = append(st.resources, prev)
			}
		case live == nil && expectedToExist(st.work, m):
			// Not in the watch cache: created a moment ago and not seen yet,
			// or deleted behind our back (the manifestwork controller puts it
			// back). A look a little later records it.
			klog.FromContext(ctx).V(2).Info("Applied object not seen; recording it later", "resource", appliedwork.Describe(entry))
			st.missing = true
			if recorded {
				st.resources = append(st.resources, prev)
			}
		case live == nil:
			// Not applied, or only read: there is no object to list.
		default:
			entry.UID = string(live.UID)
			st.resources = append(st.resources, entry)
		}
	}
	return nil
}

// expectedToExist tells whether the manifest's object must exist: the agent
// applied it, and it is not ReadOnly (whose object someone else creates).
func expectedToExist(work *workv1.ManifestWork, m workv1.ManifestCondition) bool {
	return apimeta.IsStatusConditionTrue(m.Conditions, workv1.ManifestApplied) && !manifest.ReadOnly(work, m.ResourceMeta)
}

// lookup reads an applied object's metadata from the watch cache, and from
// the API only when the cache cannot answer; nil when the cache has not seen
// it. Objects are recorded as the cache sees them, so recording a new work
// costs no read.
func (c *Controller) lookup(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, error) {
	if c.Objects != nil {
		obj, synced, err := c.Objects.Get(gvr, namespace, name)
		if err == nil && synced {
			return obj, nil
		}
	}
	return c.cleaner.Lookup(ctx, gvr, namespace, name)
}

// statusCurrent reports whether the work's status was written for its
// current generation: until then, its manifest list may still lack what the
// new spec added back.
func statusCurrent(work *workv1.ManifestWork) bool {
	cond := apimeta.FindStatusCondition(work.Status.Conditions, workv1.WorkApplied)
	return cond != nil && cond.ObservedGeneration == work.Generation
}

// pruneDropped removes from the managed cluster the recorded resources that
// the work no longer names: deleted when the object is still the one
// recorded and only ours, released when another AppliedManifestWork shares
// it or the work's deleteOption orphans it, left alone without our owner
// reference; either way it leaves the record. It waits, keeping their
// records, while the work's status is behind its spec. A manifest whose type cannot be mapped right now (its CRD is gone)
// protects the recorded resources of its group, namespace and name, since it
// may be one of them, and so does a manifest that the status names with the
// namespace of a recorded cluster-scoped resource of that name (see
// state.inNamespace): it is one of them, and pruning it would delete an
// object that the work applies again, over and over. A resource that cannot
// be pruned now keeps its record for the retry.
func (c *Controller) pruneDropped(ctx context.Context, st *state) error {
	var dropped []workv1.AppliedManifestResourceMeta
	for _, r := range st.known {
		if st.inWork[r.ResourceIdentifier] {
			continue
		}
		if st.unmapped[workv1.ResourceIdentifier{Group: r.Group, Namespace: r.Namespace, Name: r.Name}] {
			st.resources = append(st.resources, r) // may still be in the work
			continue
		}
		if r.Namespace == "" && st.inNamespace[r.ResourceIdentifier] {
			st.resources = append(st.resources, r) // still in the work
			continue
		}
		dropped = append(dropped, r)
	}
	if len(dropped) == 0 {
		return nil
	}
	logger := klog.FromContext(ctx)
	if !st.settled {
		logger.V(2).Info("Work status is not settled; not pruning yet", "dropped", len(dropped))
		st.resources = append(st.resources, dropped...)
		return nil
	}
	for _, r := range dropped {
		outcome, err := c.cleaner.Clean(ctx, st.applied.UID, r, pruneAction(st.work, r))
		if err != nil {
			err = fmt.Errorf("pruning %s: %w", appliedwork.Describe(r), err)
			st.errs, st.unpruned = append(st.errs, err), append(st.unpruned, err)
			st.resources = append(st.resources, r)
			continue
		}
		logger.Info("Pruned a resource dropped from the work", "resource", appliedwork.Describe(r), "outcome", outcome.String())
	}
	return nil
}

// pruneAction is what to do with a resource dropped from the work: what
// the work's deleteOption orphans stays, and only loses our owner reference
// if it still has one (the apply removes it; an object applied before the
// work came to orphan it may keep it until then). Anything else is deleted,
// when it still carries our owner reference.
func pruneAction(work *workv1.ManifestWork, r workv1.AppliedManifestResourceMeta) appliedwork.Action {
	if manifest.Orphaned(work.Spec.DeleteOption, r.ResourceIdentifier) {
		return appliedwork.Orphan
	}
	return appliedwork.Delete
}

// updateStatus writes status.appliedResources when it changed, as a merge
// patch carrying the resourceVersion it was computed from. The list is in
// OCM's order: by group, version, resource, namespace and name.
func (c *Controller) updateStatus(ctx context.Context, st *state) error {
	if st.missing {
		return nil // a record with objects still to be seen is written once they are
	}
	slices.SortStableFunc(st.resources, compareResources)
	if sameResources(st.applied.Status.AppliedResources, st.resources) {
		c.recorded(st)
		return nil
	}
	var resources any // null clears the list
	if len(st.resources) > 0 {
		resources = st.resources
	}
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": st.applied.ResourceVersion},
		"status":   map[string]any{"appliedResources": resources},
	})
	if err != nil {
		return err
	}
	updated, err := c.SpokeClient.WorkV1().AppliedManifestWorks().Patch(ctx, st.applied.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		return fmt.Errorf("patching AppliedManifestWork %s status: %w", st.applied.Name, err)
	}
	st.applied = c.wrote(st.applied, updated)
	klog.FromContext(ctx).V(2).Info("Updated applied resources", "appliedManifestWork", st.applied.Name, "count", len(st.resources))
	c.recorded(st)
	return nil
}

// recorded tells the records that the unrecorded resources this reconcile
// started from are now listed in the AppliedManifestWork, or pruned.
func (c *Controller) recorded(st *state) {
	if c.Records != nil && len(st.unrecorded) > 0 && len(st.errs) == 0 {
		c.Records.Recorded(cache.MetaObjectToName(st.work).String(), st.unrecorded)
	}
}

// persistRecords writes the apply records of a work whose records are
// persisted (records.Persisted) into the AppliedManifestWork when they
// differ from what it holds, once the work's status describes its current
// spec and every applied object was seen: then the records are those of a
// finished pass, and one write covers them. The records an earlier version
// persisted for another work are removed, once. A work whose records this
// agent has not loaded yet keeps what is persisted.
func (c *Controller) persistRecords(ctx context.Context, st *state) error {
	if c.Records == nil || st.missing || !statusCurrent(st.work) {
		return nil
	}
	key := cache.MetaObjectToName(st.work).String()
	if !c.Records.Known(key) {
		return nil
	}
	want := "" // the records of most works are rebuilt, not persisted; an earlier version's go
	if records.Persisted(st.work) {
		want = c.Records.Encode(key)
	}
	if want == st.applied.Annotations[records.Annotation] {
		return nil
	}
	var value any // null removes the annotation
	if want != "" {
		value = want
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{records.Annotation: value}}})
	if err != nil {
		return err
	}
	updated, err := c.SpokeClient.WorkV1().AppliedManifestWorks().Patch(ctx, st.applied.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("persisting apply records in AppliedManifestWork %s: %w", st.applied.Name, err)
	}
	st.applied = c.wrote(st.applied, updated)
	klog.FromContext(ctx).V(4).Info("Persisted apply records", "appliedManifestWork", st.applied.Name, "bytes", len(want))
	return nil
}

// compareResources orders applied resources as OCM's agent lists them.
func compareResources(a, b workv1.AppliedManifestResourceMeta) int {
	return cmp.Or(
		cmp.Compare(a.Group, b.Group),
		cmp.Compare(a.Version, b.Version),
		cmp.Compare(a.Resource, b.Resource),
		cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name),
	)
}

func sameResources(a, b []workv1.AppliedManifestResourceMeta) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return equality.Semantic.DeepEqual(a, b)
}

// wrote remembers that our write replaced the AppliedManifestWork's version
// before, and returns the written copy for the next steps. A write that
// changed nothing keeps the version, which then stays current.
func (c *Controller) wrote(before, after *workv1.AppliedManifestWork) *workv1.AppliedManifestWork {
	if after.ResourceVersion != before.ResourceVersion {
		c.replaced.Note(before.Name, before.ResourceVersion)
	}
	return after
}

// outdated tells whether our own writes replaced this lister copy of the
// AppliedManifestWork: reconciling it would repeat a write (or send one that
// conflicts). A copy they did not replace is at least as new as all of them
// (an informer never goes back), so what was remembered is dropped.
func (c *Controller) outdated(applied *workv1.AppliedManifestWork) bool {
	return c.replaced.Outdated(applied.Name, applied.ResourceVersion)
}

// EventPruneFailed (Warning): resources dropped from the work have not been
// removed from the managed cluster for a while (see package stalled); the
// agent keeps retrying. The work's status no longer lists them, so this
// Event is where it shows.
const EventPruneFailed = "PruneFailed"

// reportPruning records one Event on a work whose dropped resources have
// failed to be pruned for a while, not one per retry.
func (c *Controller) reportPruning(st *state) {
	key := cache.MetaObjectToName(st.work).String()
	if len(st.unpruned) == 0 {
		c.pruneFailures.Succeeded(key)
		return
	}
	if !c.pruneFailures.Failed(key, c.now()).First || c.Events == nil {
		return
	}
	message := fmt.Sprintf("Cannot remove what was dropped from the work; retrying: %v", st.unpruned[0])
	if more := len(st.unpruned) - 1; more > 0 {
		message += fmt.Sprintf(" (and %d more)", more)
	}
	c.Events.Event(st.work, corev1.EventTypeWarning, EventPruneFailed, workv1.Shorten(message, workv1.MaxEventMessageLength, "..."))
}
