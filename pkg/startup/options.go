// Package startup is what every work process (work agent, work hub, work
// manager, work webhook-server) does around its own work: the flags they
// share (OCM's among them), validating them, logging, metrics, the health
// probe servers (plain and HTTPS), connecting to clusters with one-line
// errors and credentials that follow their files, stopping when a file of
// --terminate-on-files changes, and running the active replica's work under
// the leader election lease while every replica serves what it must.
package startup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/manifestwork/work/pkg/diagnostics"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/version"
)

// Process says what a work process is called and how the help of its common
// flags names its clusters.
type Process struct {
	// Name names the process in its logs and in its clients' user agent,
	// e.g. "work-agent".
	Name string
	// LeaseName is the Lease that elects the active replica; LeaseNamespace
	// is the default of --leader-election-namespace.
	LeaseName, LeaseNamespace string
	// GCPercent, unless 0, is the process's GOGC when the environment sets none.
	GCPercent int
	// WithoutLease is a process every replica of which does all its work
	// (the webhook server): it has no leader election flags.
	WithoutLease bool
	// WithoutSecurePort is a process without the HTTPS probe port (--listen).
	WithoutSecurePort bool

	// For the flag help: what --kubeconfig is ("the hub cluster"), what
	// --kube-api-qps and --kube-api-burst limit ("the hub"), and where the
	// Lease lives ("the hub").
	KubeconfigHelp, KubeAPIHelp, LeaseHelp string
}

// Options are the flags every work process takes. Each process embeds them
// in its own Options.
type Options struct {
	process Process

	Kubeconfig   string // --kubeconfig; empty means in-cluster
	KubeAPIQPS   float32
	KubeAPIBurst int

	DisableLeaderElection   bool
	LeaderElectionNamespace string // empty: the pod's namespace, else the process's default
	LeaseTimings            LeaseTimings
	HealthProbeBindAddress  string
	Profiling               bool // --profiling: Go profiles beside the metrics

	SecureBindAddress string // --listen: HTTPS /healthz, /readyz and /metrics
	// MetricsAuth (--metrics-auth) serves /metrics and the profiles on
	// --listen only to whom the cluster allows (TokenReview, then
	// SubjectAccessReview); false serves them to anyone, on both addresses.
	MetricsAuth      bool
	TLS              TLSOptions
	TerminateOnFiles []string // --terminate-on-files

	FeatureGate featuregate.MutableVersionedFeatureGate
	Logging     *logsapi.LoggingConfiguration

	events     *podEvents              // what the process says on its own pod
	authorizer *diagnostics.Authorizer // of the metrics on --listen; set by Run
}

// NewOptions returns the defaults documented in the flag help, with the
// process's feature gates.
func NewOptions(p Process, gate featuregate.MutableVersionedFeatureGate) *Options {
	return &Options{
		process:                p,
		KubeAPIQPS:             50,
		KubeAPIBurst:           100,
		LeaseTimings:           DefaultLeaseTimings(),
		HealthProbeBindAddress: ":8081",
		SecureBindAddress:      ":8443",
		MetricsAuth:            true,
		FeatureGate:            gate,
		Logging:                logsapi.NewLoggingConfiguration(),
		events:                 &podEvents{component: p.Name},
	}
}

