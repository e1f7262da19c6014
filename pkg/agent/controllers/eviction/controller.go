// Package eviction evicts the AppliedManifestWorks of this agent
// whose ManifestWork is no longer on the hub the agent serves: the work was
// removed from the hub without the agent cleaning up (it was stopped, or the
// finalizer was forced off), or the agent now points at another hub.
//
// Such an AppliedManifestWork first gets status.evictionStartTime. If its work
// comes back within the grace period the mark is removed; otherwise the
// AppliedManifestWork is deleted and its finalizer removes what it applied,
// except objects that another AppliedManifestWork also owns (a new hub's work
// applying the same objects), which only lose the old owner reference.
package eviction

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/queuekeys"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "UnManagedAppliedManifestWorkController"

// Deps are the controller's collaborators.
type Deps struct {
	appliedwork.Agent // the cluster, hub and agent ID the records name
	// GracePeriod is how long an AppliedManifestWork stays after its work is
	// gone (--appliedmanifestwork-eviction-grace-period).
	GracePeriod time.Duration

	Works        workinformers.ManifestWorkInformer // on the hub
	SpokeClient  workclient.Interface               // AppliedManifestWorks on the managed cluster
	AppliedWorks workinformers.AppliedManifestWorkInformer
	Clock        clock.PassiveClock // nil means the real clock
	Recorder     events.Recorder
}

// Controller evicts orphaned AppliedManifestWorks.
type Controller struct {
	Deps
	works   worklisters.ManifestWorkNamespaceLister
	applied worklisters.AppliedManifestWorkLister
}

// New returns the controller, ready to Run. Its queue keys are
// AppliedManifestWork names.
func New(d Deps) factory.Controller {
	if d.Clock == nil {
		d.Clock = clock.RealClock{}
	}
	c := &Controller{
		Deps:    d,
		works:   d.Works.Lister().ManifestWorks(d.ClusterName),
		applied: d.AppliedWorks.Lister(),
	}
	return factory.New().
		WithInformersQueueKeysFunc(c.appliedWorkKey, d.AppliedWorks.Informer()).
		// A work that is deleted or comes back changes whether its record is orphaned.
		WithInformersQueueKeysFunc(queuekeys.AppliedOfWork(klog.Background().WithName(ControllerName), d.Agent), d.Works.Informer()).
		WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder)
}

// sync looks the AppliedManifestWork up, reconciles it and requeues it for
// the moment its grace period ends.
func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	name := syncCtx.QueueKey()
	applied, err := c.applied.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	logger := klog.FromContext(ctx).WithValues("appliedManifestWork", klog.KObj(applied),
		"manifestWork", klog.KRef(c.ClusterName, applied.Spec.ManifestWorkName))
	ctx = klog.NewContext(ctx, logger)

	next, err := c.reconcile(ctx, applied)
	switch {
	case apierrors.IsConflict(err):
		logger.V(2).Info("AppliedManifestWork changed meanwhile; checking again")
		syncCtx.Queue().AddRateLimited(name)
		return nil
	case apierrors.IsNotFound(err):
		return nil // deleted meanwhile; the cache will catch up
	}
	if err != nil {
		return err
	}
	if next > 0 {
		syncCtx.Queue().AddAfter(name, next)
	}
	return nil
}

// appliedWorkKey queues the AppliedManifestWorks of this agent only.
func (c *Controller) appliedWorkKey(obj runtime.Object) []string {
	applied, ok := obj.(*workv1.AppliedManifestWork)
	if !ok || applied.Spec.AgentID != c.AgentID {
		return nil
	}
	return []string{applied.Name}
}
