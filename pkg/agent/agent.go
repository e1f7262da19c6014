package agent

import (
	"context"
	"fmt"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/pkg/healthz"
)

// informerResync is how often the informers replay every cached object to
// their handlers, so controllers re-check objects even without events.
const informerResync = 10 * time.Minute

// agentDeps is what the agent needs, all resolved before it starts.
type agentDeps struct {
	ClusterName string
	AgentID     string
	Hub         *rest.Config // the hub, with --hub-kube-api-qps/burst
	Spoke       *rest.Config // the managed cluster, with --kube-api-qps/burst
	Ready       *healthz.Readiness
}

// agent is the active replica's work: informers now, controllers later.
type agent struct {
	agentDeps
}

func newAgent(d agentDeps) *agent {
	return &agent{agentDeps: d}
}

// run starts the informers, reports ready once their caches are synced and
// blocks until ctx is cancelled; it returns after the informers have stopped.
func (a *agent) run(ctx context.Context) error {
	a.Ready.Set(false)
	defer a.Ready.Set(false)

	hubClient, err := versioned.NewForConfig(a.Hub)
	if err != nil {
		return fmt.Errorf("hub client: %w", err)
	}
	spokeClient, err := versioned.NewForConfig(a.Spoke)
	if err != nil {
		return fmt.Errorf("managed cluster client: %w", err)
	}
	// The hub factory only sees the namespace named after this cluster.
	hubInformers := externalversions.NewSharedInformerFactoryWithOptions(hubClient, informerResync,
		externalversions.WithNamespace(a.ClusterName))
	spokeInformers := externalversions.NewSharedInformerFactory(spokeClient, informerResync)
	works := hubInformers.Work().V1().ManifestWorks().Informer()
	applied := spokeInformers.Work().V1().AppliedManifestWorks().Informer()

	hubInformers.Start(ctx.Done())
	spokeInformers.Start(ctx.Done())
	defer hubInformers.Shutdown() // after ctx is done: waits for the informers to stop
	defer spokeInformers.Shutdown()

	if !cache.WaitForNamedCacheSyncWithContext(ctx, works.HasSynced, applied.HasSynced) {
		return nil // cancelled before the caches synced
	}
	klog.FromContext(ctx).Info("Ready", "cluster", a.ClusterName, "hub", a.Hub.Host, "agentID", a.AgentID)
	a.Ready.Set(true)

	<-ctx.Done()
	klog.FromContext(ctx).Info("Shutting down")
	return nil
}
