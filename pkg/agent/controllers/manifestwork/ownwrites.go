package manifestwork

import "sync"

// ownWrites remembers, per object of a work that a reconcile wrote, the content
// version of the copy the watch cache held when the reconcile decided to
// write. Until the cache shows the write, a reconcile finds that copy again:
// one queued by an event of the change the write has just undone (the
// object's second drifted field, a sibling's deletion), or by another object
// of the work. That copy is behind our own write, not drift, and costs no
// read: the event of the write follows and is compared as usual. Once the
// cache shows the write, the entry goes.
type ownWrites struct {
	mu       sync.Mutex
	replaced map[uint64]uint64 // object ID -> content version
}

// note remembers that a write of the object replaced the cached copy of
// that content version.
func (w *ownWrites) note(id, content uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.replaced == nil {
		w.replaced = map[uint64]uint64{}
	}
	w.replaced[id] = content
}

// behind tells whether a cached copy of that content version is one that
// our last write of the object replaced.
func (w *ownWrites) behind(id, content uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	v, ok := w.replaced[id]
	return ok && v == content
}

// seen drops the entry of an object whose write the cache now shows.
func (w *ownWrites) seen(id uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.replaced, id)
}
