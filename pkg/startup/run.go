package startup

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"k8s.io/client-go/rest"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/healthz"
	"github.com/manifestwork/work/pkg/leaderelect"
	"github.com/manifestwork/work/pkg/metrics"
)

// Start connects a process to its clusters, each probed once, and builds
// its work; nothing runs yet. /readyz reports ready; the work's Lead sets it.
type Start func(ctx context.Context, ready *healthz.Readiness) (*Work, error)

// Work is what a started process runs.
type Work struct {
	// LeaseCluster is the cluster holding the Lease that elects the active
	// replica.
	LeaseCluster *rest.Config
	// Lead is the active replica's work. It runs until ctx is cancelled, or
	// the lease is lost, and returns once it has stopped.
	Lead func(ctx context.Context) error
	// Servers start what every replica serves, leader or not, from before
	// the lease until after Lead has returned. A server that stops by itself
	// stops the process.
	Servers []func(ctx context.Context) (Server, error)
}

// Server is a running server of Work.Servers.
type Server interface {
	// Done is closed once the server has stopped serving.
	Done() <-chan struct{}
	// Err says why it stopped other than by cancellation; read after Done.
	Err() error
}

// Run runs a process until ctx is cancelled, then stops its work and its
// servers, releases the lease and returns nil. Startup problems (invalid
// options as validate reports them, a busy probe address, what start
// returns: an unreadable kubeconfig, an unreachable cluster, a missing CRD)
// come back as one-line errors; a problem caused by ctx being cancelled
// during start is no error.
//
// Run applies the logging options, which are process-wide: a process that
// calls Run more than once (tests) sets logsapi.ReapplyHandling first.
func Run(ctx context.Context, o *Options, validate func() error, start Start) error {
	if err := validate(); err != nil {
		return err
	}
	ctx, err := o.apply(ctx)
	if err != nil {
		return err
	}
	metrics.Register() // every replica serves them at /metrics, leader or not
	ready := &healthz.Readiness{}
	health, err := healthz.Start(o.HealthProbeBindAddress, ready, o.healthOptions()...)
	if err != nil {
		return err
	}
	defer health.Stop()

	work, err := start(ctx, ready)
	if err != nil {
		if ctx.Err() != nil {
			return nil // interrupted while starting up
		}
		return err
	}
	return o.run(ctx, ready, work)
}

// apply applies the process-wide settings: logging and GOGC. The returned
// context logs under the process's name.
func (o *Options) apply(ctx context.Context) (context.Context, error) {
	if err := logsapi.ValidateAndApply(o.Logging, o.FeatureGate); err != nil {
		return nil, fmt.Errorf("logging: %w", err)
	}
	if o.process.GCPercent != 0 && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(o.process.GCPercent)
	}
	return klog.NewContext(ctx, klog.FromContext(ctx).WithName(o.process.Name)), nil
}

func (o *Options) healthOptions() []healthz.Option {
	if o.Profiling {
		return []healthz.Option{healthz.WithProfiling()}
	}
	return nil
}

// run starts the servers, then runs Lead under the lease, or at once without
// leader election. A standby is ready at once (see leaderelect.RunOrElect).
func (o *Options) run(ctx context.Context, ready *healthz.Readiness, work *Work) error {
	servers, err := startServers(ctx, work.Servers)
	if err != nil {
		return err
	}
	defer servers.stop() // last, after Lead has returned
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	servers.cancelWhenOneStops(ctx, stop)

	lease := leaderelect.Lease{
		Disabled: o.DisableLeaderElection, Config: work.LeaseCluster,
		Namespace: o.LeaderElectionNamespace, Name: o.process.LeaseName,
	}
	err = leaderelect.RunOrElect(ctx, lease, func() { ready.Set(true) }, work.Lead)
	if serverErr := servers.err(); serverErr != nil {
		return serverErr // it stopped by itself, and stopped the process
	}
	return err
}

// servers are the running Work.Servers.
type servers struct {
	running []Server
	cancel  context.CancelFunc
}

// startServers starts each server in turn with a context that outlives
// ctx: they stop only when stop is called. If one fails to start, those
// started are stopped.
func startServers(ctx context.Context, starts []func(context.Context) (Server, error)) (*servers, error) {
	serveCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &servers{cancel: cancel}
	for _, start := range starts {
		srv, err := start(serveCtx)
		if err != nil {
			s.stop()
			return nil, err
		}
		s.running = append(s.running, srv)
	}
	return s, nil
}

// stop stops the servers and waits until they have stopped serving.
func (s *servers) stop() {
	s.cancel()
	for _, srv := range s.running {
		<-srv.Done()
	}
}

// cancelWhenOneStops calls cancel when a server stops before ctx is done.
func (s *servers) cancelWhenOneStops(ctx context.Context, cancel context.CancelFunc) {
	for _, srv := range s.running {
		go func() {
			select {
			case <-srv.Done():
				cancel()
			case <-ctx.Done():
			}
		}()
	}
}

// err is the error of a server that has stopped by itself, if any.
func (s *servers) err() error {
	for _, srv := range s.running {
		select {
		case <-srv.Done():
			if err := srv.Err(); err != nil {
				return err
			}
		default:
		}
	}
	return nil
}
