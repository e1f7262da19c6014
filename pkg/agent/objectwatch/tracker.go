// Package objectwatch keeps informers for the resource types that
// ManifestWorks currently apply on the managed cluster: metadata-only, or,
// for types whose health is judged, trimmed to the fields the rules read.
//
// The work agent uses it for two things:
//   - drift detection: when someone else updates or deletes an applied object,
//     a watch event names the AppliedManifestWork(s) owning it, so the agent
//     requeues those works within seconds instead of re-reading every object
//     on a timer;
//   - cheap existence checks: "does this object exist, and what are its
//     resourceVersion and UID?" is answered from the cache, so an idle agent
//     sends no requests to the managed cluster.
//
// Informers are cluster-wide (objects of one type may live in any namespace)
// and reference counted by the works using them: a type is watched only while
// at least one work applies objects of that type.
package objectwatch

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/sharedstrings"
)

// Deps is what a Tracker needs.
type Deps struct {
	// Client reads object metadata from the managed cluster.
	Client metadata.Interface
	// Dynamic reads whole objects of the types whose StatusFields are not
	// empty. Without it every cache is metadata-only.
	Dynamic dynamic.Interface
	// StatusFields names, per resource, the fields beyond metadata its cache
	// keeps (GetObject returns them); nil keeps the metadata-only cache.
	StatusFields func(schema.GroupResource) [][]string
	// OnChange is called with the name of every AppliedManifestWork that owns an
	// object that was updated (resourceVersion changed) or deleted, so the caller
	// can requeue its work. It runs on the informer's event goroutine: it must be
	// quick and must not block (adding to a workqueue is the intended use).
	OnChange func(appliedManifestWorkName string)
	// OnRead is called, like OnChange, with every user (see SetReads) that
	// reads an object that was updated or deleted.
	OnRead func(user string)
	// OnWatchFailure is called, like OnChange, with every user of a resource
	// type (see SetUses) whose list or watch requests started failing, or
	// work again: WatchFailure tells which.
	OnWatchFailure func(user string)
	// Resync is the informers' resync period; 0 disables resyncs. Resync events
	// carry an unchanged resourceVersion and therefore never call OnChange.
	Resync time.Duration
	// Linger is how long an informer keeps running after its last user left,
	// so that a work deleted and another created a moment later (or the
	// only work of a type replaced) find a synced cache instead of starting
	// a new list and reading objects from the API meanwhile. 0 stops at once.
	Linger time.Duration
}

// sharedStrings bounds the strings the caches share: mostly the name and
// UID of each AppliedManifestWork, which own the objects, and a few
// namespaces. A table that fills up starts over rather than growing.
const sharedStrings = 8192

// DefaultLinger is the Linger the agent uses.
const DefaultLinger = 2 * time.Minute

// Tracker runs one metadata informer per resource type in use. It is safe for
// concurrent use; create it with New and start it with Run.
type Tracker struct {
	client   metadata.Interface
	dynamic  dynamic.Interface
	fields   func(schema.GroupResource) [][]string
	onChange func(string)
	readers  *readers     // objects read without an owner reference, by user
	onWatch  func(string) // OnWatchFailure
	resync   time.Duration
	linger   time.Duration
	strings  *sharedstrings.Table // of the cached objects of every type

	// mu guards every field below. It is never held while waiting for an
	// informer to stop: OnChange may call back into the Tracker (SetUses), and
	// the informer waits for OnChange before it can stop.
	mu sync.RWMutex
	// ctx is Run's context, nil until Run starts; informers wanted before then
	// are started by Run.
	ctx context.Context
	// stopped is set once Run's context is done; no informer starts after that.
	stopped bool
	// uses is the set of resource types each user (work) needs.
	uses map[string]gvrSet
	// refs counts the users of each resource type; a type is watched while > 0.
	refs map[schema.GroupVersionResource]int
	// informers holds the running informer of each watched type.
	informers map[schema.GroupVersionResource]*gvrInformer
	// wg counts informer goroutines, including ones already cancelled but not
	// yet finished, so that Run returns only once all of them have exited.
	wg sync.WaitGroup
}

// New returns a Tracker that does nothing until Run is called. OnChange may be
// nil, in which case changes are only reflected in the cache.
func New(d Deps) *Tracker {
	onChange := d.OnChange
	if onChange == nil {
		onChange = func(string) {}
	}
	fields := d.StatusFields
	if fields == nil {
		fields = func(schema.GroupResource) [][]string { return nil }
	}
	return &Tracker{
		client:    d.Client,
		dynamic:   d.Dynamic,
		fields:    fields,
		onChange:  onChange,
		readers:   newReaders(d.OnRead),
		onWatch:   d.OnWatchFailure,
		resync:    d.Resync,
		linger:    d.Linger,
		strings:   sharedstrings.New(sharedStrings),
		uses:      map[string]gvrSet{},
		refs:      map[schema.GroupVersionResource]int{},
		informers: map[schema.GroupVersionResource]*gvrInformer{},
	}
}

