package objectwatch

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// maxOwnWrites bounds the writes remembered: a write whose event never
// comes (its type is not watched) would otherwise stay. A full table
// starts over; a write forgotten that way costs its owner one more look.
const maxOwnWrites = 10_000

// ownWrites remembers the resourceVersion of the agent's latest write of
// each object until the watch brings it, so that the add event of an object
// the agent created is told from one that someone else created, or changed
// before the watch saw it.
type ownWrites struct {
	mu       sync.Mutex
	versions map[ObjectKey]string
}

func newOwnWrites() *ownWrites {
	return &ownWrites{versions: map[ObjectKey]string{}}
}

// note remembers that the agent's write made obj.
func (w *ownWrites) note(k ObjectKey, resourceVersion string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.versions) >= maxOwnWrites {
		clear(w.versions)
	}
	w.versions[k] = resourceVersion
}

// seen tells whether the agent's write made this resourceVersion of the
// object, and forgets the write: the watch has caught up with it.
func (w *ownWrites) seen(k ObjectKey, resourceVersion string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	rv, ok := w.versions[k]
	delete(w.versions, k)
	return ok && rv == resourceVersion
}

// Wrote tells the Tracker that the agent has just written obj, an object
// of resource gvr, and got it back: the add event its create brings is then
// not news to its owners. Writes the watch brings as updates need not be
// told, but may be.
func (t *Tracker) Wrote(gvr schema.GroupVersionResource, obj metav1.Object) {
	if obj == nil || obj.GetResourceVersion() == "" {
		return
	}
	t.writes.note(ObjectKey{Resource: gvr, Namespace: obj.GetNamespace(), Name: obj.GetName()}, obj.GetResourceVersion())
}
