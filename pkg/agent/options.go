// Package agent is the work agent: it runs on (or next to) a managed cluster,
// watches the ManifestWorks in that cluster's namespace on the hub and applies
// them to the managed cluster.
package agent

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/healthz"
)

// Options is the agent's configuration, set from flags.
type Options struct {
	ClusterName     string // --spoke-cluster-name, alias --cluster-name
	HubKubeconfig   string // --hub-kubeconfig
	Kubeconfig      string // --kubeconfig: the agent's own cluster (lease)
	SpokeKubeconfig string // --spoke-kubeconfig: where manifests are applied
	AgentID         string // --agent-id; empty means the cluster name

	StatusSyncInterval                     time.Duration
	AppliedManifestWorkEvictionGracePeriod time.Duration
	MaxFeedbackWatch                       int
	MaxJSONRawLength                       int
	WorkloadAgentWorkers                   int

	KubeAPIQPS      float32 // managed cluster
	KubeAPIBurst    int
	HubKubeAPIQPS   float32
	HubKubeAPIBurst int

	DisableLeaderElection   bool
	LeaderElectionNamespace string
	HealthProbeBindAddress  string
	Profiling               bool // --profiling: Go profiles on the health address

	FeatureGate featuregate.MutableVersionedFeatureGate
	Logging     *logsapi.LoggingConfiguration
}

// NewOptions returns the defaults documented in the flag help.
func NewOptions() *Options {
	return &Options{
		StatusSyncInterval:                     10 * time.Second,
		AppliedManifestWorkEvictionGracePeriod: 60 * time.Minute,
		MaxFeedbackWatch:                       50,
		MaxJSONRawLength:                       1024,
		WorkloadAgentWorkers:                   10,
		KubeAPIQPS:                             50,
		KubeAPIBurst:                           100,
		HubKubeAPIQPS:                          50,
		HubKubeAPIBurst:                        100,
		LeaderElectionNamespace:                "open-cluster-management-agent",
		HealthProbeBindAddress:                 ":8081",
		FeatureGate:                            features.NewAgentFeatureGate(),
		Logging:                                logsapi.NewLoggingConfiguration(),
	}
}

// AddFlags registers the agent flags, the feature gates and the logging flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.addClusterFlags(fs)
	o.addTuningFlags(fs)
	fs.BoolVar(&o.DisableLeaderElection, "disable-leader-election", o.DisableLeaderElection,
		"Run without the leader election lease. Only safe with a single replica.")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", o.LeaderElectionNamespace,
		"Namespace, on the cluster of --kubeconfig, of the Lease "+LeaseName+" that elects the active replica.")
	fs.StringVar(&o.HealthProbeBindAddress, "health-probe-bind-address", o.HealthProbeBindAddress,
		"Address serving /healthz and /readyz; 0 disables them.")
	fs.BoolVar(&o.Profiling, "profiling", o.Profiling,
		"Serve Go's profiles under /debug/pprof/ on the health probe address.")
	o.FeatureGate.AddFlag(fs)
	logsapi.AddFlags(o.Logging, fs)
}

func (o *Options) addClusterFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.ClusterName, "spoke-cluster-name", o.ClusterName,
		"Name of the managed cluster; the agent serves the ManifestWorks in the hub namespace of that name. Required.")
	fs.StringVar(&o.ClusterName, "cluster-name", o.ClusterName, "Alias of --spoke-cluster-name.")
	fs.StringVar(&o.HubKubeconfig, "hub-kubeconfig", o.HubKubeconfig,
		"Kubeconfig of the hub cluster holding the ManifestWorks. Required.")
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig,
		"Kubeconfig of the cluster the agent runs on, where its leader election Lease lives. Empty means the in-cluster service account.")
	fs.StringVar(&o.SpokeKubeconfig, "spoke-kubeconfig", o.SpokeKubeconfig,
		"Kubeconfig of the managed cluster the manifests are applied to. Defaults to --kubeconfig.")
	fs.StringVar(&o.AgentID, "agent-id", o.AgentID,
		"ID recorded in the AppliedManifestWorks this agent owns (spec.agentID). Defaults to the cluster name, "+
			"so that it stays the same across restarts and replicas; give each agent its own ID only when "+
			"several agents apply to the same managed cluster.")
}

