package objectwatch

import (
	"cmp"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/metrics"
)

// Whole reads serve the feedback rules of feedbackScrapeType Watch, which
// may read any field of their object. A user names the objects it reads
// whole (SetWholeReads). Their (resource, namespace) pairs are watched, at
// most Deps.MaxWholeWatches of them: a pair admitted is served by the same
// informer as every other use of it, which then lists and watches whole
// objects. The cache still keeps every object trimmed; beside it, the
// objects read whole are kept whole, each in one copy. An object of a pair
// beyond the limit is not watched for its readers: they read the API.

// wholeReads are the objects read whole, the pairs admitted, and the whole
// copies of the objects read.
type wholeReads struct {
	users *readers // by object; told of every change, creation included
	max   int      // pairs admitted at most

	mu       sync.Mutex
	admitted map[Use]bool
	copies   map[ObjectKey]*unstructured.Unstructured
}

func newWholeReads(max int, onChange func(user string)) *wholeReads {
	return &wholeReads{users: newReaders(onChange), max: max,
		admitted: map[Use]bool{}, copies: map[ObjectKey]*unstructured.Unstructured{}}
}

// pairOf is the pair whose informer watches the object.
func pairOf(k ObjectKey) Use { return Use{Resource: k.Resource, Namespace: k.Namespace} }

func (w *wholeReads) isAdmitted(p Use) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.admitted[p]
}

// serves tells whether the informer of scope must list whole objects: an
// admitted pair is among those it watches.
func (w *wholeReads) serves(scope Use) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for p := range w.admitted {
		if covers(scope, p) {
			return true
		}
	}
	return false
}

// wantedLocked tells whether a copy of the object is to be kept.
func (w *wholeReads) wantedLocked(k ObjectKey) bool {
	return w.admitted[pairOf(k)] && w.users.read(k)
}

// stash keeps a copy of obj, as the API server sent it, when it is read
// whole. The informers call it before they trim an object; an object they
// trimmed already (a watch-list's initial objects are given twice) is
// left alone.
func (w *wholeReads) stash(gvr schema.GroupVersionResource, obj *unstructured.Unstructured) {
	if _, _, trimmed := cachedContentVersion(obj); trimmed {
		return
	}
	k := ObjectKey{Resource: gvr, Namespace: obj.GetNamespace(), Name: obj.GetName()}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.wantedLocked(k) {
		w.copies[k] = obj.DeepCopy()
	}
}

// keep is stash for an object read from the API; it is kept only if it is
// the version the cache holds (rv).
func (w *wholeReads) keep(k ObjectKey, obj *unstructured.Unstructured, rv string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if obj.GetResourceVersion() == rv && w.wantedLocked(k) {
		w.copies[k] = obj.DeepCopy()
	}
}

// copyAt is a copy of the object's whole copy, if that is of version rv.
func (w *wholeReads) copyAt(k ObjectKey, rv string) *unstructured.Unstructured {
	w.mu.Lock()
	defer w.mu.Unlock()
	obj := w.copies[k]
	if obj == nil || obj.GetResourceVersion() != rv {
		return nil
	}
	return obj.DeepCopy()
}

// changed tells the users that read the object whole, if its pair is
// admitted, that it was created, changed or deleted.
func (w *wholeReads) changed(gvr schema.GroupVersionResource, namespace, name string) {
	if w.isAdmitted(Use{Resource: gvr, Namespace: namespace}) {
		w.users.changed(gvr, namespace, name)
	}
}

// prune drops the copies of objects no longer read whole.
func (w *wholeReads) prune() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k := range w.copies {
		if !w.wantedLocked(k) {
			delete(w.copies, k)
		}
	}
}

// setAdmitted admits or releases a pair; it returns how many are admitted.
func (w *wholeReads) setAdmitted(p Use, admitted bool) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if admitted {
		w.admitted[p] = true
	} else {
		delete(w.admitted, p)
	}
	return len(w.admitted)
}

// admittedPairs are the pairs admitted, in a stable order.
func (w *wholeReads) admittedPairs() []Use {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Use, 0, len(w.admitted))
	for p := range w.admitted {
		out = append(out, p)
	}
	slices.SortFunc(out, compareUses)
	return out
}

// reset releases every pair and drops every copy.
func (w *wholeReads) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	clear(w.admitted)
	clear(w.copies)
}

