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
// The status feedback controller reads from it too: the objects read with
// feedbackScrapeType Watch are kept whole (see SetWholeReads).
//
// Informers are reference counted by the works using them: a type is
// watched only while at least one work applies objects of that type. A type
// whose objects live in a few namespaces (at most MaxNamespaces) is watched
// in each of them; one used in more, or not namespaced, is watched in the
// whole cluster. So an agent whose works use a namespace or two neither
// caches nor receives the events of every object of the type in a large
// cluster, and needs list and watch only where its works apply objects.
package objectwatch

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/sharedstrings"
	"github.com/manifestwork/work/pkg/metrics"
)

// Deps is what a Tracker needs.
type Deps struct {
	// Client reads object metadata from the managed cluster.
	Client metadata.Interface
	// Dynamic reads whole objects: of the types whose StatusFields are not
	// empty, and of the pairs admitted for whole reads (SetWholeReads).
	// Without it every cache is metadata-only, and whole reads go to the API.
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
	// OnListed is called once with every AppliedManifestWork owning an
	// object that the initial list of a new informer brought, once its cache
	// has synced and before it answers (see gvrInformer.tellListed); nil
	// tells nobody. Like OnChange, it must be quick and must not block.
	OnListed func(appliedManifestWorkName string)
	// Resync is the informers' resync period; 0 disables resyncs. Resync events
	// carry an unchanged resourceVersion and therefore never call OnChange.
	Resync time.Duration
	// MaxWholeWatches is the most (resource, namespace) pairs watched for
	// the users that read objects whole (SetWholeReads); beyond it, they
	// read the API.
	MaxWholeWatches int
	// OnWholeChange is called, like OnChange, with every user that reads
	// whole (see SetWholeReads) an object that was created, updated or
	// deleted.
	OnWholeChange func(user string)
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

// MaxNamespaces is the most namespaces a resource type is watched in one by
// one; a type used in more is watched in the whole cluster instead: a watch
// per namespace costs a connection and a list each, and past a few of them
// one watch of everything is the cheaper.
const MaxNamespaces = 8

// Use is a resource type a user needs watched in one namespace; Namespace
// is empty for objects that are not namespaced.
type Use struct {
	Resource  schema.GroupVersionResource
	Namespace string
}

// Tracker runs metadata informers for the resource types in use, each in
// the namespaces its users need (see MaxNamespaces). It is safe for
// concurrent use; create it with New and start it with Run.
type Tracker struct {
	client   metadata.Interface
	dynamic  dynamic.Interface
	fields   func(schema.GroupResource) [][]string
	onChange func(string)
	onListed func(string)
	writes   *ownWrites   // the agent's writes the watch has not brought yet
	readers  *readers     // objects read without an owner reference, by user
	whole    *wholeReads  // objects read whole, by user, and their copies
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
	// uses is what each user (work) needs watched.
	uses map[string]useSet
	// wholeUses are the pairs of the objects each user reads whole; those
	// admitted (wholeReads.admitted) count in refs.
	wholeUses map[string]useSet
	// refs counts the users of each resource type in each namespace; a type
	// is watched while it has any.
	refs map[schema.GroupVersionResource]map[string]int
	// informers holds the running informers by scope: a Use whose Namespace
	// is empty watches the whole cluster. An informer that the plan (see
	// planLocked) no longer wants keeps running, and serving lookups, for
	// Linger.
	informers map[Use]*gvrInformer
	// replaced are informers whose scope has a new one, of the other kind
	// (whole objects or metadata; see dynamicLocked): each serves lookups
	// until the new one has synced.
	replaced map[Use]*gvrInformer
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
		onListed:  d.OnListed,
		writes:    newOwnWrites(),
		readers:   newReaders(d.OnRead),
		whole:     newWholeReads(d.MaxWholeWatches, d.OnWholeChange),
		onWatch:   d.OnWatchFailure,
		resync:    d.Resync,
		linger:    d.Linger,
		strings:   sharedstrings.New(sharedStrings),
		uses:      map[string]useSet{},
		wholeUses: map[string]useSet{},
		refs:      map[schema.GroupVersionResource]map[string]int{},
		informers: map[Use]*gvrInformer{},
		replaced:  map[Use]*gvrInformer{},
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
	t.admitLocked()
	for gvr := range t.refs {
		t.replanLocked(gvr)
	}
	return true
}

// end cancels every informer and forbids new ones. Users and reference counts
// are kept: they describe what callers asked for, not what runs.
func (t *Tracker) end() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	for scope, inf := range t.informers {
		inf.stop()
		delete(t.informers, scope)
	}
	for scope, inf := range t.replaced {
		inf.stop()
		delete(t.replaced, scope)
	}
	t.whole.reset()
	metrics.FeedbackWatches.Set(0)
}

