package manifestwork

import (
	"context"
	"encoding/json"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/apply"
	"github.com/manifestwork/work/pkg/agent/apply/diff"
	"github.com/manifestwork/work/pkg/agent/apply/records"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
	"github.com/manifestwork/work/pkg/metrics"
)

// manifestItem carries one manifest through the steps of applyManifests:
// built once, it holds the manifest's result and, when it could be decoded
// and mapped, what the work says of it.
type manifestItem struct {
	result *manifestResult // in the pass's results, by ordinal
	p      *prepared       // nil when the manifest could not be prepared
}

// prepared is a manifest decoded and mapped, ready to apply, with its
// config and strategy worked out once.
type prepared struct {
	obj  *unstructured.Unstructured
	gvr  schema.GroupVersionResource
	kind schema.GroupKind
	// ref names the object as the managed cluster does (manifest.Mapping):
	// every identity of it below comes from it.
	ref workv1.ResourceIdentifier
	use objectwatch.Use // the resource type, and namespace, watched for it
	id  uint64          // the object among the work's records
	// config is the manifest's config from the work's manifestConfigs, nil
	// when none matches; strategy is its update strategy, defaulted.
	config   *workv1.ManifestConfigOption
	strategy workv1.UpdateStrategyType
	// orphaned: the work's deleteOption leaves the object behind.
	orphaned bool
	// compared: the work's status holds the outcome of an earlier
	// comparison of the object with the manifest (its InSync condition).
	compared bool
	// appliedBefore: the work's status says the manifest was applied for
	// the work's current generation.
	appliedBefore bool
}

// applyManifests applies every manifest it can, in dependency order, and
// records each outcome. A manifest that cannot be decoded, mapped or applied
// fails alone: the others are still applied.
func (c *Controller) applyManifests(ctx context.Context, st *state) error {
	manifests := st.work.Spec.Workload.Manifests
	st.results = make([]manifestResult, len(manifests))
	items := make([]manifestItem, len(manifests))
	var uses []objectwatch.Use
	var ids []uint64
	kinds := make([]schema.GroupKind, len(manifests))
	for i, m := range manifests {
		it := &items[i]
		it.result = &st.results[i]
		it.result.meta.Ordinal = int32(i)
		it.p, it.result.err = c.prepare(st.work, m, &it.result.meta)
		it.result.previous = carryOver(st.work.Status.ResourceStatus.Manifests, it.result.meta)
		if it.p == nil {
			continue
		}
		kinds[i] = it.p.kind
		it.result.use = &it.p.use
		uses = append(uses, it.p.use)
		ids = append(ids, it.p.id)
	}
	key := cache.MetaObjectToName(st.work).String()
	c.Objects.SetUses(key, uses)
	c.Objects.SetReads(key, unowned(items))
	if records.Persisted(st.work) {
		c.Records.Load(key, st.applied.Annotations[records.Annotation])
	}

	owner := appliedwork.OwnerReference(st.applied)
	recorded := c.Records.Retain(key, ids)
	st.mem.inSync.retain(ids)
	for _, i := range manifest.Order(kinds) {
		it := items[i]
		if it.p == nil {
			continue
		}
		previous := it.result.previous.Conditions
		if completed(previous) {
			continue
		}
		it.p.compared = comparedBefore(previous)
		it.p.appliedBefore = appliedForGeneration(st.work, previous)
		out, err := c.applyOne(ctx, st.work, key, st.mem, it.p, owner)
		it.result.exists, it.result.err, it.result.differences, it.result.unread = out.exists, err, out.differences, out.unread
		it.result.contest = out.contest
		it.result.missing = err == nil && !out.exists && out.unread == nil
		recorded = recorded || out.recorded
	}
	if recorded && c.OnRecorded != nil {
		c.OnRecorded(key)
	}
	return nil
}

// comparedBefore tells whether the manifest's conditions in the work's
// status hold the outcome of a comparison of its object with it, which
// still holds for an object unchanged since. One made while its type was not
// watched does not: the object may have changed unseen.
func comparedBefore(previous []metav1.Condition) bool {
	inSync := apimeta.FindStatusCondition(previous, ConditionInSync)
	return inSync != nil && inSync.Reason != InSyncReasonNotWatched
}

