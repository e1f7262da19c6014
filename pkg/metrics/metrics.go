// Package metrics defines the Prometheus metrics of the work hub and agent.
// Register adds them to the component-base legacy registry, which the health
// server serves at /metrics. Until Register is called they record nothing.
//
// Every label has a small, fixed set of values: no metric has a label per
// work or per object.
//
// Importing this package also makes every named workqueue report the
// standard workqueue_* metrics (depth, adds, latency, work duration,
// retries), labelled with the queue's name, which is its controller's name,
// and every client-go client report client-go's rest_client_* metrics
// (requests by code, method and host, their latency), so that the requests
// to each API server can be told apart.
package metrics

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	k8smetrics "k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
	_ "k8s.io/component-base/metrics/prometheus/restclient" // registers client-go's rest_client_* metrics in its init
	_ "k8s.io/component-base/metrics/prometheus/workqueue"  // sets the workqueue metrics provider in its init
)

const namespace = "work"

// Label values of the result label of reconciles and feedback scrapes.
const (
	Success = "success"
	Error   = "error"
)

// Label values of the result label of ManifestApplies.
const (
	ApplyWritten   = "written"   // the strategy wrote the object
	ApplyUnchanged = "unchanged" // nothing to write, also when the agent knew without asking
	ApplyError     = "error"     // the strategy or the executor check failed
)

// Label values of the mode label of FeedbackScrapes.
const (
	ScrapePoll  = "poll"  // read from the managed cluster's API
	ScrapeWatch = "watch" // read from a feedback watch's cache
)

// Label values of the result label of StatusPatches and FinalizerPatches.
const (
	PatchSent    = "sent"    // the patch was accepted
	PatchSkipped = "skipped" // nothing had changed; no request was sent
	PatchError   = "error"   // the request failed, e.g. with a conflict
	// PatchDeferred: the status of a work in transition was held back, to
	// be written at the end of the pacing interval (see workwriter.Pacing).
	PatchDeferred = "deferred"
)

// Label values of the patch label of PatchesFailing.
const (
	PatchStatus    = "status"
	PatchFinalizer = "finalizer"
)

// Label values of the action label of FinalizerPatches.
const (
	FinalizerAdd    = "add"
	FinalizerRemove = "remove"
)

// Label values of the result label of CredentialReloads.
const (
	ReloadLoaded  = "loaded"  // the new credential is used for new connections
	ReloadInvalid = "invalid" // the changed kubeconfig could not be used; the previous credential stays
)

// Label values of the result label of SubjectAccessReviews and ExecutorDryRuns.
const (
	ReviewAllowed = "allowed"
	ReviewDenied  = "denied"
	ReviewError   = "error"
)

// Label values of the state label of ReplicaSetRollouts.
const (
	RolloutProgressing = "progressing" // reaching the selected clusters
	RolloutRolledOut   = "rolledout"   // every selected cluster has the current template and succeeded
	RolloutPaused      = "paused"      // paused by its annotation
	RolloutStopped     = "stopped"     // failures beyond maxFailures stopped it
	RolloutAborted     = "aborted"     // failures aborted it: its clusters went back to the stable revision
	RolloutUnverified  = "unverified"  // a placement is missing or cannot be read
)

// Label values of the state label of ReplicaSetClusters: the work
// conditions that are True (drifted: InSync False).
const (
	ClusterApplied     = "applied"
	ClusterAvailable   = "available"
	ClusterProgressing = "progressing"
	ClusterDegraded    = "degraded"
	ClusterHealthy     = "healthy"
	ClusterDrifted     = "drifted"
)

