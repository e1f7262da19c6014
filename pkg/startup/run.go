package startup

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"runtime/debug"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/diagnostics"
	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/filewatch"
	"github.com/manifestwork/work/pkg/leaderelect"
	"github.com/manifestwork/work/pkg/metrics"
)

// Start connects a process to its clusters, each probed once, and builds
// its work; nothing runs yet. /readyz reports ready; the work's Lead sets it.
type Start func(ctx context.Context, ready *diagnostics.Readiness) (*Work, error)

// Work is what a started process runs.
type Work struct {
	// LeaseCluster is the cluster holding the Lease that elects the active
	// replica.
	LeaseCluster *rest.Config
	// Lead is the active replica's work. It runs until ctx is cancelled, or
	// the lease is lost, and returns once it has stopped. A process without
	// one (Process.WithoutLease) only runs its Servers, and is ready once they
	// have started.
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

// Run runs a process until ctx is cancelled, or a file of
// --terminate-on-files changes, then stops its work and its servers,
// releases the lease and returns nil. Every replica serves the probes and
// metrics on --health-probe-bind-address (HTTP) and --listen (HTTPS).
// Startup problems (invalid options as validate reports them, a busy probe
// address, what start returns: an unreadable kubeconfig, an unreachable
// cluster, a missing CRD) come back as one-line errors; a problem caused by
// ctx being cancelled during start is no error.
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
	o.reportUnimplementedGates(ctx)
	ready := &diagnostics.Readiness{}
	stopProbes, err := o.startProbes(ctx, ready)
	if err != nil {
		return err
	}
	defer stopProbes()
	ctx, terminate := context.WithCancel(ctx)
	defer terminate()
	if err := o.terminateOnFiles(ctx, terminate); err != nil {
		return err
	}

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

// plainOptions is what the plain-HTTP address serves besides the probes:
// the metrics and profiles only when --metrics-auth=false (a process with
// a port of its own for metrics serves the profiles there too).
func (o *Options) plainOptions() []diagnostics.Option {
	var opts []diagnostics.Option
	if !o.process.WithoutSecurePort && !o.MetricsAuth {
		opts = append(opts, diagnostics.WithMetrics())
	}
	if o.Profiling && (o.process.WithoutSecurePort || !o.MetricsAuth) {
		opts = append(opts, diagnostics.WithProfiling())
	}
	return opts
}

// secureOptions is what --listen serves besides the probes: the metrics and
// the profiles, behind the authorizer unless --metrics-auth=false.
func (o *Options) secureOptions() []diagnostics.Option {
	opts := []diagnostics.Option{diagnostics.WithMetrics()}
	if o.Profiling {
		opts = append(opts, diagnostics.WithProfiling())
	}
	if o.MetricsAuth {
		opts = append(opts, diagnostics.WithAuthorizer(o.authorizer))
	}
	return opts
}

// reportUnimplementedGates warns about each enabled feature gate of OCM's
// that this project does not implement, and sets its metric.
func (o *Options) reportUnimplementedGates(ctx context.Context) {
	for _, gate := range features.Unimplemented(o.FeatureGate) {
		klog.FromContext(ctx).Info("Warning: this feature gate is accepted for compatibility with OCM but not implemented; it has no effect",
			"gate", gate)
		metrics.UnimplementedFeatureGates.WithLabelValues(string(gate)).Set(1)
	}
}

// startProbes serves the probes and metrics on both addresses; stop stops
// them.
func (o *Options) startProbes(ctx context.Context, ready *diagnostics.Readiness) (stop func(), err error) {
	o.authorizer = diagnostics.NewAuthorizer(klog.FromContext(ctx).WithName("metrics-auth"))
	health, err := diagnostics.Start(o.HealthProbeBindAddress, ready, o.plainOptions()...)
	if err != nil {
		return nil, err
	}
	secure, err := o.startSecure(ready)
	if err != nil {
		health.Stop()
		return nil, err
	}
	return func() { secure.Stop(); health.Stop() }, nil
}

// startSecure serves the probes and metrics over HTTPS on --listen, with a
// self-signed certificate made in memory, as OCM's processes do: the
// Klusterlet and the ClusterManager probe GET /healthz there. The metrics
// answer 503 until the process has connected to the cluster that reviews
// the tokens (the lease's cluster: its own cluster, or the hub).
func (o *Options) startSecure(ready *diagnostics.Readiness) (*diagnostics.Server, error) {
	addr := o.SecureBindAddress
	if o.process.WithoutSecurePort {
		addr = diagnostics.Disabled
	}
	if addr == diagnostics.Disabled {
		return diagnostics.StartOn("", addr, nil, ready)
	}
	tlsConfig, err := o.TLS.Config()
	if err != nil {
		return nil, err
	}
	cert, err := diagnostics.SelfSigned(o.process.Name)
	if err != nil {
		return nil, err
	}
	tlsConfig.Certificates = []tls.Certificate{cert}
	return diagnostics.StartOn("secure address --listen", addr, tlsConfig, ready, o.secureOptions()...)
}

// terminateOnFiles calls terminate once a file of --terminate-on-files
// changes: the process then stops as on SIGTERM (work stopped, lease
// released) and exits 0, and its pod's restart policy starts it again with
// the new file. OCM's Klusterlet names the hub kubeconfig so.
func (o *Options) terminateOnFiles(ctx context.Context, terminate context.CancelFunc) error {
	if len(o.TerminateOnFiles) == 0 {
		return nil
	}
	w, err := filewatch.Watch(ctx, o.TerminateOnFiles...)
	if err != nil {
		return fmt.Errorf("--terminate-on-files: %w", err)
	}
	go func() {
		select {
		case changed := <-w.Changes():
			klog.FromContext(ctx).Info("A file of --terminate-on-files changed; stopping, to be restarted with it", "changed", changed)
			terminate()
		case <-ctx.Done():
		}
	}()
	return nil
}

// run starts the servers, then runs Lead under the lease, or at once without
// leader election. A standby is ready at once (see leaderelect.RunOrElect).
func (o *Options) run(ctx context.Context, ready *diagnostics.Readiness, work *Work) error {
	servers, err := startServers(ctx, work.Servers)
	if err != nil {
		return err
	}
	defer servers.stop() // last, after Lead has returned
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	servers.cancelWhenOneStops(ctx, stop)
	o.events.start(ctx, work.LeaseCluster)
	o.reviewTokensOn(ctx, work.LeaseCluster)

	if work.Lead == nil {
		ready.Set(true)
		<-ctx.Done()
		return servers.err()
	}
	lease := leaderelect.Lease{
		Disabled: o.DisableLeaderElection, Config: work.LeaseCluster,
		Namespace: o.leaseNamespace(), Name: o.process.LeaseName,
		LeaseDuration: o.LeaseTimings.LeaseDuration, RenewDeadline: o.LeaseTimings.RenewDeadline, RetryPeriod: o.LeaseTimings.RetryPeriod,
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

// reviewTokensOn lets the authorizer of the metrics review tokens on cfg's
// cluster.
func (o *Options) reviewTokensOn(ctx context.Context, cfg *rest.Config) {
	if cfg == nil {
		return
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Cannot review the tokens of metrics requests")
		return
	}
	o.authorizer.SetClient(client)
}
