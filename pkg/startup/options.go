// Package startup is what every work process (work agent, work hub) does
// around its own work: the flags they share, validating them, logging,
// metrics, the health probe server, connecting to clusters with one-line
// errors, and running the active replica's work under the leader election
// lease while every replica serves what it must.
package startup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/rest"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/manifestwork/work/pkg/healthz"
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
	LeaderElectionNamespace string
	HealthProbeBindAddress  string
	Profiling               bool // --profiling: Go profiles on the health address

	FeatureGate featuregate.MutableVersionedFeatureGate
	Logging     *logsapi.LoggingConfiguration
}

// NewOptions returns the defaults documented in the flag help, with the
// process's feature gates.
func NewOptions(p Process, gate featuregate.MutableVersionedFeatureGate) *Options {
	return &Options{
		process:                 p,
		KubeAPIQPS:              50,
		KubeAPIBurst:            100,
		LeaderElectionNamespace: p.LeaseNamespace,
		HealthProbeBindAddress:  ":8081",
		FeatureGate:             gate,
		Logging:                 logsapi.NewLoggingConfiguration(),
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
	fs.BoolVar(&o.DisableLeaderElection, "disable-leader-election", o.DisableLeaderElection,
		"Run without the leader election lease. Only safe with a single replica.")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", o.LeaderElectionNamespace,
		"Namespace, on "+p.LeaseHelp+", of the Lease "+p.LeaseName+" that elects the active replica.")
	fs.StringVar(&o.HealthProbeBindAddress, "health-probe-bind-address", o.HealthProbeBindAddress,
		"Address serving /healthz and /readyz; 0 disables them.")
	fs.BoolVar(&o.Profiling, "profiling", o.Profiling,
		"Serve Go's profiles under /debug/pprof/ on the health probe address.")
	o.FeatureGate.AddFlag(fs)
	logsapi.AddFlags(o.Logging, fs)
}

// Validate reports every invalid common option at once, on one line. A
// process's Validate adds it after its own problems.
func (o *Options) Validate() error {
	var p Problems
	Positive(&p, "--kube-api-qps", o.KubeAPIQPS)
	Positive(&p, "--kube-api-burst", o.KubeAPIBurst)
	if !o.DisableLeaderElection && len(validation.IsDNS1123Label(o.LeaderElectionNamespace)) > 0 {
		p.Addf("--leader-election-namespace %q is not a valid namespace name", o.LeaderElectionNamespace)
	}
	p.Add(healthz.ValidateAddress(o.HealthProbeBindAddress))
	if errs := logsapi.Validate(o.Logging, o.FeatureGate, nil); len(errs) > 0 {
		p.Addf("logging: %s", errs.ToAggregate())
	}
	return p.Err()
}

// Connect loads the cluster's kubeconfig and probes it for api
// (kubeconn.Connect), then sets --kube-api-qps, --kube-api-burst and the
// process's user agent on the config.
func (o *Options) Connect(ctx context.Context, c kubeconn.Cluster, api kubeconn.API) (*rest.Config, error) {
	cfg, err := kubeconn.Connect(ctx, c, api)
	if err != nil {
		return nil, err
	}
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