// SetUses declares everything user needs watched, replacing what it
// declared before. An empty list releases the user. Informers start for
// types and namespaces that gain their first user and stop, after Linger,
// for those that lose their last one. It does not wait for informers to sync
// or to stop.
func (t *Tracker) SetUses(user string, uses []Use) {
	next := newUseSet(uses)

	t.mu.Lock()
	defer t.mu.Unlock()

	changed := map[schema.GroupVersionResource]bool{}
	t.declareLocked(t.uses, user, next, nil, changed)
	for gvr := range changed {
		t.replanLocked(gvr)
	}
}

// declareLocked replaces what user declared in declared by next, counts
// the uses it gains and uncounts those it loses, of the uses counted (all
// when counted is nil), and marks their resource types in changed.
func (t *Tracker) declareLocked(declared map[string]useSet, user string, next useSet,
	counted func(Use) bool, changed map[schema.GroupVersionResource]bool) {
	prev := declared[user]
	if len(next) == 0 {
		delete(declared, user)
	} else {
		declared[user] = next
	}
	recount := func(from, to useSet, delta int) {
		for u := range to {
			if !from.has(u) && (counted == nil || counted(u)) {
				t.countLocked(u, delta)
				changed[u.Resource] = true
			}
		}
	}
	recount(prev, next, 1)
	recount(next, prev, -1)
}

// countLocked adds delta users to u.
func (t *Tracker) countLocked(u Use, delta int) {
	byNamespace := t.refs[u.Resource]
	if byNamespace == nil {
		byNamespace = map[string]int{}
		t.refs[u.Resource] = byNamespace
	}
	byNamespace[u.Namespace] += delta
	if byNamespace[u.Namespace] <= 0 {
		delete(byNamespace, u.Namespace)
	}
	if len(byNamespace) == 0 {
		delete(t.refs, u.Resource)
	}
}

// planLocked is where gvr is to be watched: the namespaces its users need,
// or the whole cluster ("") when they need more than MaxNamespaces or
// objects that are not namespaced; nothing while it has no user.
func (t *Tracker) planLocked(gvr schema.GroupVersionResource) map[string]bool {
	byNamespace := t.refs[gvr]
	if len(byNamespace) == 0 {
		return nil
	}
	if _, clusterWide := byNamespace[""]; clusterWide || len(byNamespace) > MaxNamespaces {
		return map[string]bool{"": true}
	}
	plan := make(map[string]bool, len(byNamespace))
	for ns := range byNamespace {
		plan[ns] = true
	}
	return plan
}

// replanLocked starts the informers of gvr that its plan wants and retires
// the ones it no longer wants.
func (t *Tracker) replanLocked(gvr schema.GroupVersionResource) {
	plan := t.planLocked(gvr)
	for ns := range plan {
		scope := Use{Resource: gvr, Namespace: ns}
		if inf, running := t.informers[scope]; running {
			if inf.dynamic == t.dynamicLocked(scope) {
				inf.keep()
				continue
			}
			// It lists whole objects and should not, or the reverse:
			// another takes its place.
			delete(t.informers, scope)
			t.startLocked(scope, nil)
			t.handOverLocked(scope, inf)
			continue
		}
		t.startLocked(scope, nil)
	}
	for scope, inf := range t.informers {
		if scope.Resource == gvr && !plan[scope.Namespace] {
			t.retireLocked(scope, inf)
		}
	}
}

// handOverLocked has old, the informer of scope that a new one replaced,
// serve lookups until the new one has synced, then stops it.
func (t *Tracker) handOverLocked(scope Use, old *gvrInformer) {
	if prev := t.replaced[scope]; prev != nil {
		prev.stop()
	}
	next := t.informers[scope]
	if next == nil {
		old.stop()
		delete(t.replaced, scope)
		return
	}
	old.keep()
	t.replaced[scope] = old
	go func() {
		// Returns once next has synced, or has been stopped.
		cache.WaitForCacheSync(next.ctx.Done(), next.synced)
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.replaced[scope] == old {
			old.stop()
			delete(t.replaced, scope)
		}
	}()
}

// dynamicLocked tells whether the informer of scope lists whole objects:
// when the type's status is read (Deps.StatusFields), or when objects it
// watches are read whole.
func (t *Tracker) dynamicLocked(scope Use) bool {
	return t.dynamic != nil && (len(t.fields(scope.Resource.GroupResource())) > 0 || t.whole.serves(scope))
}