var (
	// Reconciles counts the syncs of each controller by result.
	Reconciles = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "controller", Name: "reconciles_total",
		Help:           "Reconciles by controller and result (success, error).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"controller", "result"})

	// ReconcileDuration observes how long each sync of a controller took.
	ReconcileDuration = k8smetrics.NewHistogramVec(&k8smetrics.HistogramOpts{
		Namespace: namespace, Subsystem: "controller", Name: "reconcile_duration_seconds",
		Help:           "Duration of reconciles by controller.",
		Buckets:        k8smetrics.ExponentialBuckets(0.001, 2, 15), // 1ms to about 16s
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"controller"})

	// ManifestApplies counts manifests applied by update strategy and result.
	ManifestApplies = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "manifest", Name: "applies_total",
		Help:           "Manifest applies by update strategy (Update, CreateOnly, ServerSideApply, ReadOnly) and result (written, unchanged, error).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"strategy", "result"})

	// DriftRepairs counts objects the agent wrote back because someone on
	// the managed cluster changed what their work sets. The kind label
	// (Kind.group) takes only the kinds that works apply.
	DriftRepairs = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "drift", Name: "repairs_total",
		Help:           "Objects written back after a change on the managed cluster of fields their work sets, by kind (Kind.group).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"kind"})

	// FeedbackScrapes counts reads of live objects for status feedback and
	// condition rules.
	FeedbackScrapes = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "feedback", Name: "scrapes_total",
		Help:           "Reads of live objects for status feedback by mode (poll, watch) and result (success, error).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"mode", "result"})

	// FeedbackWatches is the number of (resource, namespace) pairs watched
	// for Watch feedback.
	FeedbackWatches = k8smetrics.NewGauge(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "feedback", Name: "watches",
		Help:           "Resource and namespace pairs watched for feedbackScrapeType Watch (at most --max-feedback-watch).",
		StabilityLevel: k8smetrics.ALPHA,
	})

	// WatchRestarts counts watches of resource types restarted at once
	// because the agent's rights may have changed.
	WatchRestarts = k8smetrics.NewCounter(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "objectwatch", Name: "rbac_restarts_total",
		Help:           "Watches of applied resource types that the API server refused (Forbidden), restarted at once after an RBAC change on the managed cluster.",
		StabilityLevel: k8smetrics.ALPHA,
	})

	// StatusPatches counts ManifestWork status writes by controller and result.
	StatusPatches = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "status", Name: "patches_total",
		Help:           "ManifestWork status patches by controller and result (sent, skipped because unchanged, error).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"controller", "result"})

	// FinalizerPatches counts edits of the agent's ManifestWork finalizer by
	// controller, action and result.
	FinalizerPatches = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "finalizer", Name: "patches_total",
		Help:           "ManifestWork finalizer patches by controller, action (add, remove) and result (sent, skipped because already so, error).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"controller", "action", "result"})

	// PatchesFailing counts the works whose status or finalizer patches by a
	// controller have failed for longer than the agent tolerates (see
	// package stalled), until one succeeds.
	PatchesFailing = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Name: "patches_failing",
		Help:           "ManifestWorks whose status or finalizer patches by a controller keep failing, by controller and patch (status, finalizer).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"controller", "patch"})

	// SubjectAccessReviews counts the reviews sent for executor checks.
	SubjectAccessReviews = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "executor", Name: "subject_access_reviews_total",
		Help:           "SubjectAccessReviews sent to the managed cluster for executor checks, by result (allowed, denied, error).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"result"})

	// ExecutorDryRuns counts the server-side dry runs made as an executor,
	// which decide whether it may write an RBAC object.
	ExecutorDryRuns = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "executor", Name: "dry_runs_total",
		Help:           "Server-side dry-run creates of RBAC objects made as an executor (impersonated) for executor checks, by result (allowed, denied, error).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"result"})

	// ManifestHealth is the number of manifests by kind and health (the
	// reason of their Healthy condition's state: Healthy, NoHealthCheck,
	// Progressing, Degraded, HealthUnknown).
	ManifestHealth = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "manifest", Name: "health",
		Help:           "Manifests of the agent's works by kind and health (Healthy, NoHealthCheck, Progressing, Degraded, HealthUnknown).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"kind", "health"})

	// ReplicaSetRollouts is the number of ManifestWorkReplicaSets by the
	// state of their rollout.
	ReplicaSetRollouts = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "replicaset", Name: "rollouts",
		Help:           "ManifestWorkReplicaSets by rollout state (progressing, rolledout, paused, stopped, aborted, unverified).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"state"})

	// ReplicaSetClusters is the number of clusters where replica sets have a
	// work, summed over the replica sets, by what the work reports.
	ReplicaSetClusters = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "replicaset", Name: "clusters",
		Help:           "Clusters with a work of a ManifestWorkReplicaSet, summed over replica sets, by the state the work reports (applied, available, progressing, degraded, healthy, drifted); a cluster counts in each state it is in.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"state"})

	// ManifestWorks is the number of the agent's works by the status of each
	// of their conditions Applied, Available, Progressing and Degraded.
	ManifestWorks = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Name: "manifestworks",
		Help:           "ManifestWorks of the agent by condition (Applied, Available, Progressing, Degraded) and its status (True, False, Unknown); a work counts once in each condition it has.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"condition", "status"})

	// ExecutorCacheHits counts executor decisions answered from the cache.
	ExecutorCacheHits = k8smetrics.NewCounter(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "executor", Name: "cache_hits_total",
		Help:           "Executor decisions answered from the ExecutorValidatingCaches cache instead of a SubjectAccessReview.",
		StabilityLevel: k8smetrics.ALPHA,
	})
)

