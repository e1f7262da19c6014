// Package controllertest has the fakes that the tests of controllers, the
// agent's and the hub's, share: applied objects as metadata, a metadata client holding
// them, an object cache, the writes a fake client saw, and a sync context
// whose queue records what a sync puts back.
package controllertest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	k8smetrics "k8s.io/component-base/metrics"
	metricstestutil "k8s.io/component-base/metrics/testutil"
	"k8s.io/utils/clock"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Resource types used by the tests.
var (
	ConfigMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	Deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	Namespaces  = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

var kinds = map[schema.GroupVersionResource]string{
	ConfigMaps:  "ConfigMap",
	Deployments: "Deployment",
	Namespaces:  "Namespace",
}

// Object is the metadata of an applied object of one of the test types.
func Object(gvr schema.GroupVersionResource, namespace, name string, uid types.UID, owners ...metav1.OwnerReference) *metav1.PartialObjectMetadata {
	kind, ok := kinds[gvr]
	if !ok {
		panic(fmt.Sprintf("controllertest: no kind for %s", gvr))
	}
	return &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: gvr.GroupVersion().String(), Kind: kind},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace, Name: name, UID: uid, ResourceVersion: "7", OwnerReferences: owners,
		},
	}
}

// Terminating marks obj as being deleted, held by a finalizer.
func Terminating(obj *metav1.PartialObjectMetadata) *metav1.PartialObjectMetadata {
	now := metav1.Now()
	obj.DeletionTimestamp = &now
	obj.Finalizers = append(obj.Finalizers, "example.com/hold")
	return obj
}

// Resource is the applied-resource record of obj.
func Resource(gvr schema.GroupVersionResource, namespace, name string, uid types.UID) workv1.AppliedManifestResourceMeta {
	return workv1.AppliedManifestResourceMeta{
		ResourceIdentifier: workv1.ResourceIdentifier{Group: gvr.Group, Resource: gvr.Resource, Namespace: namespace, Name: name},
		Version:            gvr.Version,
		UID:                string(uid),
	}
}

// NewClient is a fake metadata client holding objs.
func NewClient(t testing.TB, objs ...*metav1.PartialObjectMetadata) *metadatafake.FakeMetadataClient {
	t.Helper()
	scheme := metadatafake.NewTestScheme()
	if err := metav1.AddMetaToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	var objects []runtime.Object
	for _, obj := range objs {
		objects = append(objects, obj.DeepCopy())
	}
	return metadatafake.NewSimpleMetadataClient(scheme, objects...)
}

// Stored returns the object the client holds, or nil.
func Stored(t testing.TB, client *metadatafake.FakeMetadataClient, gvr schema.GroupVersionResource, namespace, name string) *metav1.PartialObjectMetadata {
	t.Helper()
	obj, err := client.Tracker().Get(gvr, namespace, name)
	if err != nil {
		return nil
	}
	m, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok {
		t.Fatalf("tracker holds %T", obj)
	}
	return m
}

// Writes lists the write actions sent to a fake client, as "verb resource
// namespace/name", the resource followed by "/subresource" if there is one
// (e.g. "patch manifestworks/status cluster1/web").
func Writes(actions []clienttesting.Action) []string {
	var out []string
	for _, a := range actions {
		switch a.GetVerb() {
		case "get", "list", "watch":
			continue
		}
		name := ""
		switch a := a.(type) {
		case clienttesting.DeleteAction:
			name = a.GetName()
		case clienttesting.PatchAction:
			name = a.GetName()
		case clienttesting.UpdateAction:
			if m, ok := a.GetObject().(metav1.Object); ok {
				name = m.GetName()
			}
		case clienttesting.CreateAction:
			if m, ok := a.GetObject().(metav1.Object); ok {
				name = m.GetName()
			}
		}
		key := name
		if ns := a.GetNamespace(); ns != "" {
			key = ns + "/" + name
		}
		resource := a.GetResource().Resource
		if sub := a.GetSubresource(); sub != "" {
			resource += "/" + sub
		}
		out = append(out, strings.Join([]string{a.GetVerb(), resource, key}, " "))
	}
	return out
}

