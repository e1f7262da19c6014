package objectwatch

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
)

// fakeClient is an in-memory metadata.Interface for the tests.
//
// k8s.io/client-go/metadata/fake is not vendored in this module, and this fake
// also does what that one does not: every change gets a resourceVersion and
// Watch replays the changes made after the resourceVersion it is given, like
// a real API server. An informer therefore never misses a change made between
// its list and its watch, so tests can change objects as soon as Get reports
// synced, without sleeping.
type fakeClient struct {
	mu        sync.Mutex
	rv        int64
	resources map[schema.GroupVersionResource]*fakeResource
}

type fakeResource struct {
	objects   map[string]*metav1.PartialObjectMetadata // by namespace/name key
	history   []watch.Event                            // every change, oldest first
	watchers  []*fakeWatch
	err       error       // returned by List and Watch while set
	watchErr  error       // returned by Watch while set
	listCalls []time.Time // when List was called
}

func newFakeClient() *fakeClient {
	return &fakeClient{resources: map[schema.GroupVersionResource]*fakeResource{}}
}

var _ metadata.Interface = &fakeClient{}

// IsWatchListSemanticsUnSupported tells the reflector to list and then watch,
// since this fake cannot stream the initial list over a watch.
func (c *fakeClient) IsWatchListSemanticsUnSupported() bool { return true }

func (c *fakeClient) Resource(gvr schema.GroupVersionResource) metadata.Getter {
	return &fakeResourceClient{client: c, gvr: gvr}
}

// resourceLocked returns the state of gvr, creating it on first use.
func (c *fakeClient) resourceLocked(gvr schema.GroupVersionResource) *fakeResource {
	r, ok := c.resources[gvr]
	if !ok {
		r = &fakeResource{objects: map[string]*metav1.PartialObjectMetadata{}}
		c.resources[gvr] = r
	}
	return r
}

// --- test-side controls ---

// create stores a copy of obj with a new resourceVersion and UID.
func (c *fakeClient) create(gvr schema.GroupVersionResource, obj *metav1.PartialObjectMetadata) *metav1.PartialObjectMetadata {
	c.mu.Lock()
	defer c.mu.Unlock()
	obj = obj.DeepCopy()
	if obj.UID == "" {
		obj.UID = types.UID("uid-" + obj.Namespace + "-" + obj.Name)
	}
	c.storeLocked(gvr, watch.Added, obj)
	return obj.DeepCopy()
}

// nextVersion is the resourceVersion the next change will have.
func (c *fakeClient) nextVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strconv.FormatInt(c.rv+1, 10)
}

// update replaces the stored object after mutate, with a new resourceVersion.
func (c *fakeClient) update(gvr schema.GroupVersionResource, namespace, name string, mutate func(*metav1.PartialObjectMetadata)) *metav1.PartialObjectMetadata {
	c.mu.Lock()
	defer c.mu.Unlock()
	obj := c.resourceLocked(gvr).objects[cache.NewObjectName(namespace, name).String()].DeepCopy()
	mutate(obj)
	c.storeLocked(gvr, watch.Modified, obj)
	return obj.DeepCopy()
}

// replayUnchanged sends a Modified event carrying the stored object with its
// current resourceVersion, which a real server never does; it stands for any
// update notification in which nothing changed.
func (c *fakeClient) replayUnchanged(gvr schema.GroupVersionResource, namespace, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	obj := c.resourceLocked(gvr).objects[cache.NewObjectName(namespace, name).String()]
	c.broadcastLocked(gvr, watch.Event{Type: watch.Modified, Object: obj.DeepCopy()})
}

// delete removes an object and sends a Deleted event.
func (c *fakeClient) delete(gvr schema.GroupVersionResource, namespace, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.resourceLocked(gvr)
	key := cache.NewObjectName(namespace, name).String()
	obj := r.objects[key]
	delete(r.objects, key)
	c.rv++
	obj.ResourceVersion = strconv.FormatInt(c.rv, 10)
	c.recordLocked(gvr, watch.Event{Type: watch.Deleted, Object: obj})
}

// deleteUnseen removes an object without any watch event and ends every watch
// of gvr as expired, so informers must relist and find out on their own.
func (c *fakeClient) deleteUnseen(gvr schema.GroupVersionResource, namespace, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.resourceLocked(gvr)
	delete(r.objects, cache.NewObjectName(namespace, name).String())
	c.rv++
	r.history = nil // nothing can be replayed any more
	expired := apierrors.NewResourceExpired("too old resource version")
	for _, w := range r.watchers {
		w.Error(&expired.ErrStatus)
		w.Stop()
	}
	r.watchers = nil
}

// fail makes List and Watch of gvr return err (nil restores them), and ends
// the current watches so informers have to call them again.
func (c *fakeClient) fail(gvr schema.GroupVersionResource, err error) {
	c.setFailure(gvr, func(r *fakeResource) { r.err = err }, err != nil)
}

// failWatch makes Watch of gvr return err (nil restores it), and ends the
// current watches: the type may be listed, not watched.
func (c *fakeClient) failWatch(gvr schema.GroupVersionResource, err error) {
	c.setFailure(gvr, func(r *fakeResource) { r.watchErr = err }, err != nil)
}

func (c *fakeClient) setFailure(gvr schema.GroupVersionResource, set func(*fakeResource), endWatches bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.resourceLocked(gvr)
	set(r)
	if !endWatches {
		return
	}
	for _, w := range r.watchers {
		w.Stop()
	}
	r.watchers = nil
}