// Metrics of the credentials the processes connect with; the cluster label
// is the cluster's role: "hub", "managed cluster" or "agent cluster".
var (
	// CredentialReloads counts the changes of a kubeconfig (or of the files it
	// names) that the process followed, by result.
	CredentialReloads = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "credential", Name: "reloads_total",
		Help:           "Changes of a cluster's kubeconfig or of the files it names, by cluster and result (loaded, invalid).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"cluster", "result"})

	// CredentialExpiry is when each credential the process holds expires:
	// client certificates of kubeconfigs and CloudEvents configs, bearer
	// tokens that are JWTs, the webhook's serving certificate. Its label is
	// the credential's name, e.g. hub-token.
	CredentialExpiry = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "credential", Name: "expiry_timestamp_seconds",
		Help:           "Unix time at which a credential the process holds expires (not after of a certificate, exp of a JWT), by credential: e.g. hub-kubeconfig-client-cert, hub-token, webhook-serving-cert, cloudevents-client-cert.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"credential"})
	// CredentialRejected is 1 while a cluster answers the process's requests
	// with 401 Unauthorized.
	CredentialRejected = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "credential", Name: "rejected",
		Help:           "1 while the cluster rejects the process's credential (401 Unauthorized): expired, revoked or wrong.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"cluster"})

	// ClusterUnreachable is 1 while a cluster does not answer the process
	// at all (pkg/kubeconn/outage), and for an agent on a CloudEvents driver
	// (cluster hub) while it is not connected to the broker or server.
	ClusterUnreachable = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "cluster", Name: "unreachable",
		Help:           "1 while the cluster does not answer (no answer, or not ready); for an agent on a CloudEvents driver, cluster hub, while it is not connected to the MQTT broker or gRPC server.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"cluster"})

	// CredentialRejections counts the times a cluster started rejecting the
	// process's credential.
	CredentialRejections = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "credential", Name: "rejections_total",
		Help:           "Times the cluster started to reject the process's credential (401 Unauthorized).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"cluster"})

	// CredentialFirstUsed is when the cluster answered the first request
	// sent with the newest reloaded credential.
	CredentialFirstUsed = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "credential", Name: "first_used_timestamp_seconds",
		Help:           "Unix time at which the cluster answered the first request sent with the newest reloaded credential.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"cluster"})

	// WritesLimit is how many writes the process lets be in flight to a
	// cluster now (pkg/kubeconn/writelimit): below its maximum after the
	// cluster showed overload.
	WritesLimit = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "writes", Name: "in_flight_limit",
		Help:           "Writes the process lets be in flight to the cluster now; lowered when the cluster shows overload, raised as it answers in time.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"cluster"})

	// WritesOverloaded counts the times a cluster's answer to a write
	// lowered WritesLimit, by the sign of overload (throttled, unavailable,
	// slow, failed).
	WritesOverloaded = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "writes", Name: "overloaded_total",
		Help:           "Times the cluster's answer to a write showed overload and lowered the writes in flight, by sign: throttled (429), unavailable (502-504), slow, failed (no answer).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"cluster", "reason"})

	// CloudEventsReceived counts the events an agent on a CloudEvents
	// driver received, by what became of them: spec, delete, stale (a
	// duplicate or late spec), invalid (a spec refused with InvalidSpec),
	// status_resync, malformed, unknown (a type the agent does not know),
	// ignored (for another cluster, or not for agents).
	CloudEventsReceived = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "cloudevents", Name: "received_total",
		Help:           "Events received from the sources over MQTT or gRPC, by what became of them: spec, delete, stale, invalid, status_resync, malformed, unknown, ignored.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"result"})

	// CloudEventsSent counts the status events an agent on a CloudEvents
	// driver sent, by action and result (sent, error).
	CloudEventsSent = k8smetrics.NewCounterVec(&k8smetrics.CounterOpts{
		Namespace: namespace, Subsystem: "cloudevents", Name: "sent_total",
		Help:           "Status events sent to the sources over MQTT or gRPC, by action (update_request, delete_request, resync_response) and result (sent, error).",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"action", "result"})

	// UnimplementedFeatureGates is 1 for each feature gate that is enabled
	// but that this process does not implement.
	UnimplementedFeatureGates = k8smetrics.NewGaugeVec(&k8smetrics.GaugeOpts{
		Namespace: namespace, Subsystem: "feature_gate", Name: "unimplemented",
		Help:           "1 for an enabled feature gate that this process accepts (OCM's operators pass it) but does not implement.",
		StabilityLevel: k8smetrics.ALPHA,
	}, []string{"gate"})
)