// Cache is an object cache whose contents the test sets. A type it has no
// entry for is not synced.
type Cache map[schema.GroupVersionResource]map[string]*metav1.PartialObjectMetadata

// Put stores objs in the cache, marking their type synced.
func (c Cache) Put(gvr schema.GroupVersionResource, objs ...*metav1.PartialObjectMetadata) Cache {
	if c[gvr] == nil {
		c[gvr] = map[string]*metav1.PartialObjectMetadata{}
	}
	for _, obj := range objs {
		c[gvr][obj.Namespace+"/"+obj.Name] = obj.DeepCopy()
	}
	return c
}

// Get implements the object cache.
// Deleted is false: this cache has seen no deletions.
func (c Cache) Deleted(schema.GroupVersionResource, types.UID) bool { return false }

func (c Cache) Get(gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, bool, error) {
	objs, synced := c[gvr]
	if !synced {
		return nil, false, nil
	}
	if obj, ok := objs[namespace+"/"+name]; ok {
		return obj.DeepCopy(), true, nil
	}
	return nil, true, nil
}

// SyncContext is a controller sync context for one queue key, whose queue
// records what the controller puts back.
type SyncContext struct {
	Key string
	Q   *RecordingQueue
}

// NewSyncContext is a sync context for key.
func NewSyncContext(key string) *SyncContext {
	return &SyncContext{Key: key, Q: &RecordingQueue{}}
}

var _ factory.SyncContext = &SyncContext{}

func (s *SyncContext) Queue() workqueue.RateLimitingInterface { return s.Q }
func (s *SyncContext) QueueKey() string                       { return s.Key }
func (s *SyncContext) Recorder() events.Recorder {
	return events.NewInMemoryRecorder("test", clock.RealClock{})
}

// RecordingQueue records Add, AddAfter and AddRateLimited; any other use
// panics.
type RecordingQueue struct {
	workqueue.RateLimitingInterface
	Added       []any           // items of Add and AddAfter, in call order
	After       []time.Duration // delays of AddAfter, in call order
	RateLimited []any           // items of AddRateLimited, in call order

	afterItems []any // items of AddAfter, matching After
}

func (q *RecordingQueue) Add(item any) { q.Added = append(q.Added, item) }

func (q *RecordingQueue) AddAfter(item any, d time.Duration) {
	q.Added = append(q.Added, item)
	q.After = append(q.After, d)
	q.afterItems = append(q.afterItems, item)
}

func (q *RecordingQueue) AddRateLimited(item any) { q.RateLimited = append(q.RateLimited, item) }

// Delay is the delay of the last AddAfter of item, and whether there was one.
func (q *RecordingQueue) Delay(item any) (time.Duration, bool) {
	for i := len(q.afterItems) - 1; i >= 0; i-- {
		if q.afterItems[i] == item {
			return q.After[i], true
		}
	}
	return 0, false
}

// Calls records, safe for concurrent use, the strings a callback was called with.
type Calls struct {
	mu   sync.Mutex
	list []string
}

// Add records one call.
func (c *Calls) Add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = append(c.list, s)
}

// List returns the calls so far, in order.
func (c *Calls) List() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.list)
}

// Recorded takes the Events a fake recorder holds so far, each as
// "type reason message".
func Recorded(r *record.FakeRecorder) []string {
	var out []string
	for {
		select {
		case ev := <-r.Events:
			out = append(out, ev)
		default:
			return out
		}
	}
}

// CounterValue is the value of a counter; the test fails when it cannot be
// read.
func CounterValue(t testing.TB, c k8smetrics.CounterMetric) float64 {
	t.Helper()
	v, err := metricstestutil.GetCounterMetricValue(c)
	if err != nil {
		t.Fatalf("reading a counter: %v", err)
	}
	return v
}

// GaugeValue is the value of a gauge; the test fails when it cannot be read.
func GaugeValue(t testing.TB, g k8smetrics.GaugeMetric) float64 {
	t.Helper()
	v, err := metricstestutil.GetGaugeMetricValue(g)
	if err != nil {
		t.Fatalf("reading a gauge: %v", err)
	}
	return v
}
