// Package manifestwork applies the manifests of the ManifestWorks in the
// agent's cluster namespace to the managed cluster and reports, in one status
// patch per reconcile, what happened to each.
package manifestwork

import (
	"context"
	"errors"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/apply/records"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/queuekeys"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "ManifestWorkController"

// ObjectCache answers from a watch cache whether an applied object exists and
// at which resourceVersion, so that unchanged objects cost no request.
type ObjectCache interface {
	// SetUses names the resource types, and their namespaces, whose
	// objects a work applies.
	SetUses(user string, uses []objectwatch.Use)
	// SetReads names the objects a work reads without owning them, whose
	// changes its owner references cannot route back to it.
	SetReads(user string, objects []objectwatch.ObjectKey)
	Get(gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, bool, error)
	// Wrote tells of an object the agent has just written, so that the add
	// event of its create is not taken for someone else's.
	Wrote(gvr schema.GroupVersionResource, obj metav1.Object)
	// WatchFailure tells why, and since when, the objects of a use are not
	// watched; ok is false while they are.
	WatchFailure(u objectwatch.Use) (failure objectwatch.WatchFailure, ok bool)
}

// Executors decides whether a work's executor may have a manifest applied.
// Epoch changes whenever RBAC on the managed cluster changed: a manifest
// denied in an earlier epoch is retried at once.
type Executors interface {
	MayApply(ctx context.Context, e *workv1.ManifestWorkExecutor, gvr schema.GroupVersionResource,
		obj *unstructured.Unstructured, strategy workv1.UpdateStrategyType, orphaned bool) error
	Epoch() uint64
}

// Deps are the controller's collaborators.
type Deps struct {
	appliedwork.Agent // the cluster, hub and agent ID the records name

	Writes       workwriter.Shared // the writes of ManifestWorks on the hub
	Works        workinformers.ManifestWorkInformer
	SpokeClient  workclient.Interface // AppliedManifestWorks on the managed cluster
	AppliedWorks workinformers.AppliedManifestWorkInformer
	Dynamic      dynamic.Interface // applied objects on the managed cluster
	Mapper       *manifest.Mapper
	Objects      ObjectCache
	Records      *records.Store // what was last applied of each manifest
	// OnRecorded, if set, is told the key of a work whose records changed,
	// so that they are persisted.
	OnRecorded  func(workKey string)
	Executors   Executors            // checks a work's executor before each write
	Recorder    events.Recorder      // library-go's, for the controller factory
	Events      record.EventRecorder // Kubernetes Events on the works, on the hub
	SyncContext factory.SyncContext  // its queue is shared with the ObjectCache's change callback
	// Cluster, when set, tells whether the managed cluster answers: while
	// it does not, nothing is applied, and an outage that lasts shows on
	// every work as Stalled (the agent's routing calls ReconcileAll then).
	Cluster Reachability
}

// Controller applies ManifestWorks. Besides its informers' events, what
// wakes it is declared by the agent's routing: the changes of applied
// objects, of the objects its works read (ObjectCache.SetReads), of the
// watches (their failures) and of RBAC, and RetryFailed and ReconcileAll.
type Controller struct {
	factory.Controller
	Deps
	works   worklisters.ManifestWorkNamespaceLister
	applied worklisters.AppliedManifestWorkLister
	writer  *workwriter.Writer // guarded: tells a lister copy our writes replaced
	mem     memories           // of each work, between its reconciles
	now     func() time.Time
}

// Failing manifests are retried with a per-work backoff from retryFirst up to
// retryMax: quick enough to pick up a CustomResourceDefinition or an RBAC
// grant that arrives a moment later, bounded so that a fix made hours later
// is still picked up within a minute.
const (
	retryFirst = 500 * time.Millisecond
	retryMax   = time.Minute
)

// New returns the controller, ready to Run.
func New(d Deps) *Controller {
	c := &Controller{
		Deps:    d,
		works:   d.Works.Lister().ManifestWorks(d.ClusterName),
		applied: d.AppliedWorks.Lister(),
		writer:  workwriter.New(d.Writes, ControllerName, workwriter.Guarded),
		now:     time.Now,
	}
	logger := klog.Background().WithName(ControllerName)
	c.Controller = queuekeys.WorkEvents(factory.New().WithSyncContext(d.SyncContext), logger,
		d.Agent, d.Works.Informer(), d.AppliedWorks.Informer()).
		WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder)
	return c
}

