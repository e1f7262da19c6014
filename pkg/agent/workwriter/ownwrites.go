package workwriter

import (
	"slices"
	"sync"
)

// OwnWrites remembers, per key, the versions of the cached copies that our
// own writes replaced. Until the cache shows a write, a controller finds
// the copy it replaced again: acting on it would repeat the write, or send
// one that conflicts, while the event of the write brings the current copy
// a moment later. It is safe for concurrent use; the zero value is ready.
//
// K names what was written: a work, an AppliedManifestWork, an object. V
// is a version of its cached copy: a resourceVersion, a content hash.
type OwnWrites[K, V comparable] struct {
	mu       sync.Mutex
	replaced map[K][]V
}

// Note remembers that a write of key replaced its copy at version v. The
// writes made before the cache catches up each add theirs: the cache may
// show any of those copies.
func (o *OwnWrites[K, V]) Note(key K, v V) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.replaced == nil {
		o.replaced = map[K][]V{}
	}
	if !slices.Contains(o.replaced[key], v) {
		o.replaced[key] = append(o.replaced[key], v)
	}
}

// NoteLast remembers that a write of key replaced its copy at version v,
// instead of what earlier writes replaced. It is for versions that can
// come back, such as a hash of the content: a copy that an earlier write
// replaced, seen again, is a new change.
func (o *OwnWrites[K, V]) NoteLast(key K, v V) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.replaced == nil {
		o.replaced = map[K][]V{}
	}
	o.replaced[key] = []V{v}
}

// Replaced tells whether our writes of key replaced its copy at version v.
func (o *OwnWrites[K, V]) Replaced(key K, v V) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Contains(o.replaced[key], v)
}

// Outdated tells, as Replaced, whether our writes of key replaced its copy
// at version v. A copy they did not replace is at least as new as all of
// them, for versions that only grow (an informer never goes back): what
// was remembered of key is dropped.
func (o *OwnWrites[K, V]) Outdated(key K, v V) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	versions, ok := o.replaced[key]
	if !ok {
		return false
	}
	if slices.Contains(versions, v) {
		return true
	}
	delete(o.replaced, key)
	return false
}

// Forget drops what is remembered of key: it is gone, or the cache shows
// our write.
func (o *OwnWrites[K, V]) Forget(key K) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.replaced, key)
}
