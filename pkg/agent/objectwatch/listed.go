package objectwatch

import (
	"slices"
	"sync"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// listedOwners are the owners of the objects an informer's initial list
// brought. The agent may have written such an object before the list was
// served, and another writer changed it meanwhile (a controller setting its
// status at once, a list delayed by the API server's Retry-After): the list
// holds the change, and no event will bring it. So once the handler has
// been given the whole list, each owner is told once, and judges its
// objects again from the synced cache.
type listedOwners struct {
	tell func(appliedManifestWorkName string)
	// told is set once the owners were told: the cache answers only then,
	// so that a caller that waits for it (the agent's start) finds the owners
	// told already.
	told atomic.Bool

	mu     sync.Mutex
	owners map[string]struct{}
}

func newListedOwners(tell func(string)) *listedOwners {
	return &listedOwners{tell: tell, owners: map[string]struct{}{}}
}

// add notes the owners of an object of the initial list.
func (l *listedOwners) add(owners []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, o := range owners {
		l.owners[o] = struct{}{}
	}
}

// flush tells every owner noted, once each, in order, and forgets them.
func (l *listedOwners) flush() {
	l.mu.Lock()
	owners := make([]string, 0, len(l.owners))
	for o := range l.owners {
		owners = append(owners, o)
	}
	l.owners = nil
	l.mu.Unlock()
	slices.Sort(owners)
	if l.tell != nil {
		for _, o := range owners {
			l.tell(o)
		}
	}
	l.told.Store(true)
}

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
