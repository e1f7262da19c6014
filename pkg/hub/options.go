// Package hub is the work hub process: it runs on the hub cluster next to the
// ManifestWorks and hosts the hub-side controllers.
package hub

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/healthz"
	"github.com/manifestwork/work/pkg/hub/admission"
	"github.com/manifestwork/work/pkg/hub/webhook"
)

// Options is the hub's configuration, set from flags.
type Options struct {
	Kubeconfig   string // --kubeconfig: the hub; empty means in-cluster
	KubeAPIQPS   float32
	KubeAPIBurst int

	DisableLeaderElection   bool
	LeaderElectionNamespace string
	HealthProbeBindAddress  string
	Profiling               bool // --profiling: Go profiles on the health address

	// The validating webhook runs only when both TLS files are set.
	WebhookBindAddress string // --webhook-bind-address
	TLSCertFile        string // --tls-cert-file
	TLSPrivateKeyFile  string // --tls-private-key-file
	ManifestLimit      int    // --manifest-limit, in bytes

	FeatureGate featuregate.MutableVersionedFeatureGate
	Logging     *logsapi.LoggingConfiguration
}

// NewOptions returns the defaults documented in the flag help.
func NewOptions() *Options {
	return &Options{
		KubeAPIQPS:              50,
		KubeAPIBurst:            100,
		LeaderElectionNamespace: "open-cluster-management-hub",
		HealthProbeBindAddress:  ":8081",
		WebhookBindAddress:      ":9443",
		ManifestLimit:           admission.DefaultManifestLimit,
		FeatureGate:             features.NewHubFeatureGate(),
		Logging:                 logsapi.NewLoggingConfiguration(),
	}
}

// AddFlags registers the hub flags, the feature gates and the logging flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig,
		"Kubeconfig of the hub cluster. Empty means the in-cluster service account.")
	fs.Float32Var(&o.KubeAPIQPS, "kube-api-qps", o.KubeAPIQPS, "Queries per second to the hub.")
	fs.IntVar(&o.KubeAPIBurst, "kube-api-burst", o.KubeAPIBurst, "Burst of queries to the hub.")
	fs.BoolVar(&o.DisableLeaderElection, "disable-leader-election", o.DisableLeaderElection,
		"Run without the leader election lease. Only safe with a single replica.")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", o.LeaderElectionNamespace,
		"Namespace, on the hub, of the Lease "+LeaseName+" that elects the active replica.")
	fs.StringVar(&o.HealthProbeBindAddress, "health-probe-bind-address", o.HealthProbeBindAddress,
		"Address serving /healthz and /readyz; 0 disables them.")
	fs.BoolVar(&o.Profiling, "profiling", o.Profiling,
		"Serve Go's profiles under /debug/pprof/ on the health probe address.")
	fs.StringVar(&o.WebhookBindAddress, "webhook-bind-address", o.WebhookBindAddress,
		"Address serving the ManifestWork validating webhook (HTTPS, path "+webhook.Path+").")
	fs.StringVar(&o.TLSCertFile, "tls-cert-file", o.TLSCertFile,
		"PEM certificate (chain) the webhook serves; re-read when it changes. The webhook runs only with both --tls-cert-file and --tls-private-key-file.")
	fs.StringVar(&o.TLSPrivateKeyFile, "tls-private-key-file", o.TLSPrivateKeyFile,
		"PEM private key of --tls-cert-file; re-read when it changes.")
	fs.IntVar(&o.ManifestLimit, "manifest-limit", o.ManifestLimit,
		"Most bytes the manifests of one ManifestWork may total, measured on their JSON; the webhook refuses larger works.")
	o.FeatureGate.AddFlag(fs)
	logsapi.AddFlags(o.Logging, fs)
}

// WebhookEnabled reports whether the validating webhook is configured.
func (o *Options) WebhookEnabled() bool {
	return o.TLSCertFile != "" && o.TLSPrivateKeyFile != ""
}

// Validate reports every invalid option at once, on one line.
func (o *Options) Validate() error {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	if o.KubeAPIQPS <= 0 {
		add("--kube-api-qps must be positive, got %v", o.KubeAPIQPS)
	}
	if o.KubeAPIBurst <= 0 {
		add("--kube-api-burst must be positive, got %d", o.KubeAPIBurst)
	}
	if !o.DisableLeaderElection && len(validation.IsDNS1123Label(o.LeaderElectionNamespace)) > 0 {
		add("--leader-election-namespace %q is not a valid namespace name", o.LeaderElectionNamespace)
	}
	if err := healthz.ValidateAddress(o.HealthProbeBindAddress); err != nil {
		add("%s", err)
	}
	if (o.TLSCertFile == "") != (o.TLSPrivateKeyFile == "") {
		add("--tls-cert-file and --tls-private-key-file go together: set both to run the webhook, or neither")
	}
	if o.WebhookEnabled() {
		if _, port, err := net.SplitHostPort(o.WebhookBindAddress); err != nil {
			add("--webhook-bind-address %q: want host:port or :port", o.WebhookBindAddress)
		} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			add("--webhook-bind-address %q: invalid port %q", o.WebhookBindAddress, port)
		}
	}
	if o.ManifestLimit <= 0 {
		add("--manifest-limit must be positive, got %d", o.ManifestLimit)
	}
	if errs := logsapi.Validate(o.Logging, o.FeatureGate, nil); len(errs) > 0 {
		add("logging: %s", errs.ToAggregate())
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}
