package agent

import (
	"time"

	"k8s.io/client-go/rest"

	"github.com/manifestwork/work/pkg/agent/status/feedback"
)

// informerResync is how often the informers replay every cached object to
// their handlers, so controllers re-check objects even without events.
const informerResync = 10 * time.Minute

// agentDeps is what the agent needs, all resolved before it starts.
type agentDeps struct {
	ClusterName string
	AgentID     string
	Hub         *rest.Config // the hub, with --hub-kube-api-qps/burst; nil with Source
	// Source delivers the works as CloudEvents (--workload-source-driver
	// mqtt or grpc); nil with the kube driver.
	Source  *source
	Spoke   *rest.Config // the managed cluster, with --kube-api-qps/burst
	Workers int          // concurrent ManifestWork reconciles
	// EvictionGracePeriod is how long an AppliedManifestWork whose work is gone stays.
	EvictionGracePeriod time.Duration
	// Feedback: how often polled manifests are read, how many watches may
	// run, and what JSONPaths values may return.
	StatusSyncInterval time.Duration
	MaxFeedbackWatch   int
	Feedback           feedback.Options
	// MaxStatusSize is the largest status written, in bytes of JSON.
	MaxStatusSize int
	// ExecutorCaching remembers executor permission decisions until RBAC
	// changes (the ExecutorValidatingCaches feature gate).
	ExecutorCaching bool
}

// agent is the active replica's work: its informers and controllers (wire).
type agent struct {
	agentDeps
}

func newAgent(d agentDeps) *agent {
	return &agent{agentDeps: d}
}