// Run starts the informers currently in use, starts and stops informers as
// SetUses changes the set of used types, and blocks until ctx is done. It then
// stops every informer and returns once all their goroutines have exited.
// Run must be called at most once.
func (t *Tracker) Run(ctx context.Context) {
	logger := klog.FromContext(ctx).WithName("objectwatch")
	ctx = klog.NewContext(ctx, logger)

	if !t.begin(ctx) {
		logger.Error(nil, "Tracker.Run called more than once; ignoring the extra call")
		return
	}
	logger.V(1).Info("Started object tracker")
	<-ctx.Done()

	t.end()
	t.wg.Wait()
	logger.V(1).Info("Stopped object tracker")
}

// begin records Run's context and starts the informers wanted so far. It
// reports false if Run was already called.
func (t *Tracker) begin(ctx context.Context) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ctx != nil {
		return false
	}
	t.ctx = ctx
	for gvr := range t.refs {
		t.startLocked(gvr)
	}
	return true
}

// end cancels every informer and forbids new ones. Users and reference counts
// are kept: they describe what callers asked for, not what runs.
func (t *Tracker) end() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	for gvr, inf := range t.informers {
		inf.stop()
		delete(t.informers, gvr)
	}
}

// SetUses declares the complete set of resource types user needs, replacing
// what it declared before. An empty list releases the user. Informers start
// for types that gain their first user and stop for types that lose their
// last one. It does not wait for informers to sync or to stop.
func (t *Tracker) SetUses(user string, gvrs []schema.GroupVersionResource) {
	next := newGVRSet(gvrs)

	t.mu.Lock()
	defer t.mu.Unlock()

	prev := t.uses[user]
	if len(next) == 0 {
		delete(t.uses, user)
	} else {
		t.uses[user] = next
	}
	for gvr := range next {
		if !prev.has(gvr) {
			t.acquireLocked(gvr)
		}
	}
	for gvr := range prev {
		if !next.has(gvr) {
			t.releaseLocked(gvr)
		}
	}
}

// acquireLocked adds a user to gvr, starting its informer for the first one.
func (t *Tracker) acquireLocked(gvr schema.GroupVersionResource) {
	t.refs[gvr]++
	if t.refs[gvr] == 1 {
		t.startLocked(gvr)
	}
}

// releaseLocked removes a user from gvr, stopping its informer with the last
// one, after Linger unless a user comes back meanwhile.
func (t *Tracker) releaseLocked(gvr schema.GroupVersionResource) {
	t.refs[gvr]--
	if t.refs[gvr] > 0 {
		return
	}
	delete(t.refs, gvr)
	inf, ok := t.informers[gvr]
	if !ok {
		return
	}
	if t.linger <= 0 {
		t.stopLocked(gvr, inf)
		return
	}
	time.AfterFunc(t.linger, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.refs[gvr] == 0 && t.informers[gvr] == inf {
			t.stopLocked(gvr, inf)
		}
	})
}

func (t *Tracker) stopLocked(gvr schema.GroupVersionResource, inf *gvrInformer) {
	inf.stop()
	delete(t.informers, gvr)
	klog.FromContext(t.ctx).V(2).Info("Stopped watching resource type", "gvr", gvr.String())
}

// startLocked starts the informer for gvr unless Run has not begun yet (Run
// will start it) or has ended (nothing may start any more).
func (t *Tracker) startLocked(gvr schema.GroupVersionResource) {
	if t.ctx == nil || t.stopped {
		return
	}
	if _, running := t.informers[gvr]; running {
		return
	}
	logger := klog.FromContext(t.ctx).WithValues("gvr", gvr.String())
	ctx := klog.NewContext(t.ctx, logger)

	src := source{metadata: t.client, dynamic: t.dynamic, fields: t.fields(gvr.GroupResource()), strings: t.strings}
	inf, err := newGVRInformer(ctx, src, gvr, t.resync, callbacks{
		onChange:  t.onChange,
		onObject:  func(namespace, name string) { t.readers.changed(gvr, namespace, name) },
		onFailure: func() { t.watchFailed(gvr) },
	})
	if err != nil {
		// Only possible if the informer was already started, which a fresh one
		// never is; Get keeps reporting synced=false so callers read the API.
		logger.Error(err, "Cannot set up informer")
		return
	}
	t.informers[gvr] = inf
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		inf.run()
	}()
	logger.V(2).Info("Started watching resource type")
}

