package manifestwork

import (
	"math"
	"slices"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/workwriter"
)

// memories holds what the controller remembers of each work between its
// reconciles, one entry per work. Forgetting a work drops its entry.
type memories struct {
	mu    sync.Mutex
	works map[cache.ObjectName]*workMemory
}

// of returns the memory of the work, made empty if there is none.
func (m *memories) of(key cache.ObjectName) *workMemory {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.works == nil {
		m.works = map[cache.ObjectName]*workMemory{}
	}
	w, ok := m.works[key]
	if !ok {
		w = &workMemory{}
		m.works[key] = w
	}
	return w
}

// peek returns the memory of the work, nil if there is none; it makes none.
func (m *memories) peek(key cache.ObjectName) *workMemory {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.works[key]
}

// forget drops the memory of a deleted work.
func (m *memories) forget(key cache.ObjectName) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.works, key)
}

// workMemory is what the controller remembers of one work. The reconciles
// of a work come one at a time, but the reconnection and outage callbacks
// reach its retry from other goroutines: mu guards the fields above it.
type workMemory struct {
	// failures counts the reconciles in a row that left manifests failing:
	// the exponent of the work's backoff.
	failures int
	// retry is the retry scheduled for the failing work; nil when none is.
	retry *retry
	// unavailableSince is since when the work's AppliedManifestWork could
	// not be had; zero while it can.
	unavailableSince time.Time
	mu               sync.Mutex

	// written holds, by object ID, the content version of the cached copy
	// that our last write of the object replaced (see applyWith). Until the
	// cache shows the write, a reconcile finds that copy again: one queued
	// by an event of the change the write has just undone (the object's
	// second drifted field, a sibling's deletion), or by another object of
	// the work. That copy is behind our own write, not drift, and costs no
	// read: the event of the write follows and is compared as usual. Once
	// the cache shows the write, the entry goes. Content versions can come
	// back, so only the last write's counts.
	written workwriter.OwnWrites[uint64, uint64]
	// drift makes one DriftRepaired Event per object and minute.
	drift driftEvents
	// contests tells the objects the agent stopped reverting for a while,
	// since another writer keeps changing them back.
	contests contests
	// inSync tells when each object was last found holding its manifest.
	inSync inSyncMarks
}

// inSyncMarks holds, by object ID, the desired state (the request's spec)
// and the object's content version (objectwatch.ContentVersion) at which
// the agent last found the object holding it: a comparison that found no
// difference (a server-side dry run of the update among them), or its own
// write. While the object keeps that version, nobody changed it and it
// still holds the desired state: it is neither read nor compared again,
// also when the work's status holds no comparison of this agent's, as that
// of a work taken over from OCM's agent until the agent's first status
// write reaches the informer. Content versions can come back, so only the
// last mark of an object counts.
type inSyncMarks struct {
	mu      sync.Mutex
	objects map[uint64]inSyncMark
}

type inSyncMark struct{ spec, content uint64 }

// note marks the object id as holding spec at content.
func (m *inSyncMarks) note(id, spec, content uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.objects == nil {
		m.objects = map[uint64]inSyncMark{}
	}
	m.objects[id] = inSyncMark{spec: spec, content: content}
}

// at is the content version at which the object id was last found holding
// spec; 0 when it was not, or the desired state changed since.
func (m *inSyncMarks) at(id, spec uint64) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mark, ok := m.objects[id]; ok && mark.spec == spec {
		return mark.content
	}
	return 0
}

// forget drops the mark of the object id: it is looked at again.
func (m *inSyncMarks) forget(id uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.objects, id)
}

// retain drops the marks of objects not in ids, no longer the work's.
func (m *inSyncMarks) retain(ids []uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id := range m.objects {
		if !slices.Contains(ids, id) {
			delete(m.objects, id)
		}
	}
}

// retry is the scheduled retry of a work whose manifests failed.
type retry struct {
	generation int64
	epoch      uint64 // of the Executors when it was scheduled
	at         time.Time
}

// backoff returns the delay of the next retry, which doubles with each
// failure in a row from retryFirst up to retryMax.
func (m *workMemory) backoff() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	exp := m.failures
	m.failures++
	delay := float64(retryFirst) * math.Pow(2, float64(exp))
	if delay > float64(retryMax) {
		return retryMax
	}
	return time.Duration(delay)
}

// retries tells how many reconciles in a row left manifests failing.
func (m *workMemory) retries() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.failures
}

// schedule remembers the retry scheduled for the work.
func (m *workMemory) schedule(r retry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.retry = &r
}

// scheduled returns the retry scheduled for the work, if any.
func (m *workMemory) scheduled() (retry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.retry == nil {
		return retry{}, false
	}
	return *m.retry, true
}

// unschedule drops the scheduled retry; the backoff stays.
func (m *workMemory) unschedule() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.retry = nil
}

// succeeded forgets the backoff and the scheduled retry.
func (m *workMemory) succeeded() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failures, m.retry = 0, nil
}

// appliedUnavailable notes that the AppliedManifestWork could not be had at
// now and returns since when it could not.
func (m *workMemory) appliedUnavailable(now time.Time) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.unavailableSince.IsZero() {
		m.unavailableSince = now
	}
	return m.unavailableSince
}

// appliedAvailable notes that the AppliedManifestWork could be had.
func (m *workMemory) appliedAvailable() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.unavailableSince = time.Time{}
}
