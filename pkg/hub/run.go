package hub

import (
	"context"
	"fmt"

	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/healthz"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/leaderelect"
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

	ready := &healthz.Readiness{}
	health, err := healthz.Start(o.HealthProbeBindAddress, ready)
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

	h := newHub(hubDeps{Config: cfg, Ready: ready})
	lease := leaderelect.Lease{
		Disabled: o.DisableLeaderElection, Config: cfg,
		Namespace: o.LeaderElectionNamespace, Name: LeaseName,
	}
	return leaderelect.RunOrElect(ctx, lease, func() { ready.Set(true) }, h.run)
}