// listTimes returns when List was called for gvr.
func (c *fakeClient) listTimes(gvr schema.GroupVersionResource) []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Time(nil), c.resourceLocked(gvr).listCalls...)
}

// activeWatches counts the watches of gvr that their consumer has not stopped.
func (c *fakeClient) activeWatches(gvr schema.GroupVersionResource) int {
	return len(c.watchedNamespaces(gvr))
}

// watchedNamespaces lists the namespace of every watch of gvr that its
// consumer has not stopped, "" for a watch of every namespace.
func (c *fakeClient) watchedNamespaces(gvr schema.GroupVersionResource) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, w := range c.resourceLocked(gvr).watchers {
		if !w.IsStopped() {
			out = append(out, w.namespace)
		}
	}
	slices.Sort(out)
	return out
}

// fakeWatch is a watch of one namespace, or of all when namespace is "".
type fakeWatch struct {
	*watch.RaceFreeFakeWatcher
	namespace string
}

func (w *fakeWatch) sees(obj *metav1.PartialObjectMetadata) bool {
	return w.namespace == "" || obj.Namespace == w.namespace
}

func (c *fakeClient) storeLocked(gvr schema.GroupVersionResource, typ watch.EventType, obj *metav1.PartialObjectMetadata) {
	c.rv++
	obj.ResourceVersion = strconv.FormatInt(c.rv, 10)
	c.resourceLocked(gvr).objects[cache.MetaObjectToName(obj).String()] = obj
	c.recordLocked(gvr, watch.Event{Type: typ, Object: obj.DeepCopy()})
}

func (c *fakeClient) recordLocked(gvr schema.GroupVersionResource, ev watch.Event) {
	r := c.resourceLocked(gvr)
	r.history = append(r.history, ev)
	c.broadcastLocked(gvr, ev)
}

// broadcastLocked sends a copy of ev to every open watch: informers mutate
// what they receive.
func (c *fakeClient) broadcastLocked(gvr schema.GroupVersionResource, ev watch.Event) {
	for _, w := range c.resourceLocked(gvr).watchers {
		if obj := ev.Object.(*metav1.PartialObjectMetadata); w.sees(obj) {
			w.Action(ev.Type, obj.DeepCopy())
		}
	}
}

// --- metadata.Getter / metadata.ResourceInterface ---

type fakeResourceClient struct {
	client    *fakeClient
	gvr       schema.GroupVersionResource
	namespace string
}

var errUnsupported = errors.New("not supported by the fake metadata client")

func (f *fakeResourceClient) Namespace(ns string) metadata.ResourceInterface {
	return &fakeResourceClient{client: f.client, gvr: f.gvr, namespace: ns}
}

func (f *fakeResourceClient) List(_ context.Context, _ metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	c := f.client
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.resourceLocked(f.gvr)
	r.listCalls = append(r.listCalls, time.Now())
	if r.err != nil {
		return nil, r.err
	}
	list := &metav1.PartialObjectMetadataList{}
	list.ResourceVersion = strconv.FormatInt(c.rv, 10)
	for _, obj := range r.objects {
		if f.namespace == "" || obj.Namespace == f.namespace {
			list.Items = append(list.Items, *obj.DeepCopy())
		}
	}
	return list, nil
}

func (f *fakeResourceClient) Watch(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	c := f.client
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.resourceLocked(f.gvr)
	if r.err != nil {
		return nil, r.err
	}
	if r.watchErr != nil {
		return nil, r.watchErr
	}
	if opts.SendInitialEvents != nil {
		return nil, apierrors.NewBadRequest("the fake does not stream initial events")
	}
	from, err := strconv.ParseInt(opts.ResourceVersion, 10, 64)
	if err != nil {
		return nil, apierrors.NewBadRequest("the fake needs a numeric resourceVersion to watch from")
	}
	w := &fakeWatch{RaceFreeFakeWatcher: watch.NewRaceFreeFake(), namespace: f.namespace}
	for _, ev := range r.history {
		obj := ev.Object.(*metav1.PartialObjectMetadata)
		if rv, _ := strconv.ParseInt(obj.ResourceVersion, 10, 64); rv > from && w.sees(obj) {
			w.Action(ev.Type, obj.DeepCopy())
		}
	}
	r.watchers = append(r.watchers, w)
	return w, nil
}

func (f *fakeResourceClient) Get(_ context.Context, name string, _ metav1.GetOptions, _ ...string) (*metav1.PartialObjectMetadata, error) {
	c := f.client
	c.mu.Lock()
	defer c.mu.Unlock()
	obj, ok := c.resourceLocked(f.gvr).objects[cache.NewObjectName(f.namespace, name).String()]
	if !ok {
		return nil, apierrors.NewNotFound(f.gvr.GroupResource(), name)
	}
	return obj.DeepCopy(), nil
}

func (f *fakeResourceClient) Delete(context.Context, string, metav1.DeleteOptions, ...string) error {
	return errUnsupported
}

func (f *fakeResourceClient) DeleteCollection(context.Context, metav1.DeleteOptions, metav1.ListOptions) error {
	return errUnsupported
}

func (f *fakeResourceClient) Patch(context.Context, string, types.PatchType, []byte, metav1.PatchOptions, ...string) (*metav1.PartialObjectMetadata, error) {
	return nil, errUnsupported
}
