package replicaset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
)

// ConditionOverridesRendered says whether every cluster's work renders
// from the current revision's template and overrides: True (reason
// Rendered), or False (reason RenderFailed) naming the clusters whose work
// is left as it is. Absent when no WorkOverride names the replica set.
const ConditionOverridesRendered = "OverridesRendered"

// Reasons of OverridesRendered; RenderFailed is also the reason of a
// WorkOverride's Rendered condition.
const (
	ReasonRendered     = "Rendered"
	ReasonRenderFailed = fleetv1alpha1.ReasonRenderFailed
)

// maxRenderFailures is how many failed clusters a message names.
const maxRenderFailures = fleetv1alpha1.MaxFailedClusters

// byOverrideTarget indexes WorkOverrides by the replica set they name.
const byOverrideTarget = "replicaset"

// overrideTarget is the index key of the replica set an override names.
func overrideTarget(o *fleetv1alpha1.WorkOverride) string {
	return cache.NewObjectName(o.Namespace, o.Spec.ReplicaSet).String()
}

func indexByOverrideTarget(obj any) ([]string, error) {
	if o, ok := obj.(*fleetv1alpha1.WorkOverride); ok && o.Spec.ReplicaSet != "" {
		return []string{overrideTarget(o)}, nil
	}
	return nil, nil
}

// overridesOf are the overrides that name rs, in the order they apply.
func (c *Controller) overridesOf(rs *workv1alpha1.ManifestWorkReplicaSet) []fleetv1alpha1.WorkOverride {
	if c.overrideIndex == nil {
		return nil
	}
	objs, err := c.overrideIndex.ByIndex(byOverrideTarget, cache.MetaObjectToName(rs).String())
	if err != nil {
		return nil
	}
	out := make([]fleetv1alpha1.WorkOverride, 0, len(objs))
	for _, o := range objs {
		out = append(out, *o.(*fleetv1alpha1.WorkOverride))
	}
	render.Sort(out)
	return out
}

// overrideTargets remember the replica set each override named when last
// seen, so that an override that moves to another replica set (or goes)
// queues the one it left as well as the one it names.
type overrideTargets struct {
	mu   sync.Mutex
	last map[cache.ObjectName]string
}

// keys are the queue keys of the replica sets an event of obj concerns.
func (t *overrideTargets) keys(obj runtime.Object, stillThere func(key string) bool) []string {
	o, ok := obj.(*fleetv1alpha1.WorkOverride)
	if !ok {
		return nil
	}
	ref := cache.MetaObjectToName(o)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last == nil {
		t.last = map[cache.ObjectName]string{}
	}
	keys := []string{overrideTarget(o)}
	if old, ok := t.last[ref]; ok && old != keys[0] {
		keys = append(keys, old)
	}
	if stillThere(ref.String()) {
		t.last[ref] = keys[0]
	} else {
		delete(t.last, ref)
	}
	return keys
}

// replicaSetsOfOverride maps an override's event to the replica sets it
// names and named.
func (c *Controller) replicaSetsOfOverride(obj runtime.Object) []string {
	return c.overrideTargets.keys(obj, func(key string) bool {
		_, ok, err := c.overrideIndex.GetByKey(key)
		return ok && err == nil
	})
}

// replicaSetsWithOverrides are the keys of the replica sets some override
// names: those a cluster's labels or claims matter to.
func (c *Controller) replicaSetsWithOverrides() []string {
	if c.overrideIndex == nil {
		return nil
	}
	return c.overrideIndex.ListIndexFuncValues(byOverrideTarget)
}

// factsHandler queues the replica sets with overrides when a cluster's
// facts change: a ManagedCluster or Namespace added or deleted, or its
// labels or claims changed; nothing for other updates (status heartbeats).
func (c *Controller) factsHandler(queue workqueue.RateLimitingInterface) cache.ResourceEventHandler {
	add := func(any) {
		for _, k := range c.replicaSetsWithOverrides() {
			queue.Add(k)
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    add,
		DeleteFunc: add,
		UpdateFunc: func(old, new any) {
			a, b := factsObject(old), factsObject(new)
			if !equality.Semantic.DeepEqual(a.Labels, b.Labels) || !equality.Semantic.DeepEqual(a.Claims, b.Claims) {
				add(new)
			}
		},
	}
}

// factsObject are the facts a ManagedCluster or Namespace gives.
func factsObject(obj any) render.ClusterFacts {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		return render.FactsOf(o.GetName(), o, nil, nil)
	case *corev1.Namespace:
		return render.FactsOf(o.Name, nil, o, nil)
	}
	return render.ClusterFacts{}
}