// all are the metrics Register adds.
var all = []k8smetrics.Registerable{
	Reconciles, ReconcileDuration, ManifestApplies, DriftRepairs, FeedbackScrapes, FeedbackWatches,
	StatusPatches, FinalizerPatches, PatchesFailing, SubjectAccessReviews, ExecutorDryRuns, ExecutorCacheHits, ManifestHealth,
	ManifestWorks, ClusterUnreachable,
	CredentialReloads, CredentialRejected, CredentialRejections, CredentialFirstUsed, CredentialExpiry, UnimplementedFeatureGates,
	WritesLimit, WritesOverloaded, WatchRestarts, ReplicaSetRollouts, ReplicaSetClusters,
	CloudEventsReceived, CloudEventsSent,
}

var registerOnce sync.Once

// Register adds the metrics to the legacy registry; later calls do nothing.
func Register() {
	registerOnce.Do(func() { legacyregistry.MustRegister(all...) })
}

// Names are the names of the metrics Register adds, e.g. for a test that
// checks that alerts and dashboards name only metrics the binaries serve.
// Those of other packages (workqueue_*, rest_client_*) are not among them.
func Names() []string {
	names := make([]string, len(all))
	for i, m := range all {
		names[i] = m.FQName()
	}
	return names
}

// InstrumentSync wraps a controller's sync so that every call is counted in
// Reconciles, by its result, and timed in ReconcileDuration.
func InstrumentSync(controller string, sync factory.SyncFunc) factory.SyncFunc {
	return func(ctx context.Context, syncCtx factory.SyncContext) error {
		start := time.Now()
		err := sync(ctx, syncCtx)
		ReconcileDuration.WithLabelValues(controller).Observe(time.Since(start).Seconds())
		result := Success
		if err != nil && !errors.Is(err, factory.SyntheticRequeueError) { // a requested retry, not a failure
			result = Error
		}
		Reconciles.WithLabelValues(controller, result).Inc()
		return err
	}
}
