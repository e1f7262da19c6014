// Package hub is the work hub process: it runs on the hub cluster next to the
// ManifestWorks and hosts the hub-side controllers.
package hub

import (
	"net"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/manifestwork/work/pkg/admission"
	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/hub/webhook"
	"github.com/manifestwork/work/pkg/startup"
)

// process is the hub as the common flags and the start-up know it.
var process = startup.Process{
	Name: "work-hub", LeaseName: LeaseName, LeaseNamespace: "open-cluster-management-hub",
	KubeconfigHelp: "the hub cluster", KubeAPIHelp: "the hub", LeaseHelp: "the hub",
}

// Options is the hub's configuration, set from flags. The common options
// hold --kubeconfig and --kube-api-qps/burst, all about the hub.
type Options struct {
	startup.Options

	// The validating webhook runs only when both TLS files are set.
	WebhookBindAddress string // --webhook-bind-address
	TLSCertFile        string // --tls-cert-file
	TLSPrivateKeyFile  string // --tls-private-key-file
	ManifestLimit      int    // --manifest-limit, in bytes
}

// Client limits towards the hub, twice the agent's: a template change of a
// replica set writes one work per cluster at once, and at 50 / 100 the
// client's limiter, not the hub, set the pace of a change to 200 clusters
// (test/bench TestRollout).
const (
	hubQPS   = 100
	hubBurst = 200
)

// NewOptions returns the defaults documented in the flag help.
func NewOptions() *Options {
	o := &Options{
		Options:            *startup.NewOptions(process, features.NewHubFeatureGate()),
		WebhookBindAddress: ":9443",
		ManifestLimit:      admission.DefaultManifestLimit,
	}
	o.KubeAPIQPS, o.KubeAPIBurst = hubQPS, hubBurst
	return o
}

// AddFlags registers the hub flags, then the common ones.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.WebhookBindAddress, "webhook-bind-address", o.WebhookBindAddress,
		"Address serving the validating webhook of ManifestWorks (HTTPS, path "+webhook.Path+") and WorkOverrides (path "+webhook.OverridePath+").")
	fs.StringVar(&o.TLSCertFile, "tls-cert-file", o.TLSCertFile,
		"PEM certificate (chain) the webhook serves; re-read when it changes. The webhook runs only with both --tls-cert-file and --tls-private-key-file.")
	fs.StringVar(&o.TLSPrivateKeyFile, "tls-private-key-file", o.TLSPrivateKeyFile,
		"PEM private key of --tls-cert-file; re-read when it changes.")
	fs.IntVar(&o.ManifestLimit, "manifest-limit", o.ManifestLimit,
		"Most bytes the manifests of one ManifestWork may total, measured on their JSON; the webhook refuses larger works.")
	o.Options.AddFlags(fs)
}

// WebhookEnabled reports whether the validating webhook is configured.
func (o *Options) WebhookEnabled() bool {
	return o.TLSCertFile != "" && o.TLSPrivateKeyFile != ""
}

// Validate reports every invalid option at once, on one line: the hub's
// own, then the common ones.
func (o *Options) Validate() error {
	var p startup.Problems
	if (o.TLSCertFile == "") != (o.TLSPrivateKeyFile == "") {
		p.Addf("--tls-cert-file and --tls-private-key-file go together: set both to run the webhook, or neither")
	}
	if o.WebhookEnabled() {
		if _, port, err := net.SplitHostPort(o.WebhookBindAddress); err != nil {
			p.Addf("--webhook-bind-address %q: want host:port or :port", o.WebhookBindAddress)
		} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			p.Addf("--webhook-bind-address %q: invalid port %q", o.WebhookBindAddress, port)
		}
	}
	startup.Positive(&p, "--manifest-limit", o.ManifestLimit)
	p.Add(o.Options.Validate())
	return p.Err()
}
