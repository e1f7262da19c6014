package hub

import (
	"context"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/manifestwork/work/pkg/admission"
	"github.com/manifestwork/work/pkg/diagnostics"
	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/startup"
)

// webhookServerProcess is work webhook-server as the common flags and the
// start-up know it: every replica serves, so it has no lease, and OCM probes
// it on its plain health port, so it has no secure one.
var webhookServerProcess = startup.Process{
	Name: "work-webhook", WithoutLease: true, WithoutSecurePort: true,
	KubeconfigHelp: "the hub cluster", KubeAPIHelp: "the hub",
}

// SubjectAccessReviewAPI is what the webhook needs of the hub.
var SubjectAccessReviewAPI = kubeconn.API{GroupVersion: "authorization.k8s.io/v1", Resource: "subjectaccessreviews", Kind: "SubjectAccessReview"}

// WebhookServerOptions configure work webhook-server: the validating webhook
// alone, as OCM's ClusterManager runs it (Deployment
// cluster-manager-work-webhook), with OCM's arguments.
type WebhookServerOptions struct {
	startup.Options

	Port            int    // --port: the webhook, HTTPS
	CertDir         string // --certdir: tls.crt and tls.key
	HealthProbePort int    // --health-probe-port, unless --health-probe-bind-address is set
	MetricsPort     int    // --metrics-port: /metrics over plain HTTP; 0 disables it
	ManifestLimit   int    // --manifest-limit, alias --manifestLimit (OCM's name)
}

// DefaultCertDir is where OCM mounts the webhook's serving certificate:
// <temp dir>/k8s-webhook-server/serving-certs, /tmp/... in a pod.
func DefaultCertDir() string {
	return filepath.Join(os.TempDir(), "k8s-webhook-server", "serving-certs")
}

// NewWebhookServerOptions returns the defaults documented in the flag help,
// OCM's ports among them.
func NewWebhookServerOptions() *WebhookServerOptions {
	o := &WebhookServerOptions{
		Options:         *startup.NewOptions(webhookServerProcess, features.NewHubFeatureGate()),
		Port:            9443,
		CertDir:         DefaultCertDir(),
		HealthProbePort: 8000,
		MetricsPort:     8080,
		ManifestLimit:   admission.DefaultManifestLimit,
	}
	o.HealthProbeBindAddress = "" // --health-probe-port
	return o
}

// AddFlags registers the webhook server flags, then the common ones.
func (o *WebhookServerOptions) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Port, "port", o.Port, "Port serving the ManifestWork validating webhook (HTTPS).")
	fs.StringVar(&o.CertDir, "certdir", o.CertDir,
		"Folder holding the webhook's serving certificate and key, tls.crt and tls.key; re-read when they change.")
	fs.IntVar(&o.HealthProbePort, "health-probe-port", o.HealthProbePort,
		"Port serving /healthz and /readyz (plain HTTP); 0 disables them. --health-probe-bind-address, if set, wins.")
	fs.IntVar(&o.MetricsPort, "metrics-port", o.MetricsPort, "Port serving /metrics (plain HTTP); 0 disables it.")
	fs.IntVar(&o.ManifestLimit, "manifest-limit", o.ManifestLimit,
		"Most bytes the manifests of one ManifestWork may total, measured on their JSON; the webhook refuses larger works.")
	fs.IntVar(&o.ManifestLimit, "manifestLimit", o.ManifestLimit, "OCM's name of --manifest-limit.")
	o.Options.AddFlags(fs)
}

// Validate reports every invalid option at once, on one line.
func (o *WebhookServerOptions) Validate() error {
	var p startup.Problems
	validPort(&p, "--port", o.Port, false)
	validPort(&p, "--health-probe-port", o.HealthProbePort, true)
	validPort(&p, "--metrics-port", o.MetricsPort, true)
	if o.CertDir == "" {
		p.Addf("--certdir is required")
	}
	startup.Positive(&p, "--manifest-limit", o.ManifestLimit)
	opts := o.Options
	opts.HealthProbeBindAddress = o.healthAddress()
	p.Add(opts.Validate())
	return p.Err()
}

func validPort(p *startup.Problems, flag string, port int, zeroDisables bool) {
	if port < 0 || port > 65535 || (port == 0 && !zeroDisables) {
		p.Addf("%s %d is not a valid port", flag, port)
	}
}

// portAddress is ":port", or diagnostics.Disabled for port 0.
func portAddress(port int) string {
	if port == 0 {
		return diagnostics.Disabled
	}
	return ":" + strconv.Itoa(port)
}

func (o *WebhookServerOptions) healthAddress() string {
	if o.HealthProbeBindAddress != "" {
		return o.HealthProbeBindAddress
	}
	return portAddress(o.HealthProbePort)
}

// RunWebhookServer serves the webhook until ctx is cancelled. It is ready
// once the webhook listens with its certificate.
func RunWebhookServer(ctx context.Context, o *WebhookServerOptions) error {
	o.HealthProbeBindAddress = o.healthAddress()
	return startup.Run(ctx, &o.Options, o.Validate, func(ctx context.Context, ready *diagnostics.Readiness) (*startup.Work, error) {
		hub := kubeconn.Cluster{Role: "hub", Flag: "--kubeconfig", Kubeconfig: o.Kubeconfig}
		cfg, err := o.Connect(ctx, hub, SubjectAccessReviewAPI)
		if err != nil {
			return nil, err
		}
		settings := webhookSettings{
			Flag: "--port", BindAddress: portAddress(o.Port), ManifestLimit: o.ManifestLimit,
			CertFile: filepath.Join(o.CertDir, "tls.crt"), KeyFile: filepath.Join(o.CertDir, "tls.key"),
		}
		work := &startup.Work{LeaseCluster: cfg, Servers: []func(context.Context) (startup.Server, error){
			func(ctx context.Context) (startup.Server, error) { return startWebhook(ctx, &o.Options, settings, cfg) },
		}}
		if o.MetricsPort != 0 {
			work.Servers = append(work.Servers, func(ctx context.Context) (startup.Server, error) {
				return startMetrics(ctx, portAddress(o.MetricsPort), ready)
			})
		}
		return work, nil
	})
}

// startMetrics serves /metrics (and the probes) on addr, plain HTTP, to
// anyone as OCM's webhook serves its metrics port, until
// ctx is cancelled.
func startMetrics(ctx context.Context, addr string, ready *diagnostics.Readiness) (*diagnostics.Server, error) {
	s, err := diagnostics.StartOn("metrics address --metrics-port", addr, nil, ready, diagnostics.WithMetrics())
	if err != nil {
		return nil, err
	}
	go func() {
		<-ctx.Done()
		s.Stop()
	}()
	return s, nil
}
