package manifestwork

import "sync"

// ownWrites remembers, per object that a reconcile wrote, the content
// version of the copy the watch cache held when the reconcile decided to
// write. Until the cache shows the write, a reconcile finds that copy again:
// one queued by an event of the change the write has just undone (the
// object's second drifted field, a sibling's deletion), or by another object
// of the work. That copy is behind our own write, not drift, and costs no
// read: the event of the write follows and is compared as usual. Once the
// cache shows the write, the entry goes.
type ownWrites struct {
	mu       sync.Mutex
	replaced map[string]map[uint64]uint64 // work key -> object ID -> content version
}

// note remembers that a write of the object replaced the cached copy of
// that content version.
func (w *ownWrites) note(work string, id, content uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.replaced == nil {
		w.replaced = map[string]map[uint64]uint64{}
	}
	if w.replaced[work] == nil {
		w.replaced[work] = map[uint64]uint64{}
	}
	w.replaced[work][id] = content
}

// behind tells whether a cached copy of that content version is one that
// our last write of the object replaced.
func (w *ownWrites) behind(work string, id, content uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	v, ok := w.replaced[work][id]
	return ok && v == content
}

// seen drops the entry of an object whose write the cache now shows.
func (w *ownWrites) seen(work string, id uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if objects, ok := w.replaced[work]; ok {
		delete(objects, id)
		if len(objects) == 0 {
			delete(w.replaced, work)
		}
	}
}

// forget drops the entries of a deleted work.
func (w *ownWrites) forget(work string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.replaced, work)
}
