package manifestwork

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// appliedMemory remembers, per work and manifest, what was last applied and
// the object's resourceVersion right after. When the watch cache still shows
// that resourceVersion and the desired state has not changed, the object
// cannot have drifted, and the reconcile sends no request for it.
type appliedMemory struct {
	mu      sync.Mutex
	entries map[memoryKey]memoryEntry
}

type memoryKey struct {
	work    string // namespace/name
	ordinal int
}

type memoryEntry struct {
	fingerprint     string // desired object, its config and the owner
	uid             types.UID
	resourceVersion string
}

func newAppliedMemory() *appliedMemory {
	return &appliedMemory{entries: map[memoryKey]memoryEntry{}}
}

func (m *appliedMemory) unchanged(k memoryKey, e memoryEntry) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	got, ok := m.entries[k]
	return ok && got == e
}

func (m *appliedMemory) remember(k memoryKey, e memoryEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[k] = e
}

func (m *appliedMemory) drop(k memoryKey) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, k)
}

// forget drops every entry of a work.
func (m *appliedMemory) forget(work string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.entries {
		if k.work == work {
			delete(m.entries, k)
		}
	}
}