// sync looks the work up and reconciles it; a work that is gone needs
// nothing. Failing manifests are retried with the work's own backoff; other
// errors go back to the queue's rate limiter.
func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	ref, err := cache.ParseObjectName(key)
	name := ref.Name
	if err != nil {
		return nil // not a key of ours; retrying cannot help
	}
	work, err := c.works.Get(name)
	if apierrors.IsNotFound(err) {
		c.forget(name)
		return nil
	}
	if err != nil {
		return err
	}
	if c.writer.Outdated(work) {
		// The event of our own last write is on its way and brings the work
		// back with what we wrote.
		klog.FromContext(ctx).V(4).Info("Waiting for the informer to catch up with our write", "manifestWork", klog.KObj(work))
		return nil
	}
	if at, ok := c.retryPending(ref, work.Generation); ok {
		// Events in between, mostly our own status writes, do not bring the
		// retry forward; a new generation of the work or an RBAC change does.
		// The retry is armed again: the queue keeps only the earliest time
		// of a key, so a later retry scheduled while an earlier one waited
		// would otherwise be lost when the earlier one lands here.
		syncCtx.Queue().AddAfter(key, at.Sub(c.now()))
		return nil
	}
	logger := klog.FromContext(ctx).WithValues("manifestWork", klog.KObj(work))
	err = c.reconcile(klog.NewContext(ctx, logger), work)
	var later *retryLater
	switch {
	case errors.As(err, &later):
		mem := c.mem.of(ref)
		delay := mem.backoff()
		if later.within > 0 && later.within < delay {
			delay = later.within
		}
		logger.V(2).Info("Work not done; retrying", "after", delay, "err", err)
		mem.schedule(retry{generation: work.Generation, epoch: c.Executors.Epoch(), at: c.now().Add(delay)})
		syncCtx.Queue().AddAfter(key, delay)
		return nil
	case err == nil:
		if mem := c.mem.peek(ref); mem != nil {
			mem.succeeded()
		}
	}
	return err
}

// retryPending tells whether a retry of this generation is scheduled later,
// and when, and RBAC has not changed since it was scheduled.
func (c *Controller) retryPending(key cache.ObjectName, generation int64) (time.Time, bool) {
	mem := c.mem.peek(key)
	if mem == nil {
		return time.Time{}, false
	}
	r, ok := mem.scheduled()
	if !ok {
		return time.Time{}, false
	}
	return r.at, r.generation == generation && r.epoch == c.Executors.Epoch() && c.now().Before(r.at)
}

// RetryFailed retries at once every work whose reconcile failed lately,
// forgetting its backoff: after an outage, the backoff that the failures
// built up says nothing about the clusters any more.
func (c *Controller) RetryFailed() {
	works, _ := c.works.List(labels.Everything()) // a lister does not fail
	queue := c.SyncContext.Queue()
	for _, work := range works {
		queuekeys.RetryNow(queue, cache.MetaObjectToName(work).String(), backoff{c})
	}
}

// backoff is the controller's own per-work backoff, with the retry it has
// scheduled, as queuekeys.RetryNow sees it.
type backoff struct{ c *Controller }

func (b backoff) NumRequeues(key string) int {
	if mem := b.memory(key); mem != nil {
		return mem.retries()
	}
	return 0
}

func (b backoff) Forget(key string) {
	if mem := b.memory(key); mem != nil {
		mem.succeeded()
	}
}

func (b backoff) memory(key string) *workMemory {
	ref, err := cache.ParseObjectName(key)
	if err != nil {
		return nil
	}
	return b.c.mem.peek(ref)
}

// forget drops what the controller, and the collaborators that keep
// something per work, remember about a deleted work.
func (c *Controller) forget(name string) {
	ref := c.WorkRef(name)
	key := ref.String()
	c.mem.forget(ref)
	c.Objects.SetUses(key, nil)
	c.Objects.SetReads(key, nil)
	c.Records.Forget(key)
	c.writer.Forget(key)
}
