package replicaset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// labelledWorks are the works that carry the replica set's label, whatever
// their names.
func (c *Controller) labelledWorks(rs *workv1alpha1.ManifestWorkReplicaSet) []*workv1.ManifestWork {
	objs, err := c.works.ByIndex(byReplicaSet, render.ReplicaSetKey(rs))
	if err != nil {
		return nil
	}
	works := make([]*workv1.ManifestWork, 0, len(objs))
	for _, o := range objs {
		works = append(works, c.wroteWorks.current(o.(*workv1.ManifestWork)))
	}
	return works
}

// writtenWorks remember the works the controller updated until the cache
// shows them: a pass that runs before the informer has seen an update (the
// next report of a rollout often comes first) reads the work as written,
// so that it neither writes it again nor gives its cluster's slot to
// another.
type writtenWorks struct {
	sinceWrite[cache.ObjectName, *workv1.ManifestWork]
}

// remember records that from was updated into to.
func (w *writtenWorks) remember(from, to *workv1.ManifestWork) {
	w.set(cache.MetaObjectToName(to), from.ResourceVersion, to)
}

// current is the work as written when cached is still the work the update
// was made from; otherwise cached, and the update is forgotten: the cache
// holds it, or something newer.
func (w *writtenWorks) current(cached *workv1.ManifestWork) *workv1.ManifestWork {
	key := cache.MetaObjectToName(cached)
	if written, ok := w.get(key, cached.ResourceVersion); ok {
		if written.UID == cached.UID {
			return written
		}
		w.drop(key)
	}
	return cached
}

// forget drops what is remembered of a work that goes.
func (w *writtenWorks) forget(work *workv1.ManifestWork) {
	w.drop(cache.MetaObjectToName(work))
}

// sinceWrite remembers, per key, what the controller last wrote and the
// resourceVersion of the object it wrote over, for as long as the cache
// still shows that object: once the cache moves on, it is forgotten.
type sinceWrite[K comparable, V any] struct {
	mu sync.Mutex
	by map[K]sinceWriteEntry[V]
}

type sinceWriteEntry[V any] struct {
	from  string
	value V
}

func (s *sinceWrite[K, V]) set(key K, from string, value V) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[K]sinceWriteEntry[V]{}
	}
	s.by[key] = sinceWriteEntry[V]{from: from, value: value}
}

// get is what was written for key when the cache still shows the object
// of resourceVersion cached it was written over; otherwise it forgets it.
func (s *sinceWrite[K, V]) get(key K, cached string) (V, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.by[key]
	if ok && e.from == cached {
		return e.value, true
	}
	delete(s.by, key)
	var zero V
	return zero, false
}

func (s *sinceWrite[K, V]) drop(key K) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.by, key)
}

// forgetDeleted is forget for an informer's delete event, whose object
// may be a tombstone.
func (w *writtenWorks) forgetDeleted(obj any) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	if work, ok := obj.(*workv1.ManifestWork); ok {
		w.forget(work)
	}
}

// worksByCluster is the replica set's work on each cluster and the extra
// works, when a cluster has more than one (as after a hand-over from a
// controller that names works with a suffix): a work not being deleted is
// kept before one that is, then the work named after the replica set, then
// the oldest.
func (c *Controller) worksByCluster(rs *workv1alpha1.ManifestWorkReplicaSet) (map[string]*workv1.ManifestWork, []*workv1.ManifestWork) {
	return WorksByCluster(rs, c.labelledWorks(rs))
}

