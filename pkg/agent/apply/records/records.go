// Package records keeps what the agent last applied of every manifest
// of every work, and the version of each object right after: enough to tell
// an object that nobody changed from one that drifted without reading it,
// and a change of the work from a change made on the managed cluster.
//
// Records live in memory and are persisted, per work, in one annotation of
// the work's AppliedManifestWork, so that a restarted agent (or one that
// took the lease over) finds them again. They are a cache of what the
// objects themselves say: a record that is missing, or that does not match
// the object, costs one read of the object, never a wrong decision. See
// docs/contributors/architecture.md, "Where the agent keeps its bookkeeping".
package records

import (
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/manifestwork/work/pkg/agent/apply"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Annotation is the AppliedManifestWork annotation that holds the records
// of its work (see Encode).
const Annotation = "work.manifestwork.io/applied-records"

// Persisted tells whether the records of work are persisted in its
// AppliedManifestWork. Those of most works are not: an agent that starts
// rebuilds them from the work's status, which says what was applied, and
// from the objects' last writers, which say that nobody changed them since
// (see manifestwork.rebuildRecord). What cannot be rebuilt is the value the
// work gave a field that an OnSpokeChange ignoreFields rule keeps: the
// records of a work with such a rule are persisted.
func Persisted(work *workv1.ManifestWork) bool {
	for _, c := range work.Spec.ManifestConfigs {
		if c.UpdateStrategy == nil || c.UpdateStrategy.ServerSideApply == nil {
			continue
		}
		for _, f := range c.UpdateStrategy.ServerSideApply.IgnoreFields {
			if f.Condition == workv1.IgnoreFieldsConditionOnSpokeChange {
				return true
			}
		}
	}
	return false
}

// Record is what the agent remembers of one manifest of a work.
type Record struct {
	// LastApplied is what the manifest's strategy needs to know of its last
	// successful apply.
	apply.LastApplied
	// Content is the object's ContentVersion (see objectwatch) right after
	// that apply, or when the agent last found it as the work wants it; 0
	// when unknown, so that the object is looked at again.
	Content uint64
}

// ObjectID identifies an object among the manifests of a work.
func ObjectID(gvr schema.GroupVersionResource, namespace, name string) uint64 {
	return apply.HashBytes([]byte(gvr.Group + "\x00" + gvr.Resource + "\x00" + namespace + "\x00" + name))
}

// Store holds the records of every work by its queue key (namespace/name).
// It is safe for concurrent use.
type Store struct {
	mu    sync.Mutex
	works map[string]map[uint64]Record
	// unrecorded are objects applied for a work that its
	// AppliedManifestWork does not list yet. A pass whose status write
	// failed (the work changed meanwhile) leaves its objects nowhere else,
	// and what is not recorded is never pruned.
	unrecorded map[string][]workv1.AppliedManifestResourceMeta
}

// NewStore returns an empty Store.
func NewStore() *Store {
	return &Store{works: map[string]map[uint64]Record{}, unrecorded: map[string][]workv1.AppliedManifestResourceMeta{}}
}

// NoteApplied notes an object applied for work, until Recorded says its
// AppliedManifestWork lists it.
func (s *Store) NoteApplied(work string, obj workv1.AppliedManifestResourceMeta) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.unrecorded[work], obj) {
		s.unrecorded[work] = append(s.unrecorded[work], obj)
	}
}

// Unrecorded returns the objects applied for work that its
// AppliedManifestWork may not list yet.
func (s *Store) Unrecorded(work string) []workv1.AppliedManifestResourceMeta {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.unrecorded[work])
}

// Recorded forgets objs, which the AppliedManifestWork of work now lists or
// which were pruned; objects noted since with another UID stay.
func (s *Store) Recorded(work string, objs []workv1.AppliedManifestResourceMeta) {
	s.mu.Lock()
	defer s.mu.Unlock()
	left := slices.DeleteFunc(s.unrecorded[work], func(o workv1.AppliedManifestResourceMeta) bool {
		return slices.Contains(objs, o)
	})
	if len(left) == 0 {
		delete(s.unrecorded, work)
		return
	}
	s.unrecorded[work] = left
}

// Known tells whether the store holds the records of work, loaded or made
// since the agent started; until then its persisted records must be kept.
func (s *Store) Known(work string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.works[work]
	return ok
}

// Load takes the persisted records of work, unless the store knows the
// work already. Records that cannot be decoded are dropped: the objects are
// then looked at once more.
func (s *Store) Load(work, encoded string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.works[work]; ok {
		return
	}
	records, err := Decode(encoded)
	if err != nil {
		records = map[uint64]Record{}
	}
	s.works[work] = records
}

// Get returns the record of an object of work.
func (s *Store) Get(work string, id uint64) (Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.works[work][id]
	return r, ok
}

// Put sets the record of an object of work and tells whether it changed.
func (s *Store) Put(work string, id uint64, r Record) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	records := s.works[work]
	if records == nil {
		records = map[uint64]Record{}
		s.works[work] = records
	}
	if old, ok := records[id]; ok && equal(old, r) {
		return false
	}
	records[id] = r
	return true
}

// Retain drops the records of objects of work not in ids and tells whether
// any was dropped.
func (s *Store) Retain(work string, ids []uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	dropped := false
	for id := range s.works[work] {
		if !slices.Contains(ids, id) {
			delete(s.works[work], id)
			dropped = true
		}
	}
	return dropped
}

// Forget drops every record of work.
func (s *Store) Forget(work string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.works, work)
	delete(s.unrecorded, work)
}

// Encode returns the records of work in the form Decode reads, "" when
// there are none or too many to fit an annotation.
func (s *Store) Encode(work string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return encode(s.works[work])
}

func equal(a, b Record) bool {
	if a.Spec != b.Spec || a.Content != b.Content || len(a.IgnoredFields) != len(b.IgnoredFields) {
		return false
	}
	for k, v := range a.IgnoredFields {
		if w, ok := b.IgnoredFields[k]; !ok || w != v {
			return false
		}
	}
	return true
}
