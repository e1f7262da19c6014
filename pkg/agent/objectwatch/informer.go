package objectwatch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/sharedstrings"
)

// gvrInformer is the informer of one resource type, in one namespace or in
// the whole cluster, with its own context so that it can be stopped on its
// own. It caches metadata only, unless the type's status is read (see
// Deps.StatusFields) or some of its objects are read whole (see
// Tracker.SetWholeReads): then it watches whole objects and keeps their
// metadata and the fields named, and hands the objects read whole to
// wholeReads before trimming them.
type gvrInformer struct {
	ctx      context.Context
	cancel   context.CancelFunc
	informer cache.SharedIndexInformer
	// listWatchOK is false until a list succeeds and again whenever a list or
	// watch request fails. After such a failure (RBAC revoked, CRD removed) the
	// cache may silently miss changes, so Get must not trust it.
	listWatchOK atomic.Bool
	// failure is the list or watch failure that has kept the cache from
	// being current since it began; nil once a watch is established.
	failure atomic.Pointer[WatchFailure]
	// onFailure is called when failure is set or cleared.
	onFailure func()
	// deleted are the objects this informer saw deleted lately.
	deleted *deletedUIDs
	// onListed is told the owners of what its initial list brought (see
	// tellListed); told is set once it was, and the cache answers only then.
	onListed func(appliedName string)
	told     atomic.Bool
	// handled reports whether its handler has had the initial list.
	handled cache.ResourceEventHandlerRegistration
	// dynamic is true when it lists whole objects: the cache holds
	// *unstructured.Unstructured, else *metav1.PartialObjectMetadata.
	dynamic bool
	// fields are the paths beyond metadata its cache keeps; nil for a
	// cache of metadata only.
	fields [][]string
	// stash is given each whole object before it is trimmed; nil if none is
	// read whole.
	stash func(*unstructured.Unstructured)
	// strings are shared by the cached objects of every informer.
	strings *sharedstrings.Table
	// retiring stops the informer once it has not been wanted for a while;
	// nil while it is wanted. The Tracker's lock guards it.
	retiring *time.Timer
}

// WatchFailure is why, and since when, the objects of a resource type are
// not watched: a list or watch request that fails (Forbidden, NotFound, a
// server error), and has failed on every try since.
type WatchFailure struct {
	Err   error
	Since time.Time
	// list is true when Err is a list's: see gvrInformer.failed.
	list bool
}

// callbacks are what an informer tells its Tracker.
type callbacks struct {
	onChange  func(appliedName string)                           // an owned object changed
	onListed  func(appliedName string)                           // an owned object was in the initial list
	wrote     func(namespace, name, resourceVersion string) bool // the agent's own write made it
	onAdd     func(namespace, name string)                       // an object was added to the cache
	onObject  func(namespace, name string)                       // an object changed
	onFailure func()                                             // the informer's failure began or ended
}

// source is where an informer reads objects from.
type source struct {
	metadata metadata.Interface
	dynamic  dynamic.Interface // whole objects; nil: metadata only
	fields   [][]string        // of this type kept beside metadata
	stash    func(*unstructured.Unstructured)
	strings  *sharedstrings.Table
}

// newGVRInformer builds, but does not start, the informer of scope: its
// resource type in its namespace, or in every namespace when that is empty
// (a client of namespace "" lists and watches them all). Its lifetime is
// bounded by parent and by stop.
func newGVRInformer(parent context.Context, src source, scope Use,
	resync time.Duration, cb callbacks) (*gvrInformer, error) {
	ctx, cancel := context.WithCancel(parent)
	i := &gvrInformer{ctx: ctx, cancel: cancel, deleted: newDeletedUIDs(), onListed: cb.onListed,
		onFailure: cb.onFailure, strings: src.strings}
	var lw cache.ListerWatcher
	var example runtime.Object
	gvr, ns := scope.Resource, scope.Namespace
	if src.dynamic != nil {
		i.dynamic, i.fields, i.stash = true, src.fields, src.stash
		lw, example = listWatch(i, src.dynamic.Resource(gvr).Namespace(ns), src.dynamic), &unstructured.Unstructured{}
	} else {
		lw, example = listWatch(i, src.metadata.Resource(gvr).Namespace(ns), src.metadata), &metav1.PartialObjectMetadata{}
	}
	description := gvr.String()
	if ns != "" {
		description += " in " + ns
	}
	i.informer = cache.NewSharedIndexInformerWithOptions(lw, example,
		cache.SharedIndexInformerOptions{ResyncPeriod: resync, ObjectDescription: description},
	)
	if err := i.configure(cb); err != nil {
		cancel()
		return nil, err
	}
	return i, nil
}