// SetWholeReads declares the objects user reads whole, replacing what it
// declared before; nil releases the user. A change of one of them, its
// creation included, calls Deps.OnWholeChange with the user. The pairs of
// these objects are counted per user like the uses of SetUses, but apart
// from them: a user may declare both. It does not wait for informers.
func (t *Tracker) SetWholeReads(user string, objects []ObjectKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.whole.users.set(user, objects) {
		return
	}
	next := useSet{}
	for _, k := range objects {
		next[pairOf(k)] = struct{}{}
	}
	// Only the pairs admitted need an informer for this user.
	changed := map[schema.GroupVersionResource]bool{}
	t.declareLocked(t.wholeUses, user, next, t.whole.isAdmitted, changed)
	for _, gvr := range t.admitLocked() {
		changed[gvr] = true
	}
	for gvr := range changed {
		t.replanLocked(gvr)
	}
	t.whole.prune()
}

// admitLocked releases the admitted pairs nobody reads whole any more, and
// admits those waiting while the limit allows, once Run has begun; a pair
// admitted stays so while it is read. It returns the resource types whose
// informers may have to change.
func (t *Tracker) admitLocked() []schema.GroupVersionResource {
	if t.ctx == nil || t.stopped {
		return nil
	}
	readers := map[Use]int{}
	for _, pairs := range t.wholeUses {
		for p := range pairs {
			readers[p]++
		}
	}
	logger := klog.FromContext(t.ctx)
	var changed []schema.GroupVersionResource
	pairs := t.whole.admittedPairs()
	admitted := len(pairs)
	for _, p := range pairs {
		if readers[p] == 0 {
			admitted = t.whole.setAdmitted(p, false)
			changed = append(changed, p.Resource)
			logger.Info("Stopped a feedback watch", "resource", p.Resource.String(), "namespace", p.Namespace, "watches", admitted)
		}
	}
	waiting := make([]Use, 0, len(readers))
	for p := range readers {
		waiting = append(waiting, p)
	}
	slices.SortFunc(waiting, compareUses)
	for _, p := range waiting {
		if admitted >= t.whole.max || t.whole.isAdmitted(p) {
			continue
		}
		admitted = t.whole.setAdmitted(p, true)
		t.countLocked(p, readers[p])
		changed = append(changed, p.Resource)
		logger.Info("Started a feedback watch", "resource", p.Resource.String(), "namespace", p.Namespace, "watches", admitted)
	}
	metrics.FeedbackWatches.Set(float64(admitted))
	return changed
}

// GetWhole returns a copy of the whole object read whole. watched is
// false when its pair is not admitted (the limit, or a user that has not
// declared it); synced is false when it is admitted but the cache cannot
// answer yet: the caller then reads the API, and may hand what it read to
// KeepWhole. When synced is true, a nil object means there is none.
func (t *Tracker) GetWhole(k ObjectKey) (obj *unstructured.Unstructured, synced, watched bool) {
	if !t.whole.isAdmitted(pairOf(k)) {
		return nil, false, false
	}
	rv, exists, ok := t.wholeVersion(k)
	if !ok {
		return nil, false, true
	}
	if !exists {
		return nil, true, true
	}
	obj = t.whole.copyAt(k, rv)
	return obj, obj != nil, true
}

// KeepWhole keeps obj, the object read whole as just read from the API, for
// GetWhole, if it is the version the cache holds: an object that was cached
// before anybody read it whole is kept whole from then on.
func (t *Tracker) KeepWhole(k ObjectKey, obj *unstructured.Unstructured) {
	if obj == nil {
		return
	}
	if rv, exists, ok := t.wholeVersion(k); ok && exists {
		t.whole.keep(k, obj, rv)
	}
}

// WholeLimit is Deps.MaxWholeWatches.
func (t *Tracker) WholeLimit() int { return t.whole.max }

// wholeVersion is the resourceVersion of the object in a synced informer
// that lists whole objects; ok is false when none serves it.
func (t *Tracker) wholeVersion(k ObjectKey) (rv string, exists, ok bool) {
	for _, inf := range t.covering(pairOf(k)) {
		if !inf.dynamic || !inf.synced() {
			continue
		}
		version, synced, err := cached(inf, k.Namespace, k.Name, func(item any) (*string, bool) {
			m, err := meta.Accessor(item)
			if err != nil {
				return nil, false
			}
			v := m.GetResourceVersion()
			return &v, true
		})
		if err != nil || !synced {
			return "", false, false
		}
		if version == nil {
			return "", false, true
		}
		return *version, true, true
	}
	return "", false, false
}

// compareUses orders uses by resource type, then namespace.
func compareUses(a, b Use) int {
	return cmp.Or(compareGVR(a.Resource, b.Resource), cmp.Compare(a.Namespace, b.Namespace))
}
