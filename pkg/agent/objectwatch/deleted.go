package objectwatch

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// deletedTTL is how long a deletion seen by an informer is remembered. The
// agent asks about a deleted object within seconds of deleting it, when it
// confirms the object is gone; UIDs are never reused, so an answer is never
// wrong, only forgotten after this long (and then read from the API).
const deletedTTL = 10 * time.Minute

// deletedUIDs remembers the UIDs of objects an informer saw deleted, so that
// "is it gone?" needs no request: an object absent from the cache might just
// not be seen yet, but one whose deletion was seen is gone for sure.
type deletedUIDs struct {
	mu        sync.Mutex
	seen      map[types.UID]time.Time
	names     map[string]time.Time // namespace/name of the same deletions
	lastPrune time.Time
	now       func() time.Time
}

func newDeletedUIDs() *deletedUIDs {
	return &deletedUIDs{seen: map[types.UID]time.Time{}, names: map[string]time.Time{}, now: time.Now}
}

// add records a deletion, dropping those older than deletedTTL at most once
// a minute, so the sets hold only recent deletions.
func (d *deletedUIDs) add(uid types.UID, namespace, name string) {
	if uid == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	d.seen[uid] = now
	d.names[namespace+"/"+name] = now
	if now.Sub(d.lastPrune) < time.Minute {
		return
	}
	d.lastPrune = now
	prune(d.seen, now)
	prune(d.names, now)
}

func prune[K comparable](m map[K]time.Time, now time.Time) {
	for k, at := range m {
		if now.Sub(at) > deletedTTL {
			delete(m, k)
		}
	}
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
	at, ok := d.names[namespace+"/"+name]
	return ok && !at.Before(since)
}