// WorksByCluster picks the replica set's work on each cluster from its
// labelled works: one not being deleted first, then the one named after the
// replica set, then the oldest; the others not being deleted are extras.
// The controller keeps what it picks; the CLI shows it. works is sorted.
func WorksByCluster(rs *workv1alpha1.ManifestWorkReplicaSet, works []*workv1.ManifestWork) (map[string]*workv1.ManifestWork, []*workv1.ManifestWork) {
	slices.SortFunc(works, func(a, b *workv1.ManifestWork) int {
		if (a.DeletionTimestamp == nil) != (b.DeletionTimestamp == nil) {
			if a.DeletionTimestamp == nil {
				return -1
			}
			return 1
		}
		if (a.Name == rs.Name) != (b.Name == rs.Name) {
			if a.Name == rs.Name {
				return -1
			}
			return 1
		}
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	byCluster := map[string]*workv1.ManifestWork{}
	var extras []*workv1.ManifestWork
	for _, w := range works {
		if _, ok := byCluster[w.Namespace]; ok {
			if w.DeletionTimestamp == nil {
				extras = append(extras, w)
			}
			continue
		}
		byCluster[w.Namespace] = w
	}
	return byCluster, extras
}

// writeWorkers bounds the work writes of one pass that are in flight at
// once: a template change on a large fleet is written in parallel rather
// than one cluster after the other, within the client's rate limit.
const writeWorkers = 16

// applyWorks applies the template to the works of the given clusters, in
// parallel, and records in works what each became. Errors are joined in
// the clusters' order.
func (c *Controller) applyWorks(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, to target,
	clusters []string, works map[string]*workv1.ManifestWork) error {
	results := make([]*workv1.ManifestWork, len(clusters))
	errs := make([]error, len(clusters))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(writeWorkers, len(clusters)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = c.applyWork(ctx, rs, to, clusters[i], works[clusters[i]])
			}
		}()
	}
	for i := range clusters {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, cluster := range clusters {
		if errs[i] == nil && results[i] != nil {
			works[cluster] = results[i]
		}
	}
	return errors.Join(errs...)
}

// target is what a work is written for: its placement, the hash of the
// revision it is rendered from ("": none), and that revision's renderer.
type target struct {
	placement, hash string
	render          *renderer
}

// applyWork gives the cluster's work the target's template and the replica
// set's labels: it updates the work the replica set has there (whatever its
// name), or creates one named after the replica set. A work being deleted is
// left to go; its deletion queues the replica set again.
//
// The work is the cluster's, rendered from the target's revision: one that
// cannot be rendered is left as it is (and not created). The revision hash
// label and the overrides annotation are written with the rest, but a work
// that has its rendered spec and labels is up to date, whatever revision's
// hash it carries (one written before revisions were recorded, or from an
// earlier revision that renders the same for it): it gets the label when
// it is next written.
func (c *Controller) applyWork(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, to target, cluster string,
	existing *workv1.ManifestWork) (*workv1.ManifestWork, error) {
	r := to.render.of(cluster)
	if r.err != nil {
		return existing, nil
	}
	placement, spec := to.placement, r.spec
	want := render.WorkLabels(rs, placement)
	upToDate := func(w *workv1.ManifestWork) bool {
		return sameSpec(w.Spec, spec) && hasLabels(w.Labels, want)
	}
	written := maps.Clone(want) // the labels a write sets
	if to.hash != "" {
		written[revision.HashLabel] = to.hash
	}
	works := c.client.WorkV1().ManifestWorks(cluster)
	if existing == nil {
		w := &workv1.ManifestWork{
			ObjectMeta: metav1.ObjectMeta{Namespace: cluster, Name: rs.Name, Labels: written},
			Spec:       *spec.DeepCopy(),
		}
		if r.applied != "" {
			w.Annotations = map[string]string{render.OverridesAnnotation: r.applied}
		}
		created, err := works.Create(ctx, w, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return nil, fmt.Errorf("create work %s/%s: a work of that name without the label %s=%s is there; it is left alone",
				cluster, rs.Name, workv1alpha1.ReplicaSetLabel, render.ReplicaSetKey(rs))
		}
		if err != nil {
			return nil, fmt.Errorf("create work %s/%s: %w", cluster, rs.Name, err)
		}
		klog.FromContext(ctx).V(2).Info("Created work", "manifestWork", klog.KObj(created), "placement", placement)
		return created, nil
	}
	if existing.DeletionTimestamp != nil {
		return existing, nil
	}
	if upToDate(existing) {
		return existing, nil
	}
	annotations := map[string]*string{}
	if to.hash != "" && existing.Labels[revision.HashLabel] != to.hash {
		at := c.clock.Now().UTC().Format(time.RFC3339)
		annotations[RevisionWrittenAtAnnotation] = &at
	}
	if !sameSpec(existing.Spec, spec) {
		annotations[render.OverridesAnnotation] = nil
		if r.applied != "" {
			annotations[render.OverridesAnnotation] = &r.applied
		}
	}
	patch, err := workPatch(existing, spec, written, annotations)
	if err != nil {
		return nil, fmt.Errorf("update work %s/%s: %w", cluster, existing.Name, err)
	}
	updated, err := works.Patch(ctx, existing.Name, types.JSONPatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return nil, fmt.Errorf("update work %s/%s: %w", cluster, existing.Name, err)
	}
	c.wroteWorks.remember(existing, updated)
	klog.FromContext(ctx).V(2).Info("Updated work", "manifestWork", klog.KObj(updated), "placement", placement)
	return updated, nil
}

// workPatch is the JSON patch (RFC 6902) that gives existing the spec and
// the labels written, as an update of the whole work would, and carries
// nothing else: the spec whole, when it differs (so that a manifest or a
// field the template no longer has goes), and the labels whose values
// differ, the others kept. It first tests the work's UID, so that it never
// lands on a work that replaced existing under the same name; unlike an
// update it does not fail when only the work's status moved on since the
// cache saw it. The annotations given are set the same way, or removed
// (nil) when the work has them.
func workPatch(existing *workv1.ManifestWork, spec workv1.ManifestWorkSpec, written map[string]string, annotations map[string]*string) ([]byte, error) {
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value,omitempty"` // a nil interface only: remove has none
	}
	var ops []op
	if existing.UID != "" {
		ops = append(ops, op{Op: "test", Path: "/metadata/uid", Value: existing.UID})
	}
	if !sameSpec(existing.Spec, spec) {
		ops = append(ops, op{Op: "add", Path: "/spec", Value: spec}) // add replaces a member that is there
	}
	set := func(path string, have, want map[string]string) {
		if len(want) == 0 {
			return
		}
		if len(have) == 0 {
			ops = append(ops, op{Op: "add", Path: path, Value: want})
			return
		}
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if v, ok := have[k]; !ok || v != want[k] {
				ops = append(ops, op{Op: "add", Path: path + "/" + jsonPointerEscape(k), Value: want[k]})
			}
		}
	}
	set("/metadata/labels", existing.Labels, written)
	setAnnotations := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		if v := annotations[k]; v != nil {
			setAnnotations[k] = *v
		} else if _, ok := existing.Annotations[k]; ok {
			ops = append(ops, op{Op: "remove", Path: "/metadata/annotations/" + jsonPointerEscape(k)})
		}
	}
	set("/metadata/annotations", existing.Annotations, setAnnotations)
	return json.Marshal(ops)
}

