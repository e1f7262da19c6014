// Package availability reports whether the objects a ManifestWork applied
// exist on the managed cluster, and whether they are healthy: the Available
// and Healthy conditions of each manifest and of the whole work, in at most
// one status patch per reconcile. Health is judged by the rules of
// pkg/agent/status/health from the watch cache, which keeps the fields they read.
//
// Existence is read from the agent's watch cache of applied objects, so an
// idle agent sends no request for it; the cache's change callback requeues a
// work as soon as one of its objects is deleted. While a resource is missing
// or unknown the work is checked again with backoff (1s up to 30s, from the
// cache); otherwise only a five-minute safety net requeues it.
//
// The computation (Assessor) is shared with the status feedback controller,
// which writes it for a work with feedback or condition rules, in the same
// patch as its values: this controller leaves such a work to it.
package availability

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/queuekeys"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "AvailableStatusController"

const (
	// resyncInterval is the safety net: every work is checked again this
	// often even without events. With a synced cache that costs no request.
	resyncInterval = 5 * time.Minute
	// jitterFactor spreads the safety-net requeues of many works.
	jitterFactor = 0.1
	// A work with a missing or unknown resource is checked again after
	// recheckFirst, doubling up to recheckMax while it stays so. The cache
	// reports deletions but not creations: an object that comes back (the
	// apply recreates a deleted one within moments) is noticed by a recheck.
	recheckFirst = time.Second
	recheckMax   = 30 * time.Second
)

// ObjectCache answers from a watch cache whether an applied object exists.
// synced is false when the cache cannot answer for gvr; a nil object with
// synced true means the object does not exist.
type ObjectCache interface {
	Get(gvr schema.GroupVersionResource, namespace, name string) (obj *metav1.PartialObjectMetadata, synced bool, err error)
	// GetObject returns the object with the fields its health rule reads;
	// synced is false when the cache of gvr keeps no such fields or cannot
	// answer yet.
	GetObject(gvr schema.GroupVersionResource, namespace, name string) (obj *unstructured.Unstructured, synced bool, err error)
	// DeletedSince tells that the watch saw an object of that name deleted at
	// or after since.
	DeletedSince(gvr schema.GroupVersionResource, namespace, name string, since time.Time) bool
}

// Deps are the controller's collaborators.
type Deps struct {
	ClusterName string

	Writes workwriter.Shared // the writes of ManifestWork status on the hub
	Works  workinformers.ManifestWorkInformer
	// Assessor computes the status this controller writes; the status
	// feedback controller shares it (NewAssessor).
	Assessor    *Assessor
	Recorder    events.Recorder
	SyncContext factory.SyncContext // its queue also receives the ObjectCache's change callbacks
}

// Controller sets the Available conditions of ManifestWorks.
type Controller struct {
	Deps
	works  worklisters.ManifestWorkNamespaceLister
	writer *workwriter.Writer
}

// New returns the controller, ready to Run.
func New(d Deps) factory.Controller {
	c := &Controller{
		Deps:   d,
		works:  d.Works.Lister().ManifestWorks(d.ClusterName),
		writer: workwriter.New(d.Writes, ControllerName, workwriter.Paced),
	}
	return factory.New().
		WithSyncContext(d.SyncContext).
		WithInformersQueueKeysFunc(queuekeys.Work(klog.Background().WithName(ControllerName)), d.Works.Informer()).
		WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder)
}

// sync looks the work up, reconciles it and schedules its next check. A work
// that is gone needs nothing; a status written meanwhile by someone else
// means the work is simply checked again.
func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	ref, err := cache.ParseObjectName(key)
	name := ref.Name
	if err != nil {
		return nil // not a key of ours; retrying cannot help
	}
	work, err := c.works.Get(name)
	if apierrors.IsNotFound(err) {
		c.Assessor.Forget(key)
		c.writer.Forget(key)
		return nil
	}
	if err != nil {
		return err
	}
	logger := klog.FromContext(ctx).WithValues("manifestWork", klog.KObj(work))
	ctx = klog.NewContext(ctx, logger)

	result, err := c.reconcile(ctx, work)
	switch {
	case queuekeys.RetryLater(ctx, syncCtx, err):
		return nil
	case apierrors.IsNotFound(err):
		return nil // deleted meanwhile; the cache will catch up
	}
	if err != nil {
		return err
	}
	if result != finished {
		syncCtx.Queue().AddAfter(key, c.Assessor.Recheck(key, result == unsettled))
	}
	return nil
}

func newRechecks() workqueue.TypedRateLimiter[string] {
	return workqueue.NewTypedItemExponentialFailureRateLimiter[string](recheckFirst, recheckMax)
}
