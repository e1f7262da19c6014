package agent

import (
	"context"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/status/feedback"
	"github.com/manifestwork/work/pkg/diagnostics"
	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/writelimit"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/pkg/startup"
)

// LeaseName is the Lease, on the agent's own cluster, that elects the active replica.
const LeaseName = "work-agent"

// gcPercent is the agent's GOGC unless the environment sets one. Its heap is
// a steady set of caches plus the short-lived garbage of reconciles, so
// collecting at +50% instead of Go's default +100% costs little CPU and
// keeps the footprint a quarter smaller (docs/contributors/measurements.md).
const gcPercent = 50

// Run runs the agent until ctx is cancelled, then stops its informers,
// releases the lease and returns nil. Startup problems (invalid options, an
// unreadable kubeconfig, an unreachable cluster, a missing CRD) come back as
// one-line errors within about ten seconds; see startup.Run.
func Run(ctx context.Context, o *Options) error {
	return startup.Run(ctx, &o.Options, o.Validate, func(ctx context.Context, ready *diagnostics.Readiness) (*startup.Work, error) {
		conns, err := connect(ctx, o)
		if err != nil {
			return nil, err
		}
		return &startup.Work{LeaseCluster: conns.lease, Lead: startup.Lead(ready, newAgent(o.agentDeps(conns)).wire)}, nil
	})
}

func (o *Options) agentDeps(conns *connections) agentDeps {
	return agentDeps{
		ClusterName:         o.ClusterName,
		AgentID:             o.agentID(),
		Hub:                 conns.hub,
		Source:              conns.source,
		Spoke:               conns.spoke,
		Workers:             o.WorkloadAgentWorkers,
		EvictionGracePeriod: o.AppliedManifestWorkEvictionGracePeriod,
		StatusSyncInterval:  o.StatusSyncInterval,
		MaxFeedbackWatch:    o.MaxFeedbackWatch,
		MaxStatusSize:       o.MaxStatusSize,
		Feedback: feedback.Options{
			RawJSON:          o.FeatureGate.Enabled(features.RawFeedbackJsonString),
			MaxJSONRawLength: o.MaxJSONRawLength,
		},
		ExecutorCaching: o.FeatureGate.Enabled(features.ExecutorValidatingCaches),
	}
}

// connections are the client configs of the clusters the agent talks to.
type connections struct {
	hub    *rest.Config // ManifestWorks, with the kube driver
	source *source      // ManifestWorks, with a CloudEvents driver
	spoke  *rest.Config // the managed cluster: AppliedManifestWorks and applied resources
	lease  *rest.Config // the agent's own cluster; the same as spoke unless --spoke-kubeconfig differs
}

// connect loads and probes each cluster once, hub first. With a CloudEvents
// driver it loads the source's config file instead of probing a hub: the
// broker is connected to once the agent runs, and reconnected to whenever
// it goes away.
func connect(ctx context.Context, o *Options) (*connections, error) {
	conns := &connections{}
	var err error
	if o.WorkloadSourceDriver == KubeDriver {
		if conns.hub, err = o.Connect(ctx, o.hubCluster(), kubeconn.ManifestWorkAPI); err != nil {
			return nil, err
		}
		conns.hub.QPS, conns.hub.Burst = o.HubKubeAPIQPS, o.HubKubeAPIBurst
		conns.hub.Wrap(hubWriteLimit(ctx).Wrap)
	} else if conns.source, err = dialSource(ctx, o); err != nil {
		return nil, err
	}
	spoke, err := o.Connect(ctx, o.spokeCluster(), kubeconn.AppliedManifestWorkAPI)
	if err != nil {
		return nil, err
	}
	lease := spoke
	if !o.DisableLeaderElection && o.SpokeKubeconfig != "" && o.SpokeKubeconfig != o.Kubeconfig {
		if lease, err = o.Connect(ctx, o.agentCluster(), kubeconn.LeaseAPI); err != nil {
			return nil, err
		}
	}
	conns.spoke, conns.lease = spoke, lease
	return conns, nil
}

// hubWriteLimit is the backpressure on the agent's writes to the hub: when
// many agents share one hub, a hub that falls behind gets fewer writes
// from each instead of the same writes again. Its limit and each decrease
// are in the metrics.
func hubWriteLimit(ctx context.Context) *writelimit.Limiter {
	logger := klog.FromContext(ctx).WithValues("cluster", "hub")
	l := writelimit.New(writelimit.Options{OnChange: func(limit int, reason string) {
		metrics.WritesLimit.WithLabelValues("hub").Set(float64(limit))
		if reason != "" {
			metrics.WritesOverloaded.WithLabelValues("hub", reason).Inc()
			logger.Info("The hub shows overload: fewer writes in flight", "sign", reason, "limit", limit)
		}
	}})
	metrics.WritesLimit.WithLabelValues("hub").Set(float64(l.Limit()))
	return l
}

func (o *Options) hubCluster() kubeconn.Cluster {
	file, flag := o.hubKubeconfig()
	return kubeconn.Cluster{Role: "hub", Flag: flag, Kubeconfig: file}
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