func (o *Options) addTuningFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&o.StatusSyncInterval, "status-sync-interval", o.StatusSyncInterval,
		"How often the status of applied resources is read back into the ManifestWorks.")
	fs.DurationVar(&o.AppliedManifestWorkEvictionGracePeriod, "appliedmanifestwork-eviction-grace-period",
		o.AppliedManifestWorkEvictionGracePeriod,
		"How long an AppliedManifestWork whose ManifestWork is gone from the hub is kept before its resources are deleted.")
	fs.IntVar(&o.MaxFeedbackWatch, "max-feedback-watch", o.MaxFeedbackWatch,
		"Most resources whose status feedback is watched rather than polled.")
	fs.IntVar(&o.MaxJSONRawLength, "max-json-raw-length", o.MaxJSONRawLength,
		"Most bytes of a JsonRaw status feedback value (needs the RawFeedbackJsonString feature gate).")
	fs.IntVar(&o.WorkloadAgentWorkers, "workload-agent-workers", o.WorkloadAgentWorkers,
		"Number of ManifestWorks applied concurrently.")
	fs.Float32Var(&o.KubeAPIQPS, "kube-api-qps", o.KubeAPIQPS, "Queries per second to the managed cluster.")
	fs.IntVar(&o.KubeAPIBurst, "kube-api-burst", o.KubeAPIBurst, "Burst of queries to the managed cluster.")
	fs.Float32Var(&o.HubKubeAPIQPS, "hub-kube-api-qps", o.HubKubeAPIQPS, "Queries per second to the hub.")
	fs.IntVar(&o.HubKubeAPIBurst, "hub-kube-api-burst", o.HubKubeAPIBurst, "Burst of queries to the hub.")
}

// Validate reports every invalid option at once, on one line.
func (o *Options) Validate() error {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	switch {
	case o.ClusterName == "":
		add("--spoke-cluster-name is required")
	case len(validation.IsDNS1123Label(o.ClusterName)) > 0:
		add("--spoke-cluster-name %q is not a valid namespace name: %s", o.ClusterName,
			strings.Join(validation.IsDNS1123Label(o.ClusterName), ", "))
	}
	if o.HubKubeconfig == "" {
		add("--hub-kubeconfig is required")
	}
	for _, d := range []struct {
		flag  string
		value time.Duration
	}{
		{"--status-sync-interval", o.StatusSyncInterval},
		{"--appliedmanifestwork-eviction-grace-period", o.AppliedManifestWorkEvictionGracePeriod},
	} {
		if d.value <= 0 {
			add("%s must be positive, got %s", d.flag, d.value)
		}
	}
	for _, n := range []struct {
		flag  string
		value float64
	}{
		{"--max-feedback-watch", float64(o.MaxFeedbackWatch)},
		{"--max-json-raw-length", float64(o.MaxJSONRawLength)},
		{"--workload-agent-workers", float64(o.WorkloadAgentWorkers)},
		{"--kube-api-qps", float64(o.KubeAPIQPS)},
		{"--kube-api-burst", float64(o.KubeAPIBurst)},
		{"--hub-kube-api-qps", float64(o.HubKubeAPIQPS)},
		{"--hub-kube-api-burst", float64(o.HubKubeAPIBurst)},
	} {
		if n.value <= 0 {
			add("%s must be positive, got %v", n.flag, n.value)
		}
	}
	problems = append(problems, o.validateProcess()...)
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

func (o *Options) validateProcess() []string {
	var problems []string
	if !o.DisableLeaderElection && len(validation.IsDNS1123Label(o.LeaderElectionNamespace)) > 0 {
		problems = append(problems, fmt.Sprintf("--leader-election-namespace %q is not a valid namespace name", o.LeaderElectionNamespace))
	}
	if err := healthz.ValidateAddress(o.HealthProbeBindAddress); err != nil {
		problems = append(problems, err.Error())
	}
	if errs := logsapi.Validate(o.Logging, o.FeatureGate, nil); len(errs) > 0 {
		problems = append(problems, "logging: "+errs.ToAggregate().Error())
	}
	return problems
}

// agentID is --agent-id, defaulting to the cluster name.
func (o *Options) agentID() string {
	if o.AgentID != "" {
		return o.AgentID
	}
	return o.ClusterName
}
