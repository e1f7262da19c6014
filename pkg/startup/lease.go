package startup

import (
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/tools/leaderelection"

	"github.com/manifestwork/work/pkg/leaderelect"
)

// LeaseTimings are the leader election timings, OCM's flags.
type LeaseTimings struct {
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
}

// DefaultLeaseTimings are leaderelect's defaults, which are OCM's too.
func DefaultLeaseTimings() LeaseTimings {
	return LeaseTimings{
		LeaseDuration: leaderelect.DefaultLeaseDuration,
		RenewDeadline: leaderelect.DefaultRenewDeadline,
		RetryPeriod:   leaderelect.DefaultRetryPeriod,
	}
}

// PodNamespaceEnv names the pod's namespace, from the downward API
// (metadata.namespace).
const PodNamespaceEnv = "POD_NAMESPACE"

// serviceAccountNamespaceFile holds the namespace of a pod's service account,
// which is the pod's namespace, where the kubelet mounts the service account
// token (OCM's operators set no POD_NAMESPACE).
var serviceAccountNamespaceFile = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

// PodNamespace is the namespace of the pod the process runs in: $POD_NAMESPACE,
// else the service account's namespace file; "" outside a pod.
func PodNamespace() string {
	if ns := os.Getenv(PodNamespaceEnv); ns != "" {
		return ns
	}
	data, err := os.ReadFile(serviceAccountNamespaceFile)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func (o *Options) addLeaseFlags(fs *pflag.FlagSet) {
	p := o.process
	fs.BoolVar(&o.DisableLeaderElection, "disable-leader-election", o.DisableLeaderElection,
		"Run without the leader election lease. Only safe with a single replica.")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", o.LeaderElectionNamespace,
		"Namespace, on "+p.LeaseHelp+", of the Lease "+p.LeaseName+" that elects the active replica. "+
			"Defaults to the pod's namespace ($"+PodNamespaceEnv+", else the service account's namespace), "+
			"outside a pod to "+p.LeaseNamespace+".")
	fs.DurationVar(&o.LeaseTimings.LeaseDuration, "leader-election-lease-duration", o.LeaseTimings.LeaseDuration,
		"How long a standby waits, after the leader last renewed the Lease, before it takes the Lease over.")
	fs.DurationVar(&o.LeaseTimings.RenewDeadline, "leader-election-renew-deadline", o.LeaseTimings.RenewDeadline,
		"How long the leader keeps trying to renew the Lease before it stops leading; less than the lease duration.")
	fs.DurationVar(&o.LeaseTimings.RetryPeriod, "leader-election-retry-period", o.LeaseTimings.RetryPeriod,
		"How often the leader renews the Lease and a standby tries to take it.")
}

// leaseNamespace is --leader-election-namespace, or the pod's namespace, or
// the process's default.
func (o *Options) leaseNamespace() string {
	if o.LeaderElectionNamespace != "" {
		return o.LeaderElectionNamespace
	}
	if ns := PodNamespace(); ns != "" {
		return ns
	}
	return o.process.LeaseNamespace
}

func (o *Options) validateLease(p *Problems) {
	if ns := o.leaseNamespace(); len(validation.IsDNS1123Label(ns)) > 0 {
		p.Addf("--leader-election-namespace %q is not a valid namespace name", ns)
	}
	t := o.LeaseTimings
	Positive(p, "--leader-election-lease-duration", t.LeaseDuration)
	Positive(p, "--leader-election-renew-deadline", t.RenewDeadline)
	Positive(p, "--leader-election-retry-period", t.RetryPeriod)
	if t.RenewDeadline > 0 && t.LeaseDuration > 0 && t.LeaseDuration <= t.RenewDeadline {
		p.Addf("--leader-election-lease-duration (%s) must be longer than --leader-election-renew-deadline (%s)", t.LeaseDuration, t.RenewDeadline)
	}
	if t.RetryPeriod > 0 && t.RenewDeadline > 0 && t.RenewDeadline <= time.Duration(leaderelection.JitterFactor*float64(t.RetryPeriod)) {
		p.Addf("--leader-election-renew-deadline (%s) must be longer than %.1f times --leader-election-retry-period (%s)",
			t.RenewDeadline, leaderelection.JitterFactor, t.RetryPeriod)
	}
}