// retireLocked stops an informer the plan no longer wants, after Linger
// unless the plan wants it back meanwhile. Until then it still serves
// lookups, so that a type going from some namespaces to the whole cluster
// (or back) is answered from a cache while the new informer lists.
func (t *Tracker) retireLocked(scope Use, inf *gvrInformer) {
	if t.linger <= 0 {
		t.stopLocked(scope, inf)
		return
	}
	inf.retire(t.linger, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.informers[scope] == inf && !t.planLocked(scope.Resource)[scope.Namespace] {
			t.stopLocked(scope, inf)
		}
	})
}

func (t *Tracker) stopLocked(scope Use, inf *gvrInformer) {
	inf.stop()
	delete(t.informers, scope)
	klog.FromContext(t.ctx).V(2).Info("Stopped watching resource type", "gvr", scope.Resource.String(), "namespace", scope.Namespace)
}

// startLocked starts the informer of scope unless Run has not begun yet (Run
// will start it) or has ended (nothing may start any more). failure, when
// not nil, is the failure the informer carries on from the one it replaces.
func (t *Tracker) startLocked(scope Use, failure *WatchFailure) {
	if t.ctx == nil || t.stopped {
		return
	}
	gvr := scope.Resource
	logger := klog.FromContext(t.ctx).WithValues("gvr", gvr.String())
	if scope.Namespace != "" {
		logger = logger.WithValues("namespace", scope.Namespace)
	}
	ctx := klog.NewContext(t.ctx, logger)

	src := source{metadata: t.client, fields: t.fields(gvr.GroupResource()), strings: t.strings}
	if t.dynamicLocked(scope) {
		src.dynamic = t.dynamic
		src.stash = func(obj *unstructured.Unstructured) { t.whole.stash(gvr, obj) }
	}
	inf, err := newGVRInformer(ctx, src, scope, t.resync, callbacks{
		onChange: t.onChange,
		onListed: t.onListed,
		wrote: func(namespace, name, rv string) bool {
			return t.writes.seen(ObjectKey{Resource: gvr, Namespace: namespace, Name: name}, rv)
		},
		onAdd: func(namespace, name string) { t.whole.changed(gvr, namespace, name) },
		onObject: func(namespace, name string) {
			t.readers.changed(gvr, namespace, name)
			t.whole.changed(gvr, namespace, name)
		},
		onFailure: func() { t.watchFailed(scope) },
	})
	if err != nil {
		// Only possible if the informer was already started, which a fresh one
		// never is; Get keeps reporting synced=false so callers read the API.
		logger.Error(err, "Cannot set up informer")
		return
	}
	inf.failure.Store(failure)
	t.informers[scope] = inf
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		inf.run()
	}()
	logger.V(2).Info("Started watching resource type")
}

// RetryRefused restarts at once every wanted informer whose list or watch
// the API server refused (Forbidden). The agent calls it when RBAC changed
// on the managed cluster: rights on a type may have just arrived (an
// aggregated ClusterRole, a binding), and the informer's own retry waits up
// to 30 s on backoff. The new informer keeps the failure, and when it began,
// until it lists and watches: a refusal that goes on stays one failure, so
// its users are not told about it again. It returns how many it restarted.
func (t *Tracker) RetryRefused() int {
	t.mu.Lock()
	var restarted []Use
	for scope, inf := range t.informers {
		f := inf.failure.Load()
		if f == nil || !apierrors.IsForbidden(f.Err) || !t.planLocked(scope.Resource)[scope.Namespace] {
			continue
		}
		restarted = append(restarted, scope)
	}
	for _, scope := range restarted {
		old := t.informers[scope]
		delete(t.informers, scope)
		old.stop()
		t.startLocked(scope, old.failure.Load())
		klog.FromContext(t.ctx).V(2).Info("Restarted a refused watch after an RBAC change",
			"gvr", scope.Resource.String(), "namespace", scope.Namespace)
	}
	t.mu.Unlock()
	metrics.WatchRestarts.Add(float64(len(restarted)))
	return len(restarted)
}

// watchFailed tells the users the informer of scope serves that its watch
// started failing or works again.
func (t *Tracker) watchFailed(scope Use) {
	if t.onWatch == nil {
		return
	}
	t.mu.RLock()
	var users []string
	for user, uses := range t.uses {
		for u := range uses {
			if covers(scope, u) {
				users = append(users, user)
				break
			}
		}
	}
	t.mu.RUnlock()
	for _, user := range users {
		t.onWatch(user)
	}
}

// covers tells whether the informer of scope watches the objects of u.
func covers(scope, u Use) bool {
	return scope.Resource == u.Resource && (scope.Namespace == "" || scope.Namespace == u.Namespace)
}

