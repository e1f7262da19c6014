// Package ttl deletes, on the hub, the ManifestWorks that set
// spec.deleteOption.ttlSecondsAfterFinished once that many seconds have passed
// since their Complete condition became True.
package ttl

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "ManifestWorkTTLController"

// Deps are the controller's collaborators.
type Deps struct {
	Client   workclient.Interface // deletes ManifestWorks on the hub
	Works    workinformers.ManifestWorkInformer
	Recorder events.Recorder
	Clock    clock.PassiveClock // nil means the real clock
}

// Controller deletes finished ManifestWorks whose TTL has expired.
type Controller struct {
	client workclient.Interface
	works  worklisters.ManifestWorkLister
	clock  clock.PassiveClock
}

// New returns the controller, ready to Run. Only works with a TTL are
// queued; each is requeued for the moment its TTL expires, so the controller
// needs no periodic resync.
func New(d Deps) factory.Controller {
	c := newController(d)
	return factory.New().
		WithFilteredEventsInformersQueueKeysFunc(workKey, hasTTL, d.Works.Informer()).
		WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder)
}

func newController(d Deps) *Controller {
	clk := d.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	return &Controller{client: d.Client, works: d.Works.Lister(), clock: clk}
}

// sync looks the work up and reconciles it; a work that is gone needs
// nothing. A work whose TTL has not expired yet is queued again for the
// moment it does.
func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil // not a key of ours; retrying cannot help
	}
	work, err := c.works.ManifestWorks(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	logger := klog.FromContext(ctx).WithValues("manifestWork", klog.KObj(work))
	remaining, err := c.reconcile(klog.NewContext(ctx, logger), work)
	if err != nil {
		return err
	}
	if remaining > 0 {
		logger.V(4).Info("TTL not expired yet", "remaining", remaining)
		syncCtx.Queue().AddAfter(key, remaining)
	}
	return nil
}

// reconcile deletes the work if its TTL has expired, and otherwise returns
// how long until it does; zero means there is nothing to wait for.
func (c *Controller) reconcile(ctx context.Context, work *workv1.ManifestWork) (time.Duration, error) {
	expiry, ok := expiresAt(work)
	if !ok || work.DeletionTimestamp != nil {
		return 0, nil
	}
	if remaining := expiry.Sub(c.clock.Now()); remaining > 0 {
		return remaining, nil
	}
	return 0, c.delete(ctx, work)
}

// delete deletes this very work: a work of the same name created since is
// left alone, and will be queued by its own events.
func (c *Controller) delete(ctx context.Context, work *workv1.ManifestWork) error {
	uid := work.UID
	err := c.client.WorkV1().ManifestWorks(work.Namespace).Delete(ctx, work.Name, metav1.DeleteOptions{
		Preconditions: &metav1.Preconditions{UID: &uid},
	})
	switch {
	case apierrors.IsNotFound(err), apierrors.IsConflict(err):
		return nil // gone already, or replaced by a new work
	case err != nil:
		return err
	}
	klog.FromContext(ctx).Info("Deleted the work: its TTL after finishing expired",
		"ttlSecondsAfterFinished", *work.Spec.DeleteOption.TTLSecondsAfterFinished)
	return nil
}

// expiresAt is when the work's TTL expires, if it has a TTL and its Complete
// condition is True.
func expiresAt(work *workv1.ManifestWork) (time.Time, bool) {
	if !hasTTL(work) {
		return time.Time{}, false
	}
	complete := apimeta.FindStatusCondition(work.Status.Conditions, workv1.WorkComplete)
	if complete == nil || complete.Status != metav1.ConditionTrue {
		return time.Time{}, false
	}
	ttl := time.Duration(*work.Spec.DeleteOption.TTLSecondsAfterFinished) * time.Second
	return complete.LastTransitionTime.Add(ttl), true
}

// hasTTL tells whether obj is a work with ttlSecondsAfterFinished set.
func hasTTL(obj any) bool {
	work, ok := obj.(*workv1.ManifestWork)
	return ok && work.Spec.DeleteOption != nil && work.Spec.DeleteOption.TTLSecondsAfterFinished != nil
}

func workKey(obj runtime.Object) []string {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return nil
	}
	return []string{key}
}