// factsOf are the cluster's facts: its ManagedCluster's when the hub has
// it, else its namespace's labels, with the decision groups it is in.
func (c *Controller) factsOf(cluster string, groups []render.GroupRef) render.ClusterFacts {
	var mc *unstructured.Unstructured
	if c.managedClusters != nil {
		if obj, ok, err := c.managedClusters.GetByKey(cluster); err == nil && ok {
			mc, _ = obj.(*unstructured.Unstructured)
		}
	}
	var ns *corev1.Namespace
	if mc == nil && c.namespaces != nil {
		ns, _ = c.namespaces.Get(cluster)
	}
	return render.FactsOf(cluster, mc, ns, groups)
}

// groupRefs are the decision groups each cluster is in, across the plans.
func groupRefs(plans []*plan) map[string][]render.GroupRef {
	out := map[string][]render.GroupRef{}
	for _, p := range plans {
		for _, g := range p.groups {
			for _, cluster := range g.Clusters {
				out[cluster] = append(out[cluster], g.Key.Ref(p.ref.Name))
			}
		}
	}
	return out
}

// renderer renders the works of one revision: its template with its
// overrides, per cluster, each cluster once per pass, and not again on the
// next pass while the cluster's facts are the same (prior). Without
// overrides, every cluster's work is the template.
type renderer struct {
	template  workv1.ManifestWorkSpec
	overrides []fleetv1alpha1.WorkOverride
	facts     func(cluster string) render.ClusterFacts
	prior     map[string]renderedFor // the previous pass's, of the same revision

	mu   sync.Mutex
	done map[string]renderedFor
}

// renderedFor is a cluster's work and the facts it was rendered for.
type renderedFor struct {
	facts render.ClusterFacts
	out   rendered
}

// rendered is a cluster's work, the overrides that made it (the value of
// render.OverridesAnnotation), or why it cannot be rendered.
type rendered struct {
	spec    workv1.ManifestWorkSpec
	applied string
	err     error
}

func newRenderer(template workv1.ManifestWorkSpec, overrides []fleetv1alpha1.WorkOverride, facts func(string) render.ClusterFacts) *renderer {
	return &renderer{template: template, overrides: overrides, facts: facts}
}

