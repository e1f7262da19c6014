package hub

import (
	"context"
	"fmt"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/hub/webhook"
	"github.com/manifestwork/work/pkg/startup"
)

// webhookSettings is how a process runs the validating webhook.
type webhookSettings struct {
	Flag              string // names the address in errors
	BindAddress       string
	CertFile, KeyFile string
	ManifestLimit     int
}

// startWebhook starts the validating webhook with the TLS settings and
// feature gates of o. It serves on every replica, leader or not, until ctx
// is cancelled, and exports its certificate's expiry (webhook-serving-cert).
func startWebhook(ctx context.Context, o *startup.Options, s webhookSettings, cfg *rest.Config) (*webhook.Server, error) {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("hub client for SubjectAccessReviews: %w", err)
	}
	tlsConfig, err := o.TLS.Config()
	if err != nil {
		return nil, err
	}
	o.WatchCredentials(ctx, startup.CertificateCredential("webhook-serving-cert", s.CertFile, nil)...)
	return webhook.Start(ctx, webhook.Deps{
		Flag:                  s.Flag,
		BindAddress:           s.BindAddress,
		CertFile:              s.CertFile,
		KeyFile:               s.KeyFile,
		ManifestLimit:         s.ManifestLimit,
		NilExecutorValidating: o.FeatureGate.Enabled(features.NilExecutorValidating),
		SubjectAccessReviews:  client.AuthorizationV1().SubjectAccessReviews(),
		TLSConfig:             tlsConfig,
	})
}