// configure installs the transform, error handler and event handler. Each
// call fails only on an informer that has already started.
func (i *gvrInformer) configure(cb callbacks) error {
	transform := stripMetadata(i.strings)
	if i.dynamic {
		transform = keepFields(i.fields, i.strings)
	}
	if i.stash != nil {
		trim := transform
		transform = func(obj any) (any, error) {
			if u, ok := obj.(*unstructured.Unstructured); ok {
				i.stash(u)
			}
			return trim(obj)
		}
	}
	if err := i.informer.SetTransform(transform); err != nil {
		return fmt.Errorf("set transform: %w", err)
	}
	if err := i.informer.SetWatchErrorHandlerWithContext(logListWatchError); err != nil {
		return fmt.Errorf("set watch error handler: %w", err)
	}
	logger := klog.FromContext(i.ctx)
	h := driftHandler{logger: logger, onChange: cb.onChange, onAdd: cb.onAdd, onObject: cb.onObject, deleted: i.deleted.add,
		wrote: cb.wrote}
	handled, err := i.informer.AddEventHandlerWithOptions(h, cache.HandlerOptions{Logger: &logger})
	if err != nil {
		return fmt.Errorf("add event handler: %w", err)
	}
	i.handled = handled
	return nil
}

// lister lists and watches one resource type in one namespace or in all;
// L is the list type of its client (metadata or dynamic).
type lister[L runtime.Object] interface {
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// listWatch lists and watches resource, recording in listWatchOK
// whether the last request succeeded, and in failure since when they fail.
// client tells whether watch-list streams can be used.
func listWatch[L runtime.Object](i *gvrInformer, resource lister[L], client any) cache.ListerWatcher {
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			list, err := resource.List(ctx, opts)
			i.listWatchOK.Store(err == nil)
			if err != nil {
				i.failed(ctx, err, true)
				return nil, err
			}
			i.listed()
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			w, err := resource.Watch(ctx, opts)
			i.listWatchOK.Store(err == nil)
			if err != nil {
				i.failed(ctx, err, false)
				return nil, err
			}
			i.watching()
			return w, nil
		},
	}
	// Lets a client that cannot serve watch-list streams (such as test fakes)
	// opt out; a real API server gets the cheaper streaming initial list.
	return cache.ToListWatcherWithWatchListSemantics(lw, client)
}

// failed records a failed list or watch request. A failure that goes on
// keeps the time it began, with the latest error; but a watch's error does
// not replace a list's. Each retry of a reflector that uses watch-list
// streams makes a watch request and, when that fails, a list: when both are
// refused, the failure says the list's error, the same on every retry, and
// not the one or the other depending on when it is read (each change of
// words would cost every work using the type a status write).
func (i *gvrInformer) failed(ctx context.Context, err error, list bool) {
	if ctx.Err() != nil {
		return // stopped: the request was cancelled, nothing failed
	}
	since := time.Now()
	previous := i.failure.Load()
	if previous != nil {
		since = previous.Since
		if previous.list && !list {
			return
		}
	}
	i.failure.Store(&WatchFailure{Err: err, Since: since, list: list})
	if previous == nil && i.onFailure != nil {
		i.onFailure()
	}
}

// listed records a list that succeeded: the failure, if any, goes on
// until a watch is established, and the next watch error replaces the
// list's.
func (i *gvrInformer) listed() {
	if f := i.failure.Load(); f != nil && f.list {
		i.failure.CompareAndSwap(f, &WatchFailure{Err: f.Err, Since: f.Since})
	}
}

// watching records that a watch is established: the cache is current
// again. A list that succeeds is not enough: a type that may be listed but
// not watched would look fine between its lists.
func (i *gvrInformer) watching() {
	if i.failure.Swap(nil) != nil && i.onFailure != nil {
		i.onFailure()
	}
}

// run blocks until the informer is stopped and all its goroutines are done.
func (i *gvrInformer) run() {
	var wg sync.WaitGroup
	wg.Go(i.tellListed)
	i.informer.RunWithContext(i.ctx)
	wg.Wait()
}

// tellListed tells onListed, once the handler has had the initial list,
// each owner of an object in the cache, which then holds what that list
// brought: the agent may have written such an object before the list was
// served, and another writer changed it meanwhile (a controller setting its
// status at once, a list delayed by the API server's Retry-After); the list
// holds the change, and no event will bring it. So each owner judges its
// objects again, from the synced cache. An object added after the list is
// told too: a requeue more at most.
func (i *gvrInformer) tellListed() {
	if !cache.WaitForCacheSync(i.ctx.Done(), i.handled.HasSynced) {
		return
	}
	if i.onListed != nil {
		var objs []metav1.Object
		for _, item := range i.informer.GetStore().List() {
			if m, err := meta.Accessor(item); err == nil {
				objs = append(objs, m)
			}
		}
		for _, owner := range appliedManifestWorkOwners(objs...) {
			i.onListed(owner)
		}
	}
	i.told.Store(true)
}

// stop asks the informer to stop; run returns once it has.
func (i *gvrInformer) stop() {
	i.keep()
	i.cancel()
}

// retire calls stop after d, unless keep is called first; a second call
// while the first one waits changes nothing.
func (i *gvrInformer) retire(d time.Duration, stop func()) {
	if i.retiring == nil {
		i.retiring = time.AfterFunc(d, stop)
	}
}

// keep cancels retire.
func (i *gvrInformer) keep() {
	if i.retiring != nil {
		i.retiring.Stop()
		i.retiring = nil
	}
}

