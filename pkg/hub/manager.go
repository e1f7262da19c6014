package hub

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/startup"
)

// ManagerLeaseName is the Lease, on the hub, that elects the active replica
// of work manager.
const ManagerLeaseName = "work-manager"

// KubeDriver is the only --work-driver: ManifestWorks on the hub's API server.
const KubeDriver = "kube"

// managerProcess is work manager as the common flags and the start-up know it.
var managerProcess = startup.Process{
	Name: "work-manager", LeaseName: ManagerLeaseName, LeaseNamespace: "open-cluster-management-hub",
	KubeconfigHelp: "the hub cluster", KubeAPIHelp: "the hub", LeaseHelp: "the hub",
}

// ManagerOptions configure work manager: the hub controllers as OCM's
// ClusterManager runs its work controller (Deployment
// cluster-manager-work-controller), with OCM's arguments. Which controllers
// run is said by OCM's feature gates: CleanUpCompletedManifestWork runs the
// TTL clean-up of completed works, ManifestWorkReplicaSet runs the replica
// set controller (see ReplicaSetsOn).
type ManagerOptions struct {
	startup.Options

	WorkDriver          string // --work-driver; only kube
	WorkDriverConfig    string // --work-driver-config, for other drivers
	CloudEventsClientID string // --cloudevents-client-id, for other drivers

	gatesGiven func() bool // whether --feature-gates was on the command line
}

// NewManagerOptions returns the defaults documented in the flag help.
func NewManagerOptions() *ManagerOptions {
	return &ManagerOptions{
		Options:    *startup.NewOptions(managerProcess, features.NewManagerFeatureGate()),
		WorkDriver: KubeDriver,
	}
}

// AddFlags registers the manager flags, then the common ones.
func (o *ManagerOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.WorkDriver, "work-driver", o.WorkDriver,
		"Where the ManifestWorks are, as OCM's ClusterManager names it: only "+KubeDriver+" (the hub's API server) is supported.")
	fs.StringVar(&o.WorkDriverConfig, "work-driver-config", o.WorkDriverConfig,
		"Accepted for compatibility with OCM's ClusterManager; meaningful only with drivers other than "+KubeDriver+".")
	fs.StringVar(&o.CloudEventsClientID, "cloudevents-client-id", o.CloudEventsClientID,
		"Accepted for compatibility with OCM's ClusterManager; meaningful only with drivers other than "+KubeDriver+".")
	o.Options.AddFlags(fs)
	o.gatesGiven = func() bool { return fs.Changed("feature-gates") }
}

// ReplicaSetsOn tells whether the replica set controller runs. OCM's
// operators say so in two ways. v1.0's deploys work manager only when the
// gate ManifestWorkReplicaSet is on, and passes no gate: its manager always
// runs replica sets. Later ones pass --feature-gates, the gate among them.
// So without --feature-gates the controller runs; with them, as they say.
func (o *ManagerOptions) ReplicaSetsOn() bool {
	if o.gatesGiven == nil || !o.gatesGiven() {
		return true
	}
	return o.FeatureGate.Enabled(features.ManifestWorkReplicaSet)
}

// Validate reports every invalid option at once, on one line.
func (o *ManagerOptions) Validate() error {
	var p startup.Problems
	if o.WorkDriver != KubeDriver {
		p.Addf("--work-driver %q is not supported: the only supported driver is %s (ManifestWorks on the hub's API server)",
			o.WorkDriver, KubeDriver)
	}
	p.Add(o.Options.Validate())
	return p.Err()
}

// RunManager runs work manager until ctx is cancelled, like Run without the
// webhook (OCM runs it apart: work webhook-server).
func RunManager(ctx context.Context, o *ManagerOptions) error {
	return startup.Run(ctx, &o.Options, o.Validate, controllers(&o.Options, o.ReplicaSetsOn(), nil))
}