// WatchFailure tells why, and since when, the objects of u are not watched;
// ok is false while they are, or while nobody uses them.
func (t *Tracker) WatchFailure(u Use) (failure WatchFailure, ok bool) {
	var failing *WatchFailure
	for _, inf := range t.covering(u) {
		f := inf.failure.Load()
		if f == nil {
			return WatchFailure{}, false
		}
		if failing == nil {
			failing = f
		}
	}
	if failing == nil {
		return WatchFailure{}, false
	}
	return *failing, true
}

// covering are the running informers that watch the objects of u: the one
// of its namespace and the cluster-wide one, in that order, either or both
// of which may be missing, each followed by the one it replaced, if that
// still serves.
func (t *Tracker) covering(u Use) []*gvrInformer {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []*gvrInformer
	scopes := []Use{{Resource: u.Resource}}
	if u.Namespace != "" {
		scopes = []Use{u, {Resource: u.Resource}}
	}
	for _, scope := range scopes {
		for _, inf := range []*gvrInformer{t.informers[scope], t.replaced[scope]} {
			if inf != nil {
				out = append(out, inf)
			}
		}
	}
	return out
}

// informer is a synced informer that watches the objects of gvr in
// namespace; nil if none runs or none is synced.
func (t *Tracker) informer(gvr schema.GroupVersionResource, namespace string) *gvrInformer {
	for _, inf := range t.covering(Use{Resource: gvr, Namespace: namespace}) {
		if inf.synced() {
			return inf
		}
	}
	return nil
}

// Get returns the cached metadata of an object. synced is false when no
// informer watching the object is running or its cache cannot be trusted
// yet (not synced, or its last list/watch failed): the caller must then read
// the API instead. When synced is true, a nil object means the object does
// not exist. The returned object is a copy the caller may modify. err
// reports only real errors, never "not found" or "not synced".
func (t *Tracker) Get(gvr schema.GroupVersionResource, namespace, name string) (obj *metav1.PartialObjectMetadata, synced bool, err error) {
	inf := t.informer(gvr, namespace)
	if inf == nil {
		return nil, false, nil
	}
	return inf.get(namespace, name)
}

// GetObject returns the cached object, with only the fields the cache keeps
// (see Deps.StatusFields). synced is false as for Get, and also when the
// type's cache is metadata-only.
func (t *Tracker) GetObject(gvr schema.GroupVersionResource, namespace, name string) (obj *unstructured.Unstructured, synced bool, err error) {
	inf := t.informer(gvr, namespace)
	if inf == nil || inf.fields == nil {
		return nil, false, nil
	}
	return inf.getObject(namespace, name)
}

// WaitForSync waits until the objects of uses are watched by synced
// informers, or ctx is done; it reports whether they all are. An informer
// that cannot list (the type is gone, or may not be listed) never syncs:
// bound ctx.
func (t *Tracker) WaitForSync(ctx context.Context, uses []Use) bool {
	var synced []cache.InformerSynced
	for _, u := range uses {
		synced = append(synced, func() bool { return t.informer(u.Resource, u.Namespace) != nil })
	}
	return cache.WaitForCacheSync(ctx.Done(), synced...)
}

// Deleted tells whether an informer of gvr saw the object with this UID
// deleted within deletedTTL (see there). false means "not known": the object may
// exist, or its deletion was not seen (no informer, or long ago).
func (t *Tracker) Deleted(gvr schema.GroupVersionResource, uid types.UID) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for scope, inf := range t.informers {
		if scope.Resource == gvr && inf.deleted.has(uid) {
			return true
		}
	}
	return false
}

// DeletedSince tells whether an informer watching the object saw an object
// of that name deleted at or after since (within deletedTTL).
func (t *Tracker) DeletedSince(gvr schema.GroupVersionResource, namespace, name string, since time.Time) bool {
	for _, inf := range t.covering(Use{Resource: gvr, Namespace: namespace}) {
		if inf.deleted.hasName(namespace, name, since) {
			return true
		}
	}
	return false
}

// Running returns the resource types that running informers watch, in any
// namespace, sorted by group, version and resource; nil if none.
func (t *Tracker) Running() []schema.GroupVersionResource {
	t.mu.RLock()
	defer t.mu.RUnlock()

	var out []schema.GroupVersionResource
	for scope := range t.informers {
		if !slices.Contains(out, scope.Resource) {
			out = append(out, scope.Resource)
		}
	}
	slices.SortFunc(out, compareGVR)
	return out
}

// useSet is a set of uses.
type useSet map[Use]struct{}

func newUseSet(uses []Use) useSet {
	s := make(useSet, len(uses))
	for _, u := range uses {
		s[u] = struct{}{}
	}
	return s
}

// has works on a nil set, which stands for a user that declared nothing yet.
func (s useSet) has(u Use) bool {
	_, ok := s[u]
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