// of is the cluster's work. Safe for concurrent use.
func (r *renderer) of(cluster string) rendered {
	if len(r.overrides) == 0 {
		return rendered{spec: r.template}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.done[cluster]; ok {
		return v.out
	}
	v := renderedFor{facts: r.facts(cluster)}
	if p, ok := r.prior[cluster]; ok && equality.Semantic.DeepEqual(p.facts, v.facts) {
		v.out = p.out
	} else {
		spec, applied, err := render.Render(r.template, r.overrides, v.facts)
		v.out = rendered{spec: spec, applied: render.AppliedAnnotation(applied), err: err}
	}
	if r.done == nil {
		r.done = map[string]renderedFor{}
	}
	r.done[cluster] = v
	return v.out
}

// rendered are the works the renderer rendered, for the next pass.
func (r *renderer) rendered() map[string]renderedFor {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// renderMemos keep, per replica set, the works of its current revision
// rendered by the last pass, so that a pass (each report of an agent
// makes one) renders again only the clusters whose facts changed.
type renderMemos struct {
	byRevision[map[string]renderedFor]
}

// memoKey names what a memo was rendered from: the revision's hash and
// the overrides' generations, which the works' annotation names but the
// hash leaves out.
func memoKey(hash string, overrides []fleetv1alpha1.WorkOverride) string {
	applied := make([]render.Applied, len(overrides))
	for i, o := range overrides {
		applied[i] = render.Applied{Name: o.Name, Generation: o.Generation}
	}
	return hash + "|" + render.AppliedAnnotation(applied)
}

// renderFailures are the clusters of owner whose work the renderer cannot
// render, each with why.
func renderFailures(r *renderer, owner map[string]*plan) map[string]error {
	if len(r.overrides) == 0 {
		return nil
	}
	out := map[string]error{}
	for _, cluster := range slices.Sorted(maps.Keys(owner)) {
		if err := r.of(cluster).err; err != nil {
			out[cluster] = err
		}
	}
	return out
}

// failureReason is what failed for a cluster, without the cluster's name.
func failureReason(err error) string {
	var re *render.Error
	if !errors.As(err, &re) {
		return err.Error()
	}
	return strings.TrimPrefix(re.Error(), "cluster "+re.Cluster+": ")
}

// overridesRendered is OverridesRendered from the pass: absent without
// overrides, else whether any cluster failed, naming the first ones.
func overridesRendered(d deployment) condition {
	if !d.overrides {
		return absent(ConditionOverridesRendered)
	}
	if len(d.renderFailed) == 0 {
		return trueIf(ConditionOverridesRendered, true, ReasonRendered, "Every selected cluster's work renders from the current revision")
	}
	clusters := slices.Sorted(maps.Keys(d.renderFailed))
	parts := make([]string, 0, maxRenderFailures+1)
	for _, cluster := range clusters[:min(len(clusters), maxRenderFailures)] {
		parts = append(parts, cluster+": "+shorten(failureReason(d.renderFailed[cluster]), maxDetail))
	}
	if more := len(clusters) - maxRenderFailures; more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	return trueIf(ConditionOverridesRendered, false, ReasonRenderFailed, fmt.Sprintf(
		"%d cluster(s) fail to render; their works are left as they are and count as failed: %s",
		len(clusters), strings.Join(parts, "; ")))
}

// overrideStatus is what the override's status says after the pass: which
// clusters its rules fail for (the current revision's), the first by name.
func overrideStatus(o *fleetv1alpha1.WorkOverride, failed map[string]error, now metav1.Time) fleetv1alpha1.WorkOverrideStatus {
	status := *o.Status.DeepCopy()
	status.FailedClusters, status.FailedClusterCount = nil, 0
	for _, cluster := range slices.Sorted(maps.Keys(failed)) {
		var re *render.Error
		if !errors.As(failed[cluster], &re) || re.Override != o.Name {
			continue
		}
		status.FailedClusterCount++
		if len(status.FailedClusters) < fleetv1alpha1.MaxFailedClusters {
			reason := strings.TrimPrefix(failureReason(re), fmt.Sprintf("override %s, rule %d", o.Name, re.Rule))
			status.FailedClusters = append(status.FailedClusters, fleetv1alpha1.FailedCluster{
				Cluster: cluster, Rule: int32(re.Rule), Reason: shorten(strings.TrimPrefix(reason, ", "), 1024)})
		}
	}
	cond := metav1.Condition{Type: fleetv1alpha1.ConditionRendered, Status: metav1.ConditionTrue, Reason: ReasonRendered,
		Message: "Its rules render for every cluster they select", ObservedGeneration: o.Generation, LastTransitionTime: now}
	if status.FailedClusterCount > 0 {
		cond.Status, cond.Reason = metav1.ConditionFalse, ReasonRenderFailed
		cond.Message = fmt.Sprintf("Its rules fail for %d cluster(s), whose works are left as they are; see failedClusters", status.FailedClusterCount)
	}
	apimeta.SetStatusCondition(&status.Conditions, cond)
	return status
}

// writtenOverrides remember the last status written to each override and
// the resourceVersion it was written over, so that a cache a write behind
// costs no second write.
type writtenOverrides struct {
	sinceWrite[types.UID, fleetv1alpha1.WorkOverrideStatus]
}

// same tells whether status was written last over o as cached.
func (w *writtenOverrides) same(o *fleetv1alpha1.WorkOverride, status fleetv1alpha1.WorkOverrideStatus) bool {
	last, ok := w.get(o.UID, o.ResourceVersion)
	return ok && equality.Semantic.DeepEqual(last, status)
}

func (w *writtenOverrides) remember(o *fleetv1alpha1.WorkOverride, status fleetv1alpha1.WorkOverrideStatus) {
	w.set(o.UID, o.ResourceVersion, status)
}

// writeOverrideStatuses writes each override's status, once per change.
func (c *Controller) writeOverrideStatuses(ctx context.Context, overrides []fleetv1alpha1.WorkOverride, failed map[string]error) error {
	now := metav1.NewTime(c.clock.Now())
	var errs []error
	for i := range overrides {
		o := &overrides[i]
		status := overrideStatus(o, failed, now)
		if equality.Semantic.DeepEqual(o.Status, status) || c.wroteOverrides.same(o, status) {
			continue
		}
		// Every field is written, an empty one as null or 0, so that the
		// merge patch drops the failures an earlier write named.
		patch, err := json.Marshal(map[string]any{"status": map[string]any{
			"conditions": status.Conditions, "failedClusters": status.FailedClusters, "failedClusterCount": status.FailedClusterCount,
		}})
		if err != nil {
			return err
		}
		_, err = c.client.FleetV1alpha1().WorkOverrides(o.Namespace).Patch(ctx, o.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			errs = append(errs, fmt.Errorf("status of WorkOverride %s/%s: %w", o.Namespace, o.Name, err))
		default:
			c.wroteOverrides.remember(o, status)
			klog.FromContext(ctx).V(2).Info("Wrote override status", "workOverride", klog.KObj(o), "failedClusters", status.FailedClusterCount)
		}
	}
	return errors.Join(errs...)
}