// appliedForGeneration tells whether the work's status says that the
// manifest was applied for the work's current generation: the status was
// written for it (the work's Applied observed it) and the manifest's
// Applied is True among its conditions there, previous.
func appliedForGeneration(work *workv1.ManifestWork, previous []metav1.Condition) bool {
	cond := apimeta.FindStatusCondition(work.Status.Conditions, workv1.WorkApplied)
	if cond == nil || cond.ObservedGeneration != work.Generation {
		return false
	}
	return apimeta.IsStatusConditionTrue(previous, workv1.ManifestApplied)
}

// unowned lists the objects of the manifests that may be without the work's
// owner reference (ReadOnly, CreateOnly of an object someone else created,
// and whatever the work's deleteOption orphans), so that their changes still
// reach the work and its InSync condition.
func unowned(items []manifestItem) []objectwatch.ObjectKey {
	var out []objectwatch.ObjectKey
	for _, it := range items {
		p := it.p
		if p == nil || (!mayLeaveUnowned[p.strategy] && !p.orphaned) {
			continue
		}
		out = append(out, objectwatch.ObjectKey{Resource: p.gvr, Namespace: p.ref.Namespace, Name: p.ref.Name})
	}
	return out
}

// mayLeaveUnowned are the strategies that may leave an object the work owns
// without its owner reference.
var mayLeaveUnowned = map[workv1.UpdateStrategyType]bool{
	workv1.UpdateStrategyTypeReadOnly:   true,
	workv1.UpdateStrategyTypeCreateOnly: true,
}

// identifier names the manifest's object the way deleteOption and
// AppliedManifestWork records do.
func (p *prepared) identifier() workv1.ResourceIdentifier { return p.ref }

// prepare decodes and maps one manifest, filling in what is known of its
// resourceMeta even when it fails, so the user sees which manifest it is. A
// manifest without a name fails once mapped, as OCM's agent's does when it
// asks the API server for the object: its resourceMeta is complete but for
// the name. Once mapped, the object is named as the managed cluster names
// it (manifest.Mapping), in the resourceMeta as everywhere else: a
// cluster-scoped kind without the namespace its manifest may carry, as OCM's
// agent names it; a resourceMeta, record or AppliedManifestWork entry that
// kept it would not name the object applied, and the pruning would take
// that object for one dropped from the work.
func (c *Controller) prepare(work *workv1.ManifestWork, m workv1.Manifest, meta *workv1.ManifestResourceMeta) (*prepared, error) {
	obj, err := manifest.Parse(m)
	if err != nil {
		return nil, err
	}
	gvk := obj.GroupVersionKind()
	meta.Group, meta.Version, meta.Kind = gvk.Group, gvk.Version, gvk.Kind
	meta.Name, meta.Namespace = obj.GetName(), obj.GetNamespace()
	mapping, err := c.Mapper.Map(obj)
	if mapping.Resource.Resource != "" {
		meta.Resource, meta.Namespace = mapping.Resource.Resource, mapping.Namespace
	}
	if mapping.Resource.Resource != "" && mapping.Name == "" {
		// Before the namespace check: OCM's agent's client refuses the
		// request before the API server sees it.
		return nil, manifest.NoNameError(gvk, manifest.StrategyFor(work, mapping.Resource, mapping.Namespace, ""))
	}
	if err != nil {
		return nil, err
	}
	if err := manifest.CheckGenerateName(obj); err != nil {
		return nil, err
	}
	p := &prepared{
		obj: obj, gvr: mapping.Resource, kind: gvk.GroupKind(), ref: mapping.Identifier(),
		use:    objectwatch.Use{Resource: mapping.Resource, Namespace: mapping.Namespace},
		id:     records.ObjectID(mapping.Resource, mapping.Namespace, mapping.Name),
		config: manifest.ConfigFor(work.Spec.ManifestConfigs, mapping.Resource, mapping.Namespace, mapping.Name),
	}
	p.strategy = manifest.StrategyOf(p.config)
	p.orphaned = manifest.Orphaned(work.Spec.DeleteOption, p.identifier())
	return p, nil
}

