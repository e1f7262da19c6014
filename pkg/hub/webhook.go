package hub

import (
	"context"
	"fmt"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/hub/webhook"
)

// startWebhook starts the validating webhook, configured as
// o.WebhookEnabled says. It serves on every replica, leader or not, until
// ctx is cancelled.
func startWebhook(ctx context.Context, o *Options, cfg *rest.Config) (*webhook.Server, error) {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("hub client for SubjectAccessReviews: %w", err)
	}
	return webhook.Start(ctx, webhook.Deps{
		BindAddress:           o.WebhookBindAddress,
		CertFile:              o.TLSCertFile,
		KeyFile:               o.TLSPrivateKeyFile,
		ManifestLimit:         o.ManifestLimit,
		NilExecutorValidating: o.FeatureGate.Enabled(features.NilExecutorValidating),
		SubjectAccessReviews:  client.AuthorizationV1().SubjectAccessReviews(),
	})
}
