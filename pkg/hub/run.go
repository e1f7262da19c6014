package hub

import (
	"context"
	"fmt"

	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/healthz"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/leaderelect"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/pkg/version"
)

// LeaseName is the Lease, on the hub, that elects the active replica.
const LeaseName = "work-hub"

// Run runs the hub until ctx is cancelled, then stops its informers, releases
// the lease and returns nil. Startup problems (invalid options, an unreadable
// kubeconfig, an unreachable hub, a missing CRD) come back as one-line errors
// within about ten seconds.
//
// Run applies the logging options, which are process-wide: a process that
// calls Run more than once (tests) sets logsapi.ReapplyHandling first.
func Run(ctx context.Context, o *Options) error {
	if err := o.Validate(); err != nil {
		return err
	}
	if err := logsapi.ValidateAndApply(o.Logging, o.FeatureGate); err != nil {
		return fmt.Errorf("logging: %w", err)
	}
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithName("work-hub"))

	metrics.Register() // every replica serves them at /metrics, leader or not
	ready := &healthz.Readiness{}
	var healthOpts []healthz.Option
	if o.Profiling {
		healthOpts = append(healthOpts, healthz.WithProfiling())
	}
	health, err := healthz.Start(o.HealthProbeBindAddress, ready, healthOpts...)
	if err != nil {
		return err
	}
	defer health.Stop()

	cluster := kubeconn.Cluster{Role: "hub", Flag: "--kubeconfig", Kubeconfig: o.Kubeconfig}
	cfg, err := kubeconn.Connect(ctx, cluster, kubeconn.ManifestWorkAPI)
	if err != nil {
		if ctx.Err() != nil {
			return nil // interrupted while starting up
		}
		return err
	}
	cfg.QPS, cfg.Burst, cfg.UserAgent = o.KubeAPIQPS, o.KubeAPIBurst, "work-hub/"+version.Get().String()

	// The webhook serves on every replica, before and regardless of the
	// lease, and stops last, after the controllers. Nothing marks the hub
	// ready before it listens with a certificate; should it stop serving,
	// the hub stops too.
	hookCtx, stopHook := context.WithCancel(context.WithoutCancel(ctx))
	defer stopHook()
	hook, err := startWebhook(hookCtx, o, cfg)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	if hook != nil {
		defer func() { stopHook(); <-hook.Done() }()
		go func() {
			select {
			case <-hook.Done():
				stop()
			case <-ctx.Done():
			}
		}()
	}

	h := newHub(hubDeps{Config: cfg, Ready: ready})
	lease := leaderelect.Lease{
		Disabled: o.DisableLeaderElection, Config: cfg,
		Namespace: o.LeaderElectionNamespace, Name: LeaseName,
	}
	err = leaderelect.RunOrElect(ctx, lease, func() { ready.Set(true) }, h.run)
	if hook != nil {
		select {
		case <-hook.Done():
			if hook.Err() != nil {
				return hook.Err() // it stopped by itself, and stopped the hub
			}
		default:
		}
	}
	return err
}
