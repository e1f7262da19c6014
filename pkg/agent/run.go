package agent

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"k8s.io/client-go/rest"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/feedback"
	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/healthz"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/leaderelect"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/pkg/version"
)

// LeaseName is the Lease, on the agent's own cluster, that elects the active replica.
const LeaseName = "work-agent"

// gcPercent is the agent's GOGC unless the environment sets one. Its heap is
// a steady set of caches plus the short-lived garbage of reconciles, so
// collecting at +50% instead of Go's default +100% costs little CPU and
// keeps the footprint a quarter smaller (docs/performance.md).
const gcPercent = 50

// Run runs the agent until ctx is cancelled, then stops its informers,
// releases the lease and returns nil. Startup problems (invalid options, an
// unreadable kubeconfig, an unreachable cluster, a missing CRD) come back as
// one-line errors within about ten seconds.
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
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithName("work-agent"))
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}

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

	conns, err := connect(ctx, o)
	if err != nil {
		if ctx.Err() != nil {
			return nil // interrupted while starting up
		}
		return err
	}
	a := newAgent(agentDeps{
		ClusterName:         o.ClusterName,
		AgentID:             o.agentID(),
		Hub:                 conns.hub,
		Spoke:               conns.spoke,
		Ready:               ready,
		Workers:             o.WorkloadAgentWorkers,
		EvictionGracePeriod: o.AppliedManifestWorkEvictionGracePeriod,
		StatusSyncInterval:  o.StatusSyncInterval,
		MaxFeedbackWatch:    o.MaxFeedbackWatch,
		Feedback: feedback.Options{
			RawJSON:          o.FeatureGate.Enabled(features.RawFeedbackJsonString),
			MaxJSONRawLength: o.MaxJSONRawLength,
		},
		ExecutorCaching: o.FeatureGate.Enabled(features.ExecutorValidatingCaches),
	})
	lease := leaderelect.Lease{
		Disabled: o.DisableLeaderElection, Config: conns.lease,
		Namespace: o.LeaderElectionNamespace, Name: LeaseName,
	}
	return leaderelect.RunOrElect(ctx, lease, func() { ready.Set(true) }, a.run)
}

// connections are the client configs of the clusters the agent talks to.
type connections struct {
	hub   *rest.Config // ManifestWorks
	spoke *rest.Config // the managed cluster: AppliedManifestWorks and applied resources
	lease *rest.Config // the agent's own cluster; the same as spoke unless --spoke-kubeconfig differs
}

// connect loads and probes each cluster once, hub first.
func connect(ctx context.Context, o *Options) (*connections, error) {
	hub, err := kubeconn.Connect(ctx, o.hubCluster(), kubeconn.ManifestWorkAPI)
	if err != nil {
		return nil, err
	}
	spoke, err := kubeconn.Connect(ctx, o.spokeCluster(), kubeconn.AppliedManifestWorkAPI)
	if err != nil {
		return nil, err
	}
	lease := spoke
	if !o.DisableLeaderElection && o.SpokeKubeconfig != "" && o.SpokeKubeconfig != o.Kubeconfig {
		if lease, err = kubeconn.Connect(ctx, o.agentCluster(), kubeconn.LeaseAPI); err != nil {
			return nil, err
		}
	}
	userAgent := "work-agent/" + version.Get().String()
	tune(hub, o.HubKubeAPIQPS, o.HubKubeAPIBurst, userAgent)
	tune(spoke, o.KubeAPIQPS, o.KubeAPIBurst, userAgent)
	if lease != spoke {
		tune(lease, o.KubeAPIQPS, o.KubeAPIBurst, userAgent)
	}
	return &connections{hub: hub, spoke: spoke, lease: lease}, nil
}

func tune(cfg *rest.Config, qps float32, burst int, userAgent string) {
	cfg.QPS, cfg.Burst, cfg.UserAgent = qps, burst, userAgent
}

func (o *Options) hubCluster() kubeconn.Cluster {
	return kubeconn.Cluster{Role: "hub", Flag: "--hub-kubeconfig", Kubeconfig: o.HubKubeconfig}
}

func (o *Options) spokeCluster() kubeconn.Cluster {
	if o.SpokeKubeconfig == "" {
		return kubeconn.Cluster{Role: "managed cluster", Flag: "--spoke-kubeconfig or --kubeconfig", Kubeconfig: o.Kubeconfig}
	}
	return kubeconn.Cluster{Role: "managed cluster", Flag: "--spoke-kubeconfig", Kubeconfig: o.SpokeKubeconfig}
}

func (o *Options) agentCluster() kubeconn.Cluster {
	return kubeconn.Cluster{Role: "agent cluster", Flag: "--kubeconfig", Kubeconfig: o.Kubeconfig}
}
