package objectwatch

import (
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ObjectKey names an object of a resource type.
type ObjectKey struct {
	Resource  schema.GroupVersionResource
	Namespace string
	Name      string
}

// readers tells which users read objects that carry no owner reference of
// theirs (ReadOnly manifests, CreateOnly ones of objects created by someone
// else), so that a change of such an object reaches them too: owner
// references route every other change.
type readers struct {
	mu     sync.RWMutex
	byUser map[string][]ObjectKey
	byObj  map[ObjectKey][]string
	onRead func(user string)
}

func newReaders(onRead func(string)) *readers {
	if onRead == nil {
		onRead = func(string) {}
	}
	return &readers{byUser: map[string][]ObjectKey{}, byObj: map[ObjectKey][]string{}, onRead: onRead}
}

// set replaces the objects user reads; nil forgets the user. It reports
// whether that changed anything.
func (r *readers) set(user string, objects []ObjectKey) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Equal(r.byUser[user], objects) {
		return false
	}
	for _, k := range r.byUser[user] {
		users := slices.DeleteFunc(r.byObj[k], func(u string) bool { return u == user })
		if len(users) == 0 {
			delete(r.byObj, k)
		} else {
			r.byObj[k] = users
		}
	}
	if len(objects) == 0 {
		delete(r.byUser, user)
		return true
	}
	r.byUser[user] = slices.Clone(objects)
	for _, k := range objects {
		r.byObj[k] = append(r.byObj[k], user)
	}
	return true
}

// read tells whether some user reads the object.
func (r *readers) read(k ObjectKey) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.byObj[k]
	return ok
}

// changed calls onRead for every user of the object. It runs on an
// informer's event goroutine, like OnChange.
func (r *readers) changed(gvr schema.GroupVersionResource, namespace, name string) {
	r.mu.RLock()
	users := r.byObj[ObjectKey{Resource: gvr, Namespace: namespace, Name: name}]
	r.mu.RUnlock()
	for _, u := range users {
		r.onRead(u)
	}
}

// SetReads records the objects a user reads without owning them; a change
// of one calls Deps.OnRead with the user. Nil forgets the user.
func (t *Tracker) SetReads(user string, objects []ObjectKey) {
	t.readers.set(user, objects)
}