// jsonPointerEscape escapes a key for a JSON pointer (RFC 6901).
func jsonPointerEscape(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

func hasLabels(have, want map[string]string) bool {
	for k, v := range want {
		if got, ok := have[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// deleteWork deletes this very work, unless it is being deleted already.
func (c *Controller) deleteWork(ctx context.Context, w *workv1.ManifestWork, why string) error {
	if w.DeletionTimestamp != nil {
		return nil
	}
	c.wroteWorks.forget(w)
	uid := w.UID
	err := c.client.WorkV1().ManifestWorks(w.Namespace).Delete(ctx, w.Name, metav1.DeleteOptions{
		Preconditions: &metav1.Preconditions{UID: &uid},
	})
	switch {
	case apierrors.IsNotFound(err), apierrors.IsConflict(err):
		return nil // gone already, or replaced by a work whose events will queue the replica set
	case err != nil:
		return fmt.Errorf("delete work %s/%s: %w", w.Namespace, w.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Deleted work", "manifestWork", klog.KObj(w), "reason", why)
	return nil
}

// finalize deletes the replica set's works, then drops its finalizer: at
// once with the Background policy, once the works are gone with Foreground.
func (c *Controller) finalize(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet) error {
	if !slices.Contains(rs.Finalizers, workv1alpha1.ReplicaSetFinalizer) {
		return nil
	}
	works := c.labelledWorks(rs)
	var errs []error
	for _, w := range works {
		if err := c.deleteWork(ctx, w, "the replica set is being deleted"); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if rs.Spec.CascadeDeletionPolicy == workv1alpha1.Foreground && len(works) > 0 {
		klog.FromContext(ctx).V(4).Info("Waiting for the works to be gone", "works", len(works))
		return nil // their deletions queue the replica set again
	}
	rs.Finalizers = slices.DeleteFunc(rs.Finalizers, func(f string) bool { return f == workv1alpha1.ReplicaSetFinalizer })
	_, err := c.client.WorkV1alpha1().ManifestWorkReplicaSets(rs.Namespace).Update(ctx, rs, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// addFinalizer adds the finalizer and returns the stored replica set.
func (c *Controller) addFinalizer(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet) (*workv1alpha1.ManifestWorkReplicaSet, error) {
	rs.Finalizers = append(rs.Finalizers, workv1alpha1.ReplicaSetFinalizer)
	return c.client.WorkV1alpha1().ManifestWorkReplicaSets(rs.Namespace).Update(ctx, rs, metav1.UpdateOptions{})
}

// sameSpec compares two work specs, their manifests as JSON values (so that
// key order and spacing do not count).
func sameSpec(a, b workv1.ManifestWorkSpec) bool {
	if len(a.Workload.Manifests) != len(b.Workload.Manifests) {
		return false
	}
	for i := range a.Workload.Manifests {
		if !sameJSON(manifestJSON(a.Workload.Manifests[i]), manifestJSON(b.Workload.Manifests[i])) {
			return false
		}
	}
	a.Workload.Manifests, b.Workload.Manifests = nil, nil
	return equality.Semantic.DeepEqual(a, b)
}

func manifestJSON(m workv1.Manifest) []byte {
	if m.Raw == nil && m.Object != nil {
		raw, err := json.Marshal(m.Object)
		if err == nil {
			return raw
		}
	}
	return m.Raw
}

func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return equality.Semantic.DeepEqual(x, y)
}