// AddFlags registers the common flags, the feature gates and the logging
// flags. A process registers its own flags first, so that these come last in
// --help.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	p := o.process
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig,
		"Kubeconfig of "+p.KubeconfigHelp+". Empty means the in-cluster service account.")
	fs.Float32Var(&o.KubeAPIQPS, "kube-api-qps", o.KubeAPIQPS, "Queries per second to "+p.KubeAPIHelp+".")
	fs.IntVar(&o.KubeAPIBurst, "kube-api-burst", o.KubeAPIBurst, "Burst of queries to "+p.KubeAPIHelp+".")
	if !p.WithoutLease {
		o.addLeaseFlags(fs)
	}
	if p.WithoutSecurePort {
		fs.StringVar(&o.HealthProbeBindAddress, "health-probe-bind-address", o.HealthProbeBindAddress,
			"Address serving /healthz, /livez and /readyz over plain HTTP; 0 disables it.")
		fs.BoolVar(&o.Profiling, "profiling", o.Profiling,
			"Serve Go's profiles under /debug/pprof/ on the health probe address.")
	} else {
		fs.StringVar(&o.HealthProbeBindAddress, "health-probe-bind-address", o.HealthProbeBindAddress,
			"Address serving /healthz, /livez and /readyz over plain HTTP (and /metrics with --metrics-auth=false); 0 disables it.")
		fs.StringVar(&o.SecureBindAddress, "listen", o.SecureBindAddress,
			"Address serving /healthz, /livez and /readyz, and /metrics to whom --metrics-auth allows, over HTTPS "+
				"with a self-signed certificate made in memory, where OCM's operators probe; 0 disables it.")
		fs.BoolVar(&o.MetricsAuth, "metrics-auth", o.MetricsAuth,
			"Serve /metrics (and with --profiling /debug/pprof/) on --listen only to a bearer token that the cluster's API server "+
				"authenticates (TokenReview) and whose user may get the path (SubjectAccessReview), as OCM's processes do. "+
				"false serves them to anyone on both addresses: for local demos only.")
		fs.BoolVar(&o.Profiling, "profiling", o.Profiling,
			"Serve Go's profiles under /debug/pprof/ beside /metrics.")
	}
	o.TLS.AddFlags(fs)
	fs.StringArrayVar(&o.TerminateOnFiles, "terminate-on-files", o.TerminateOnFiles,
		"A file whose content, when it changes, stops the process cleanly (exit code 0) so that it restarts with it; "+
			"may be repeated. A Secret volume updated by the kubelet counts as changed.")
	o.FeatureGate.AddFlag(fs)
	logsapi.AddFlags(o.Logging, fs)
}

// Validate reports every invalid common option at once, on one line. A
// process's Validate adds it after its own problems.
func (o *Options) Validate() error {
	var p Problems
	Positive(&p, "--kube-api-qps", o.KubeAPIQPS)
	Positive(&p, "--kube-api-burst", o.KubeAPIBurst)
	if !o.process.WithoutLease && !o.DisableLeaderElection {
		o.validateLease(&p)
	}
	p.Add(diagnostics.ValidateAddress("--health-probe-bind-address", o.HealthProbeBindAddress))
	if !o.process.WithoutSecurePort {
		p.Add(diagnostics.ValidateAddress("--listen", o.SecureBindAddress))
	}
	p.Add(o.TLS.Validate())
	if errs := logsapi.Validate(o.Logging, o.FeatureGate, nil); len(errs) > 0 {
		p.Addf("logging: %s", errs.ToAggregate())
	}
	return p.Err()
}

// Connect loads the cluster's kubeconfig and probes it for api
// (kubeconn.Connect), then sets --kube-api-qps, --kube-api-burst and the
// process's user agent on the config. The config follows the kubeconfig's
// credential; when the cluster rejects it, the process records an Event on
// its pod. The expiry of a kubeconfig file's client certificate and token
// is exported and warned about (WatchCredentials), named after the
// cluster's role: hub-kubeconfig-client-cert, hub-token, and so on.
func (o *Options) Connect(ctx context.Context, c kubeconn.Cluster, api kubeconn.API) (*rest.Config, error) {
	c.OnCredential = o.events.credential
	cfg, err := kubeconn.Connect(ctx, c, api)
	if err != nil {
		return nil, err
	}
	o.WatchCredentials(ctx, KubeconfigCredentials(strings.ReplaceAll(c.Role, " ", "-"), c.Kubeconfig)...)
	cfg.QPS, cfg.Burst, cfg.UserAgent = o.KubeAPIQPS, o.KubeAPIBurst, o.process.Name+"/"+version.Get().String()
	return cfg, nil
}

// Problems collects invalid options, so that Validate reports them all at
// once, on one line.
type Problems []string

// Addf adds a problem.
func (p *Problems) Addf(format string, args ...any) {
	*p = append(*p, fmt.Sprintf(format, args...))
}

// Add adds err, if any, as a problem.
func (p *Problems) Add(err error) {
	if err != nil {
		*p = append(*p, err.Error())
	}
}

// Err is nil without problems, and otherwise all of them, joined by "; ".
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return errors.New(strings.Join(p, "; "))
}

// Positive adds "<flag> must be positive, got <v>" unless v > 0.
func Positive[T int | float32 | time.Duration](p *Problems, flag string, v T) {
	if v <= 0 {
		p.Addf("%s must be positive, got %v", flag, v)
	}
}
