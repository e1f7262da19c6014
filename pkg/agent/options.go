// Package agent is the work agent: it runs on (or next to) a managed cluster,
// watches the ManifestWorks in that cluster's namespace on the hub and applies
// them to the managed cluster.
package agent

import (
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/manifestwork/work/pkg/agent/workwriter"
	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/startup"
)

// process is the agent as the common flags and the start-up know it.
var process = startup.Process{
	Name: "work-agent", LeaseName: LeaseName, LeaseNamespace: "open-cluster-management-agent",
	GCPercent:      gcPercent,
	KubeconfigHelp: "the cluster the agent runs on, where its leader election Lease lives",
	KubeAPIHelp:    "the managed cluster",
	LeaseHelp:      "the cluster of --kubeconfig",
}

// Options is the agent's configuration, set from flags. The common options
// hold --kubeconfig (the agent's own cluster, where its lease lives) and
// --kube-api-qps/burst (towards the managed cluster).
type Options struct {
	startup.Options

	ClusterName     string // --spoke-cluster-name, alias --cluster-name
	HubKubeconfig   string // --hub-kubeconfig
	SpokeKubeconfig string // --spoke-kubeconfig: where manifests are applied
	AgentID         string // --agent-id; empty means the cluster name

	// OCM's names for the hub connection: --workload-source-driver,
	// --workload-source-config (the hub kubeconfig with "kube", the
	// source's config file with "mqtt" or "grpc") and
	// --cloudevents-client-id (with "mqtt" or "grpc").
	WorkloadSourceDriver    string
	WorkloadSourceConfig    string
	CloudEventsClientID     string
	CloudEventsClientCodecs []string // accepted, as OCM's agent accepts it; works travel as manifestbundles

	StatusSyncInterval                     time.Duration
	AppliedManifestWorkEvictionGracePeriod time.Duration
	MaxFeedbackWatch                       int
	MaxJSONRawLength                       int
	MaxStatusSize                          int
	WorkloadAgentWorkers                   int

	HubKubeAPIQPS   float32
	HubKubeAPIBurst int
}

// NewOptions returns the defaults documented in the flag help.
func NewOptions() *Options {
	return &Options{
		Options:                                *startup.NewOptions(process, features.NewAgentFeatureGate()),
		StatusSyncInterval:                     10 * time.Second,
		AppliedManifestWorkEvictionGracePeriod: 60 * time.Minute,
		MaxFeedbackWatch:                       50,
		MaxJSONRawLength:                       1024,
		MaxStatusSize:                          workwriter.DefaultMaxSize,
		WorkloadAgentWorkers:                   10,
		HubKubeAPIQPS:                          50,
		HubKubeAPIBurst:                        100,
		WorkloadSourceDriver:                   KubeDriver,
	}
}

// The --workload-source-drivers: the hub's API server, or a broker (MQTT) or
// server (gRPC) that delivers works as CloudEvents.
const (
	KubeDriver = "kube"
	MQTTDriver = "mqtt"
	GRPCDriver = "grpc"
)

// AddFlags registers the agent flags, then the common ones.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.addClusterFlags(fs)
	o.addTuningFlags(fs)
	o.Options.AddFlags(fs)
}

func (o *Options) addClusterFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.ClusterName, "spoke-cluster-name", o.ClusterName,
		"Name of the managed cluster; the agent serves the ManifestWorks in the hub namespace of that name. Required.")
	fs.StringVar(&o.ClusterName, "cluster-name", o.ClusterName, "Alias of --spoke-cluster-name.")
	fs.StringVar(&o.HubKubeconfig, "hub-kubeconfig", o.HubKubeconfig,
		"Kubeconfig of the hub cluster holding the ManifestWorks. Required.")
	fs.StringVar(&o.SpokeKubeconfig, "spoke-kubeconfig", o.SpokeKubeconfig,
		"Kubeconfig of the managed cluster the manifests are applied to. Defaults to --kubeconfig.")
	fs.StringVar(&o.AgentID, "agent-id", o.AgentID,
		"ID recorded in the AppliedManifestWorks this agent owns (spec.agentID). Defaults to the cluster name, "+
			"so that it stays the same across restarts and replicas; give each agent its own ID only when "+
			"several agents apply to the same managed cluster.")
	fs.StringVar(&o.WorkloadSourceDriver, "workload-source-driver", o.WorkloadSourceDriver,
		"Where the ManifestWorks come from, as OCM's Klusterlet names it: "+KubeDriver+" (the hub's API server), or "+
			MQTTDriver+" or "+GRPCDriver+" (CloudEvents from a broker or server, such as Maestro's or OCM's gRPC server).")
	fs.StringVar(&o.WorkloadSourceConfig, "workload-source-config", o.WorkloadSourceConfig,
		"With --workload-source-driver="+KubeDriver+", OCM's name of --hub-kubeconfig; with "+MQTTDriver+" or "+GRPCDriver+
			", the broker's or server's config file, in OCM's format (docs/deliver-over-cloudevents.md).")
	fs.StringVar(&o.CloudEventsClientID, "cloudevents-client-id", o.CloudEventsClientID,
		"The agent's ID in its CloudEvents, with --workload-source-driver="+MQTTDriver+" or "+GRPCDriver+
			"; its MQTT client ID is this with -client. Defaults to <cluster name>-work-agent.")
	fs.StringSliceVar(&o.CloudEventsClientCodecs, "cloudevents-client-codecs", o.CloudEventsClientCodecs,
		"Accepted for compatibility with OCM's agent, which declares it and reads it nowhere: works always travel as manifestbundles.")
}

