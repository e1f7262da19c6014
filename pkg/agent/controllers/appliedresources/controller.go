// Package appliedresources keeps the status of each AppliedManifestWork
// current with what its ManifestWork applied, and removes from the managed
// cluster the resources that were dropped from the work.
//
// status.appliedResources lists every resource of the work's
// status.resourceStatus.manifests whose Applied condition is True, each with
// the UID of the live object. That UID is what makes pruning safe: a resource
// that was recorded but is no longer in the work is deleted only while the
// object of that name still has the recorded UID.
package appliedresources

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/apply/records"
	"github.com/manifestwork/work/pkg/agent/queuekeys"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "AppliedManifestWorkController"

const (
	// missingRecheck is how soon a work is looked at again after one of its
	// applied objects was not in the watch cache: just created and not seen
	// yet (milliseconds), or deleted and being put back.
	missingRecheck = time.Second
)

// Deps are the controller's collaborators.
type Deps struct {
	appliedwork.Agent // the cluster and hub the records name

	Works        workinformers.ManifestWorkInformer // on the hub, in ClusterName
	SpokeClient  workclient.Interface               // AppliedManifestWorks on the managed cluster
	AppliedWorks workinformers.AppliedManifestWorkInformer
	Metadata     metadata.Interface      // applied objects on the managed cluster
	Objects      appliedwork.ObjectCache // watch cache of applied objects
	// Records, if set, are persisted in the AppliedManifestWork's
	// records.Annotation once the work's status is current.
	Records  *records.Store
	Recorder events.Recorder
	// Events, when set, receives a Warning Event on a work whose dropped
	// resources have not been pruned for a while (EventPruneFailed).
	Events record.EventRecorder
	// SyncContext, when set, is the controller's queue; share it with the
	// object cache's change callback (the wiring adds work keys to it). Nil makes a new one.
	SyncContext factory.SyncContext
}

// Controller reconciles AppliedManifestWork status with the works.
type Controller struct {
	Deps
	works   worklisters.ManifestWorkNamespaceLister
	applied worklisters.AppliedManifestWorkLister
	cleaner *appliedwork.Cleaner
	logger  klog.Logger // for the queue key functions, which have no context
	// pruneFailures is since when pruning fails, by work key.
	pruneFailures stalled.Failures
	now           func() time.Time
	// replaced holds, by AppliedManifestWork name, the resourceVersions our
	// own writes replaced, until the lister shows a newer one.
	replaced workwriter.OwnWrites[string, string]
}

// New returns the controller, ready to Run.
func New(d Deps) factory.Controller {
	if d.SyncContext == nil {
		d.SyncContext = factory.NewSyncContext(ControllerName, d.Recorder)
	}
	c := newController(d)
	f := factory.New().WithSyncContext(d.SyncContext)
	return queuekeys.WorkEvents(f, c.logger, d.Agent, d.Works.Informer(), d.AppliedWorks.Informer()).
		WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder)
}

func newController(d Deps) *Controller {
	return &Controller{
		Deps:    d,
		works:   d.Works.Lister().ManifestWorks(d.ClusterName),
		applied: d.AppliedWorks.Lister(),
		cleaner: &appliedwork.Cleaner{Client: d.Metadata, Objects: d.Objects},
		logger:  klog.Background().WithName(ControllerName),
		now:     time.Now,
	}
}

// sync looks the work up and reconciles it; a work that is gone needs nothing
// here: its AppliedManifestWork is finalized elsewhere.
func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	ref, err := cache.ParseObjectName(syncCtx.QueueKey())
	name := ref.Name
	if err != nil || ref.Namespace != c.ClusterName {
		return nil // not a key of ours; retrying cannot help
	}
	work, err := c.works.Get(name)
	if apierrors.IsNotFound(err) {
		c.replaced.Forget(c.AppliedName(name))
		c.pruneFailures.Succeeded(syncCtx.QueueKey())
		return nil
	}
	if err != nil {
		return err
	}
	logger := klog.FromContext(ctx).WithValues("manifestWork", klog.KObj(work))
	after, err := c.reconcile(klog.NewContext(ctx, logger), work)
	if queuekeys.RetryConflict(ctx, syncCtx, err) {
		return nil
	}
	if err == nil && after > 0 {
		syncCtx.Queue().AddAfter(syncCtx.QueueKey(), after)
	}
	return err
}
