// Package statusfeedback reports, for the manifests that ask for it, values
// read from the live objects (feedback rules) and conditions computed from
// them (condition rules), polled every --status-sync-interval or watched.
//
// A work with such rules has its availability and health (the assessment of
// package availability) written by this controller too, in the same patch:
// when its objects settle (a Deployment ready, a Job complete), the new
// values and the new Healthy cost one write, as in OCM's agent, where two
// controllers each writing their part cost two. The availability controller
// leaves such a work alone, and whatever wakes it for the work's objects
// wakes this controller too.
package statusfeedback

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/queuekeys"
	"github.com/manifestwork/work/pkg/agent/status/conditionrules"
	"github.com/manifestwork/work/pkg/agent/status/feedback"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "StatusFeedbackController"

// jitterFactor spreads the polls of many works over the interval.
const jitterFactor = 0.5

// Deps are the controller's collaborators.
type Deps struct {
	ClusterName string
	Writes      workwriter.Shared // the writes of ManifestWork status on the hub
	Works       workinformers.ManifestWorkInformer
	Dynamic     dynamic.Interface
	// Objects serves the objects of feedbackScrapeType Watch, watched as
	// many as its limit (--max-feedback-watch) allows; their changes are
	// to requeue the works reading them (objectwatch.Deps.OnWholeChange).
	Objects  *objectwatch.Tracker
	Feedback feedback.Options
	Rules    *conditionrules.Evaluator
	Interval time.Duration // --status-sync-interval
	// Availability, shared with the availability controller, assesses the
	// availability and health of a work with rules, which this controller
	// then writes with its own part; nil writes this controller's part
	// alone.
	Availability *availability.Assessor
	Recorder     events.Recorder
	SyncContext  factory.SyncContext
}

// Controller collects feedback and evaluates condition rules.
type Controller struct {
	Deps
	works  worklisters.ManifestWorkNamespaceLister
	writer *workwriter.Writer
}

// New returns the controller.
func New(d Deps) factory.Controller {
	if d.SyncContext == nil {
		d.SyncContext = factory.NewSyncContext(ControllerName, d.Recorder)
	}
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

// sync looks the work up, reconciles it and schedules its next poll.
func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	ref, err := cache.ParseObjectName(key)
	name := ref.Name
	if err != nil {
		return nil
	}
	work, err := c.works.Get(name)
	if apierrors.IsNotFound(err) {
		c.release(key)
		c.writer.Forget(key)
		return nil
	}
	if err != nil {
		return err
	}
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("manifestWork", klog.KObj(work)))
	r, err := c.reconcile(ctx, key, work)
	if queuekeys.RetryLater(ctx, syncCtx, err) {
		return nil
	}
	// The queue keeps one delayed entry per work, the earliest: however
	// many syncs ask, a work has one next sync scheduled.
	if r.polled {
		syncCtx.Queue().AddAfter(key, wait.Jitter(c.Interval, jitterFactor))
	}
	if r.assessed && err == nil {
		// What the availability controller does for a work without rules:
		// an unsettled object is looked at again soon, with backoff, the
		// others by the safety net.
		syncCtx.Queue().AddAfter(key, c.Availability.Recheck(key, r.unsettled))
	}
	return err
}

// release drops what is kept for a work that is gone or released
// (workwriter.Released): its whole reads (their watches) and the
// availability assessment's state.
func (c *Controller) release(key string) {
	c.Objects.SetWholeReads(key, nil)
	if c.Availability != nil {
		c.Availability.Forget(key)
	}
}
