package hub

import (
	"context"

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
	return startup.Run(ctx, &o.Options, o.Validate, func(ctx context.Context, ready *diagnostics.Readiness) (*startup.Work, error) {
		hub := kubeconn.Cluster{Role: "hub", Flag: "--kubeconfig", Kubeconfig: o.Kubeconfig}
		cfg, err := o.Connect(ctx, hub, kubeconn.ManifestWorkAPI)
		if err != nil {
			return nil, err
		}
		deps := hubDeps{
			Config: cfg, Ready: ready, Hub: hub,
			CleanUp:     o.FeatureGate.Enabled(features.CleanUpCompletedManifestWork),
			ReplicaSets: o.FeatureGate.Enabled(features.ManifestWorkReplicaSet),
		}
		work := &startup.Work{LeaseCluster: cfg, Lead: newHub(deps).run}
		if o.WebhookEnabled() {
			settings := webhookSettings{
				Flag: "--webhook-bind-address", BindAddress: o.WebhookBindAddress,
				CertFile: o.TLSCertFile, KeyFile: o.TLSPrivateKeyFile, ManifestLimit: o.ManifestLimit,
			}
			work.Servers = append(work.Servers, func(ctx context.Context) (startup.Server, error) {
				return startWebhook(ctx, &o.Options, settings, cfg)
			})
		}
		return work, nil
	})
}