// watchFailed tells the users of gvr that its watch started failing or
// works again.
func (t *Tracker) watchFailed(gvr schema.GroupVersionResource) {
	if t.onWatch == nil {
		return
	}
	t.mu.RLock()
	var users []string
	for user, gvrs := range t.uses {
		if gvrs.has(gvr) {
			users = append(users, user)
		}
	}
	t.mu.RUnlock()
	for _, user := range users {
		t.onWatch(user)
	}
}

// WatchFailure tells why, and since when, the objects of gvr are not
// watched; ok is false while they are, or while nobody uses the type.
func (t *Tracker) WatchFailure(gvr schema.GroupVersionResource) (failure WatchFailure, ok bool) {
	if inf := t.informer(gvr); inf != nil {
		if f := inf.failure.Load(); f != nil {
			return *f, true
		}
	}
	return WatchFailure{}, false
}

// informer is the running informer of gvr; nil if none runs.
func (t *Tracker) informer(gvr schema.GroupVersionResource) *gvrInformer {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.informers[gvr]
}

// Get returns the cached metadata of an object. synced is false when no
// informer for gvr is running or its cache cannot be trusted yet (not synced,
// or its last list/watch failed): the caller must then read the API instead.
// When synced is true, a nil object means the object does not exist. The
// returned object is a copy the caller may modify. err reports only real
// errors, never "not found" or "not synced".
func (t *Tracker) Get(gvr schema.GroupVersionResource, namespace, name string) (obj *metav1.PartialObjectMetadata, synced bool, err error) {
	inf := t.informer(gvr)
	if inf == nil || !inf.synced() {
		return nil, false, nil
	}
	return inf.get(namespace, name)
}

// GetObject returns the cached object, with only the fields the cache keeps
// (see Deps.StatusFields). synced is false as for Get, and also when the
// type's cache is metadata-only.
func (t *Tracker) GetObject(gvr schema.GroupVersionResource, namespace, name string) (obj *unstructured.Unstructured, synced bool, err error) {
	inf := t.informer(gvr)
	if inf == nil || inf.fields == nil || !inf.synced() {
		return nil, false, nil
	}
	return inf.getObject(namespace, name)
}

// WaitForSync waits until the informers of gvrs are synced, or ctx is done;
// it reports whether they all synced. An informer that cannot list (the type
// is gone, or may not be listed) never syncs: bound ctx.
func (t *Tracker) WaitForSync(ctx context.Context, gvrs []schema.GroupVersionResource) bool {
	var synced []cache.InformerSynced
	for _, gvr := range gvrs {
		synced = append(synced, func() bool {
			inf := t.informer(gvr)
			return inf != nil && inf.synced()
		})
	}
	return cache.WaitForCacheSync(ctx.Done(), synced...)
}

// Deleted tells whether the informer of gvr saw the object with this UID
// deleted within deletedTTL (see there). false means "not known": the object may
// exist, or its deletion was not seen (no informer, or long ago).
func (t *Tracker) Deleted(gvr schema.GroupVersionResource, uid types.UID) bool {
	inf := t.informer(gvr)
	return inf != nil && inf.deleted.has(uid)
}

// DeletedSince tells whether the informer of gvr saw an object of that name
// deleted at or after since (within deletedTTL).
func (t *Tracker) DeletedSince(gvr schema.GroupVersionResource, namespace, name string, since time.Time) bool {
	inf := t.informer(gvr)
	return inf != nil && inf.deleted.hasName(namespace, name, since)
}

// Running returns the resource types whose informers are running, sorted by
// group, version and resource; nil if none.
func (t *Tracker) Running() []schema.GroupVersionResource {
	t.mu.RLock()
	defer t.mu.RUnlock()

	var out []schema.GroupVersionResource
	for gvr := range t.informers {
		out = append(out, gvr)
	}
	slices.SortFunc(out, compareGVR)
	return out
}

// gvrSet is a set of resource types.
type gvrSet map[schema.GroupVersionResource]struct{}

func newGVRSet(gvrs []schema.GroupVersionResource) gvrSet {
	s := make(gvrSet, len(gvrs))
	for _, gvr := range gvrs {
		s[gvr] = struct{}{}
	}
	return s
}

// has works on a nil set, which stands for a user that declared nothing yet.
func (s gvrSet) has(gvr schema.GroupVersionResource) bool {
	_, ok := s[gvr]
	return ok
}

// compareGVR orders resource types by group, version and resource.
func compareGVR(a, b schema.GroupVersionResource) int {
	return cmp.Or(
		cmp.Compare(a.Group, b.Group),
		cmp.Compare(a.Version, b.Version),
		cmp.Compare(a.Resource, b.Resource),
	)
}