// synced reports whether the cache is complete and still being kept
// current. It is so only once the owners of what it listed were told, so
// that a caller that waits for it (the agent's start) finds them told.
func (i *gvrInformer) synced() bool {
	return i.ctx.Err() == nil && i.listWatchOK.Load() && i.told.Load()
}

// get looks an object up in the cache; see Tracker.Get.
func (i *gvrInformer) get(namespace, name string) (*metav1.PartialObjectMetadata, bool, error) {
	return cached(i, namespace, name, func(item any) (*metav1.PartialObjectMetadata, bool) {
		switch obj := item.(type) {
		case *metav1.PartialObjectMetadata:
			return obj.DeepCopy(), true
		case *unstructured.Unstructured:
			return partialMetadata(obj), true
		}
		return nil, false
	})
}

// getObject looks an object up in a cache that keeps fields; see
// Tracker.GetObject.
func (i *gvrInformer) getObject(namespace, name string) (*unstructured.Unstructured, bool, error) {
	return cached(i, namespace, name, func(item any) (*unstructured.Unstructured, bool) {
		obj, ok := item.(*unstructured.Unstructured)
		if !ok {
			return nil, false
		}
		return obj.DeepCopy(), true
	})
}

// cached looks an object up in i's cache and returns what convert makes of
// it: the cached item is shared with the informer and other readers, so
// convert copies it, and says false for an item of a type it does not take.
// A nil object with synced true means there is none.
func cached[T any](i *gvrInformer, namespace, name string, convert func(item any) (T, bool)) (obj T, synced bool, err error) {
	key := cache.NewObjectName(namespace, name).String()
	item, exists, err := i.informer.GetIndexer().GetByKey(key)
	if err != nil {
		return obj, false, fmt.Errorf("read cache for %q: %w", key, err)
	}
	if !exists {
		return obj, true, nil
	}
	obj, ok := convert(item)
	if !ok {
		return obj, false, fmt.Errorf("cache holds %T for %q, want %T", item, key, obj)
	}
	return obj, true, nil
}

// stripMetadata returns the transform that keeps in the cache only what the
// agent reads from it: identity (namespace, name, UID, resourceVersion),
// owners, finalizers, deletion, and the ContentVersion computed from the
// managedFields. Labels, annotations (kubectl's last-applied copy of the
// whole object among them) and managedFields are dropped: at thousands of
// objects they would be most of the cache's memory. The namespace, owner
// references, finalizers and type of every object take the copies of strs:
// the objects of a work have one owner, whose name and UID would otherwise
// be held once per object.
func stripMetadata(strs *sharedstrings.Table) cache.TransformFunc {
	return func(obj interface{}) (interface{}, error) {
		m, ok := obj.(metav1.Object)
		if !ok {
			return obj, nil
		}
		version, writer := ContentVersion(m), LastWriter(m) // a copy stripped already keeps both
		m.SetManagedFields(nil)
		m.SetLabels(nil)
		m.SetAnnotations(nil)
		setCachedContentVersion(m, version, writer)
		shareStrings(strs, m)
		if p, ok := obj.(*metav1.PartialObjectMetadata); ok {
			strs.Intern(&p.APIVersion, &p.Kind)
		}
		return obj, nil
	}
}

// shareStrings replaces the strings of m that repeat across objects by the
// copies of strs.
func shareStrings(strs *sharedstrings.Table, m metav1.Object) {
	if ns := m.GetNamespace(); ns != "" {
		strs.Intern(&ns)
		m.SetNamespace(ns)
	}
	if refs := m.GetOwnerReferences(); len(refs) > 0 {
		for i := range refs {
			r := &refs[i]
			uid := string(r.UID)
			strs.Intern(&r.APIVersion, &r.Kind, &r.Name, &uid)
			r.UID = types.UID(uid)
		}
		m.SetOwnerReferences(refs)
	}
	if finalizers := m.GetFinalizers(); len(finalizers) > 0 {
		for i := range finalizers {
			strs.Intern(&finalizers[i])
		}
		m.SetFinalizers(finalizers)
	}
}

// logListWatchError logs why a list or watch ended. The reflector then retries
// with exponential backoff (up to 30s), so a type the agent may not list
// (Forbidden) or that no longer exists (NotFound) costs a request every 30s
// and a log line each time, not a busy loop.
func logListWatchError(ctx context.Context, _ *cache.Reflector, err error) {
	logger := klog.FromContext(ctx)
	switch {
	case errors.Is(err, io.EOF):
		// The server closed the watch normally; the reflector simply re-watches.
	case apierrors.IsResourceExpired(err) || apierrors.IsGone(err):
		logger.V(4).Info("Watch expired, relisting", "err", err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		logger.V(2).Info("Watch closed unexpectedly, retrying", "err", err)
	case apierrors.IsForbidden(err) || apierrors.IsNotFound(err):
		logger.Error(err, "Cannot list or watch objects; cache unavailable until this succeeds, retrying with backoff")
	default:
		logger.Error(err, "List or watch failed, retrying with backoff")
	}
}