// applyOne applies a manifest and counts the outcome by its update strategy.
func (c *Controller) applyOne(ctx context.Context, work *workv1.ManifestWork, key string, mem *workMemory, p *prepared, owner metav1.OwnerReference) (applied, error) {
	out, err := c.applyWith(ctx, work, key, mem, p, owner)
	result := metrics.ApplyUnchanged
	switch {
	case err != nil:
		result = metrics.ApplyError
	case out.written:
		result = metrics.ApplyWritten
	}
	metrics.ManifestApplies.WithLabelValues(string(p.strategy), result).Inc()
	return out, err
}

// applied is what applying one manifest did.
type applied struct {
	written  bool // the strategy wrote the object
	exists   bool // the object is known to exist now
	recorded bool // the manifest's record changed
	// differences is where the live object differs from the manifest; nil
	// when it was not compared.
	differences *diff.Report
	// contest is set while the agent does not revert the object, which
	// another writer keeps changing back.
	contest *contest
	// unread is why a ReadOnly manifest's object could not be read.
	unread error
}

// applyWith applies a manifest with its strategy, unless its
// record shows the object, as the watch cache has it, exactly as this agent
// last left it for the same desired state: then nobody changed it since, and
// it costs no request. The record stays valid across restarts (see
// package records), and status writes of the object's controllers do not move
// the version it is compared on (objectwatch.ContentVersion). Its last
// comparison with the manifest, in the work's status, then still holds; a
// status without one (written by an earlier version) has the object read
// once. A cached copy that this agent's last write of the object replaced
// costs no request either: the cache is a moment behind (see workMemory.written).
// Nor does an object still at the content version at which the agent last
// found it holding the desired state (workMemory.inSync), whatever the
// work's status says: a work taken over from OCM's agent has none of this
// agent's comparisons in its status until its first status write reaches
// the informer. An object read all the same (its watch not synced yet) is
// not compared with a server-side dry run again (apply.Request.InSyncAt).
func (c *Controller) applyWith(ctx context.Context, work *workv1.ManifestWork, key string, mem *workMemory, p *prepared,
	owner metav1.OwnerReference) (applied, error) {
	strategy, err := apply.For(p.strategy)
	if err != nil {
		return applied{}, err
	}
	spec, err := specOf(p.obj, p.config, owner, work.Spec.Executor)
	if err != nil {
		return applied{}, err
	}
	// Whether the work orphans the object is not part of spec: a change of
	// deleteOption changes the owner references only, which the strategy
	// settles with a patch of its own.
	req := apply.Request{Resource: p.gvr, Desired: p.obj, Owner: owner, Config: p.config, Spec: spec, Orphaned: p.orphaned}
	record, remembered := c.Records.Get(key, p.id)
	cached, synced, err := c.Objects.Get(p.gvr, p.ref.Namespace, p.ref.Name)
	inCache := err == nil && synced && cached != nil
	var content uint64 // of the cached copy
	if inCache {
		content = objectwatch.ContentVersion(cached)
	}
	if !remembered && p.compared && p.appliedBefore {
		// An agent that starts (after a restart, or taking the lease over)
		// knows what was applied from the work's status, and that nobody
		// changed the object since from its last writer: an object someone
		// else wrote since is read, and a difference is drift.
		unchanged := inCache && apply.OwnWriter(p.config, objectwatch.LastWriter(cached))
		var rebuildErr error
		if record, remembered, rebuildErr = c.rebuildRecord(key, p, req, content, unchanged); rebuildErr != nil {
			return applied{}, rebuildErr
		}
	}
	inSyncAt := mem.inSync.at(p.id, spec)
	if inCache {
		if contest := mem.contests.contested(p.id, spec, c.now()); contest != nil {
			// Another writer keeps changing it back: not reverted, nor read,
			// until the backoff ends (contest.go).
			return applied{exists: true, contest: contest}, nil
		}
		if inSyncAt == content && inSyncAt != 0 && apply.OwnersSettled(req, cached.OwnerReferences) {
			// Found holding the desired state at this very version: in
			// sync, even where the work's status holds no comparison.
			mem.written.Forget(p.id)
			return applied{exists: true, differences: &diff.Report{}}, nil
		}
		if remembered && p.compared && record.Spec == spec {
			switch {
			case record.Content == content && apply.OwnersSettled(req, cached.OwnerReferences):
				mem.written.Forget(p.id)
				return applied{exists: true}, nil
			case mem.written.Replaced(p.id, content):
				return applied{exists: true}, nil
			}
		}
	}
	req.KnownAbsent = err == nil && synced && cached == nil
	req.InSyncAt = inSyncAt
	if remembered {
		req.Last = &record.LastApplied
	}
	// The executor is checked before each write, not for an object that is
	// already as the work wants it: nothing is done on its behalf then.
	if err := c.Executors.MayApply(ctx, work.Spec.Executor, p.gvr, p.obj, p.strategy, p.orphaned); err != nil {
		mem.inSync.forget(p.id)
		return applied{recorded: c.forgetContent(key, p.id, record, remembered)}, err
	}
	res, err := strategy.Apply(ctx, c.Dynamic, req)
	if err != nil {
		mem.inSync.forget(p.id)
		return applied{recorded: c.forgetContent(key, p.id, record, remembered), differences: res.Differences}, err
	}
	if res.Object != nil && res.Differences != nil && res.Differences.InSync() {
		mem.inSync.note(p.id, spec, objectwatch.ContentVersion(res.Object))
	} else {
		mem.inSync.forget(p.id)
	}
	out := applied{written: res.Written, exists: res.Object != nil, differences: res.Differences, unread: res.Unread}
	if res.Written && inCache {
		mem.written.NoteLast(p.id, content)
	}
	if res.Written && res.Object != nil {
		c.Objects.Wrote(p.gvr, res.Object)
	}
	if res.Repaired != nil {
		c.driftRepaired(ctx, work, mem, p, res.Repaired)
		out.contest = c.noteRevert(ctx, work, key, mem, p, spec, res.Repaired)
	}
	if res.Object != nil && p.strategy != workv1.UpdateStrategyTypeReadOnly {
		c.Records.NoteApplied(key, workv1.AppliedManifestResourceMeta{
			ResourceIdentifier: p.identifier(), Version: p.gvr.Version, UID: string(res.Object.GetUID()),
		})
	}
	if res.Object != nil {
		last, err := apply.Remember(req)
		if err != nil {
			return applied{}, err
		}
		out.recorded = c.Records.Put(key, p.id, records.Record{LastApplied: last, Content: objectwatch.ContentVersion(res.Object)})
	}
	if res.Written {
		klog.FromContext(ctx).V(2).Info("Applied", "resource", p.gvr.Resource, "object", klog.KObj(p.obj))
	}
	return out, nil
}

