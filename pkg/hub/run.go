package hub

import (
	"context"

	"k8s.io/client-go/rest"

	"github.com/manifestwork/work/pkg/diagnostics"
	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/startup"
)

// LeaseName is the Lease, on the hub, that elects the active replica.
const LeaseName = "work-hub"

// Run runs the hub until ctx is cancelled, then stops its informers, releases
// the lease and returns nil. Startup problems (invalid options, an unreadable
// kubeconfig, an unreachable hub, a missing CRD) come back as one-line errors
// within about ten seconds; see startup.Run.
//
// The webhook, when configured, serves on every replica, before and
// regardless of the lease, and stops last, after the controllers. Nothing
// marks the hub ready before it listens with a certificate; should it stop
// serving, the hub stops too.
func Run(ctx context.Context, o *Options) error {
	replicaSets := o.FeatureGate.Enabled(features.ManifestWorkReplicaSet)
	return startup.Run(ctx, &o.Options, o.Validate, controllers(&o.Options, replicaSets, o.webhook))
}

// serverStart starts one of startup.Work's Servers.
type serverStart = func(context.Context) (startup.Server, error)

// webhook is the validating webhook's server, on the hub at cfg, when it
// is configured.
func (o *Options) webhook(cfg *rest.Config) []serverStart {
	if !o.WebhookEnabled() {
		return nil
	}
	settings := webhookSettings{
		Flag: "--webhook-bind-address", BindAddress: o.WebhookBindAddress,
		CertFile: o.TLSCertFile, KeyFile: o.TLSPrivateKeyFile, ManifestLimit: o.ManifestLimit,
	}
	return []serverStart{func(ctx context.Context) (startup.Server, error) {
		return startWebhook(ctx, &o.Options, settings, cfg)
	}}
}

// controllers is the start of a process that runs the hub controllers, the
// replica set one if replicaSets says so: it probes the hub once, then
// builds the work the lease elects, beside the servers that servers
// returns (nil: none).
func controllers(o *startup.Options, replicaSets bool, servers func(*rest.Config) []serverStart) startup.Start {
	return func(ctx context.Context, ready *diagnostics.Readiness) (*startup.Work, error) {
		hub := kubeconn.Cluster{Role: "hub", Flag: "--kubeconfig", Kubeconfig: o.Kubeconfig}
		cfg, err := o.Connect(ctx, hub, kubeconn.ManifestWorkAPI)
		if err != nil {
			return nil, err
		}
		deps := hubDeps{
			Config: cfg, Hub: hub, ReplicaSets: replicaSets,
			CleanUp: o.FeatureGate.Enabled(features.CleanUpCompletedManifestWork),
		}
		work := &startup.Work{LeaseCluster: cfg, Lead: startup.Lead(ready, newHub(deps).wire)}
		if servers != nil {
			work.Servers = servers(cfg)
		}
		return work, nil
	}
}
