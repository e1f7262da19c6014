package startup

import (
	"context"
	"sync"

	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/diagnostics"
)

// Controllers is the active replica's work as the agent and the hub shape
// it: informers, then, once their caches have synced, the controllers.
type Controllers struct {
	// Monitors run from before the informers start, whose requests wait
	// on them during outages, until everything else has stopped.
	Monitors []func(context.Context)
	// Informers are the informer factories, started first and shut down
	// once the controllers have stopped.
	Informers []InformerFactory
	// Synced are the caches the controllers wait for.
	Synced []cache.InformerSynced
	// Background runs beside the controllers, from when the caches have
	// synced.
	Background []func(context.Context)
	// Prepare runs in turn once the caches have synced, before the
	// controllers start; each returns within a bounded time.
	Prepare []func(context.Context)
	// Controllers run once prepared, each with its workers.
	Controllers []Controller
	// ReadyLog are the key-value pairs of the "Ready" log line.
	ReadyLog []any
	// Stop, if set, is called last, once everything has stopped.
	Stop func()
}

// InformerFactory is a shared informer factory.
type InformerFactory interface {
	Start(stop <-chan struct{})
	Shutdown()
}

// Controller is a controller with its number of workers.
type Controller struct {
	Controller interface {
		Run(ctx context.Context, workers int)
	}
	Workers int
}

// Lead is a Work.Lead: it builds the controllers with wire and runs them,
// ready once their caches have synced, until ctx is cancelled. It returns
// after the controllers and informers have stopped.
func Lead(ready *diagnostics.Readiness, wire func() (*Controllers, error)) func(context.Context) error {
	return func(ctx context.Context) error {
		ready.Set(false)
		defer ready.Set(false)

		c, err := wire()
		if err != nil {
			return err
		}
		if c.Stop != nil {
			defer c.Stop() // last: after the controllers have stopped
		}
		var wg sync.WaitGroup
		defer wg.Wait() // after the informers and controllers
		for _, run := range c.Monitors {
			wg.Go(func() { run(ctx) })
		}
		for _, f := range c.Informers {
			f.Start(ctx.Done())
			defer f.Shutdown() // after ctx is done: waits for the informers to stop
		}

		if !cache.WaitForNamedCacheSyncWithContext(ctx, c.Synced...) {
			return nil // cancelled before the caches synced
		}
		for _, run := range c.Background {
			wg.Go(func() { run(ctx) })
		}
		for _, prepare := range c.Prepare {
			prepare(ctx)
		}
		for _, r := range c.Controllers {
			wg.Go(func() { r.Controller.Run(ctx, r.Workers) })
		}
		klog.FromContext(ctx).Info("Ready", c.ReadyLog...)
		ready.Set(true)

		<-ctx.Done()
		klog.FromContext(ctx).Info("Shutting down")
		wg.Wait()
		return nil
	}
}
