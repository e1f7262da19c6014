package agent

import (
	"context"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/status/feedback"
	"github.com/manifestwork/work/pkg/diagnostics"
)

// informerResync is how often the informers replay every cached object to
// their handlers, so controllers re-check objects even without events.
const informerResync = 10 * time.Minute

// agentDeps is what the agent needs, all resolved before it starts.
type agentDeps struct {
	ClusterName string
	AgentID     string
	Hub         *rest.Config // the hub, with --hub-kube-api-qps/burst; nil with Source
	// Source delivers the works as CloudEvents (--workload-source-driver
	// mqtt or grpc); nil with the kube driver.
	Source  *source
	Spoke   *rest.Config // the managed cluster, with --kube-api-qps/burst
	Ready   *diagnostics.Readiness
	Workers int // concurrent ManifestWork reconciles
	// EvictionGracePeriod is how long an AppliedManifestWork whose work is gone stays.
	EvictionGracePeriod time.Duration
	// Feedback: how often polled manifests are read, how many watches may
	// run, and what JSONPaths values may return.
	StatusSyncInterval time.Duration
	MaxFeedbackWatch   int
	Feedback           feedback.Options
	// MaxStatusSize is the largest status written, in bytes of JSON.
	MaxStatusSize int
	// ExecutorCaching remembers executor permission decisions until RBAC
	// changes (the ExecutorValidatingCaches feature gate).
	ExecutorCaching bool
}

// agent is the active replica's work: informers now, controllers later.
type agent struct {
	agentDeps
}

func newAgent(d agentDeps) *agent {
	return &agent{agentDeps: d}
}

// run starts the informers and, once their caches have synced, the
// controllers; it reports ready then and blocks until ctx is cancelled. It
// returns after the controllers and informers have stopped.
func (a *agent) run(ctx context.Context) error {
	a.Ready.Set(false)
	defer a.Ready.Set(false)

	w, err := a.wire()
	if err != nil {
		return err
	}
	defer w.events.Shutdown() // last: after the controllers have stopped
	var wg sync.WaitGroup
	defer wg.Wait() // after the informers and controllers
	// The informers' requests wait on the monitors during outages.
	wg.Go(func() { w.monitors.Run(ctx) })
	for _, f := range w.factories {
		f.Start(ctx.Done())
		defer f.Shutdown() // after ctx is done: waits for the informers to stop
	}

	if !cache.WaitForNamedCacheSyncWithContext(ctx, w.synced...) {
		return nil // cancelled before the caches synced
	}
	for _, run := range w.background {
		wg.Go(func() { run(ctx) })
	}
	w.labelAppliedWorks(ctx)
	w.watchAppliedTypes(ctx)
	for _, c := range w.controllers {
		wg.Go(func() { c.controller.Run(ctx, c.workers) })
	}
	klog.FromContext(ctx).Info("Ready", "cluster", a.ClusterName, "hub", w.hubAddress, "agentID", a.AgentID)
	a.Ready.Set(true)

	<-ctx.Done()
	klog.FromContext(ctx).Info("Shutting down")
	wg.Wait()
	return nil
}