func (o *Options) addTuningFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&o.StatusSyncInterval, "status-sync-interval", o.StatusSyncInterval,
		"How often the status of applied resources is read back into the ManifestWorks, and how often the status of a work whose resources are progressing is written.")
	fs.DurationVar(&o.AppliedManifestWorkEvictionGracePeriod, "appliedmanifestwork-eviction-grace-period",
		o.AppliedManifestWorkEvictionGracePeriod,
		"How long an AppliedManifestWork whose ManifestWork is gone from the hub is kept before its resources are deleted.")
	fs.IntVar(&o.MaxFeedbackWatch, "max-feedback-watch", o.MaxFeedbackWatch,
		"Most resources whose status feedback is watched rather than polled.")
	fs.IntVar(&o.MaxJSONRawLength, "max-json-raw-length", o.MaxJSONRawLength,
		"Most bytes of a JsonRaw status feedback value (needs the RawFeedbackJsonString feature gate).")
	fs.IntVar(&o.MaxStatusSize, "max-status-size", o.MaxStatusSize,
		"Most bytes of JSON of a ManifestWork status the agent writes; a larger one is trimmed (status feedback values "+
			"first, then long condition messages) and the work gets the condition StatusTrimmed. The default is 1 MiB "+
			"less the hub's default --manifest-limit (500 KiB), so that spec and status stay well under the API server's 1.5 MiB.")
	fs.IntVar(&o.WorkloadAgentWorkers, "workload-agent-workers", o.WorkloadAgentWorkers,
		"Number of ManifestWorks applied concurrently.")
	fs.Float32Var(&o.HubKubeAPIQPS, "hub-kube-api-qps", o.HubKubeAPIQPS, "Queries per second to the hub.")
	fs.IntVar(&o.HubKubeAPIBurst, "hub-kube-api-burst", o.HubKubeAPIBurst, "Burst of queries to the hub.")
}

// Validate reports every invalid option at once, on one line: the agent's
// own, then the common ones.
func (o *Options) Validate() error {
	var p startup.Problems
	switch {
	case o.ClusterName == "":
		p.Addf("--spoke-cluster-name is required")
	case len(validation.IsDNS1123Label(o.ClusterName)) > 0:
		p.Addf("--spoke-cluster-name %q is not a valid namespace name: %s", o.ClusterName,
			strings.Join(validation.IsDNS1123Label(o.ClusterName), ", "))
	}
	switch o.WorkloadSourceDriver {
	case KubeDriver:
		switch {
		case o.HubKubeconfig == "" && o.WorkloadSourceConfig == "":
			p.Addf("--hub-kubeconfig is required")
		case o.HubKubeconfig != "" && o.WorkloadSourceConfig != "" && o.HubKubeconfig != o.WorkloadSourceConfig:
			p.Addf("--hub-kubeconfig %q and --workload-source-config %q name different hub kubeconfigs; give one",
				o.HubKubeconfig, o.WorkloadSourceConfig)
		}
	case MQTTDriver, GRPCDriver:
		if o.WorkloadSourceConfig == "" {
			p.Addf("--workload-source-config is required with --workload-source-driver=%s: it names the %s config file",
				o.WorkloadSourceDriver, o.WorkloadSourceDriver)
		}
	default:
		p.Addf("--workload-source-driver %q is not supported: the supported drivers are %s (ManifestWorks from the hub's API server), %s and %s (ManifestWorks as CloudEvents)",
			o.WorkloadSourceDriver, KubeDriver, MQTTDriver, GRPCDriver)
	}
	startup.Positive(&p, "--status-sync-interval", o.StatusSyncInterval)
	startup.Positive(&p, "--appliedmanifestwork-eviction-grace-period", o.AppliedManifestWorkEvictionGracePeriod)
	startup.Positive(&p, "--max-feedback-watch", o.MaxFeedbackWatch)
	startup.Positive(&p, "--max-json-raw-length", o.MaxJSONRawLength)
	startup.Positive(&p, "--max-status-size", o.MaxStatusSize)
	startup.Positive(&p, "--workload-agent-workers", o.WorkloadAgentWorkers)
	startup.Positive(&p, "--hub-kube-api-qps", o.HubKubeAPIQPS)
	startup.Positive(&p, "--hub-kube-api-burst", o.HubKubeAPIBurst)
	p.Add(o.Options.Validate())
	return p.Err()
}

// hubKubeconfig is --hub-kubeconfig, or OCM's --workload-source-config, and
// the flag that gave it.
func (o *Options) hubKubeconfig() (file, flag string) {
	if o.HubKubeconfig == "" && o.WorkloadSourceConfig != "" {
		return o.WorkloadSourceConfig, "--workload-source-config"
	}
	return o.HubKubeconfig, "--hub-kubeconfig"
}

// cloudEventsClientID is --cloudevents-client-id, defaulting to
// <cluster>-work-agent.
func (o *Options) cloudEventsClientID() string {
	if o.CloudEventsClientID != "" {
		return o.CloudEventsClientID
	}
	return o.ClusterName + "-work-agent"
}

// agentID is --agent-id, defaulting to the cluster name.
func (o *Options) agentID() string {
	if o.AgentID != "" {
		return o.AgentID
	}
	return o.ClusterName
}