// rebuildRecord makes the record of a manifest that the work's status says
// was applied for its current generation: what the current desired state
// gives and, for an object that nobody changed since, its content version
// as it is (0 otherwise: the object is read).
func (c *Controller) rebuildRecord(key string, p *prepared, req apply.Request, content uint64, unchanged bool) (records.Record, bool, error) {
	last, err := apply.Remember(req)
	if err != nil {
		return records.Record{}, false, err
	}
	record := records.Record{LastApplied: last}
	if unchanged {
		record.Content = content
	}
	c.Records.Put(key, p.id, record)
	return record, true, nil
}

// forgetContent keeps what was last applied of a manifest that failed now,
// but not the object's version: it is looked at again on the next try.
func (c *Controller) forgetContent(key string, id uint64, record records.Record, remembered bool) bool {
	if !remembered {
		return false
	}
	record.Content = 0
	return c.Records.Put(key, id, record)
}

// specOf identifies a desired state: the manifest, its config, the owner it
// must carry and the executor it is applied for.
func specOf(obj *unstructured.Unstructured, config *workv1.ManifestConfigOption, owner metav1.OwnerReference,
	executor *workv1.ManifestWorkExecutor) (uint64, error) {
	data, err := json.Marshal([]any{obj.Object, config, owner, executor})
	if err != nil {
		return 0, err
	}
	return apply.HashBytes(data), nil
}

// completed tells whether a manifest's condition rules found it Complete,
// from its conditions in the work's status: such a manifest is never updated
// or recreated again, also after a restart, as the status on the hub
// remembers it.
func completed(previous []metav1.Condition) bool {
	return apimeta.IsStatusConditionTrue(previous, workv1.ManifestComplete)
}
