package objectwatch

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
)

const (
	// deletedTTL is how long a deletion seen by an informer is remembered.
	// The agent asks about a deleted object when it confirms the object is
	// gone, which, when many works are deleted together, is as long after
	// the delete as the deletions of all of them take at the client's QPS
	// (50,000 objects at QPS 50: 17 minutes). UIDs are never reused, so an
	// answer is never wrong, only forgotten (and then read from the API).
	deletedTTL = time.Hour
	// maxDeleted bounds how many deletions are remembered, at about 150
	// bytes each: the oldest are forgotten first.
	maxDeleted = 100_000
)

// deletedUIDs remembers the UIDs of objects an informer saw deleted, so that
// "is it gone?" needs no request: an object absent from the cache might just
// not be seen yet, but one whose deletion was seen is gone for sure.
type deletedUIDs struct {
	mu    sync.Mutex
	seen  map[types.UID]time.Time
	names map[string]time.Time // namespace/name of the same deletions
	// order holds the deletions in the order they were seen: the oldest go
	// first, when too old or too many.
	order []deletion
	now   func() time.Time
}

// deletion is one deletion seen, as kept in deletedUIDs.order.
type deletion struct {
	uid  types.UID
	name string // namespace/name
	at   time.Time
}

func newDeletedUIDs() *deletedUIDs {
	return &deletedUIDs{seen: map[types.UID]time.Time{}, names: map[string]time.Time{}, now: time.Now}
}

// add records a deletion, and forgets those older than deletedTTL and the
// oldest beyond maxDeleted.
func (d *deletedUIDs) add(uid types.UID, namespace, name string) {
	if uid == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	key := cache.NewObjectName(namespace, name).String()
	d.seen[uid] = now
	d.names[key] = now
	d.order = append(d.order, deletion{uid: uid, name: key, at: now})
	d.forget(now)
}

// forget drops the oldest deletions while they are too old or too many.
// A name deleted again since keeps its newer time.
func (d *deletedUIDs) forget(now time.Time) {
	n := 0
	for n < len(d.order) && (len(d.order)-n > maxDeleted || now.Sub(d.order[n].at) > deletedTTL) {
		old := d.order[n]
		if d.seen[old.uid].Equal(old.at) {
			delete(d.seen, old.uid)
		}
		if d.names[old.name].Equal(old.at) {
			delete(d.names, old.name)
		}
		n++
	}
	if n == 0 {
		return
	}
	// The dropped part is freed when append next outgrows the array.
	d.order = d.order[n:]
}

// has tells whether the deletion of uid was seen within deletedTTL.
func (d *deletedUIDs) has(uid types.UID) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	at, ok := d.seen[uid]
	return ok && d.now().Sub(at) <= deletedTTL
}

// hasName tells whether an object of that name was seen deleted since.
func (d *deletedUIDs) hasName(namespace, name string, since time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	at, ok := d.names[cache.NewObjectName(namespace, name).String()]
	return ok && !at.Before(since)
}
