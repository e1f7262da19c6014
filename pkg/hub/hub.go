package hub

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/pkg/diagnostics"
	"github.com/manifestwork/work/pkg/hub/controllers/ttl"
	"github.com/manifestwork/work/pkg/kubeconn"
)

// informerResync is how often the informers replay every cached object to
// their handlers, so controllers re-check objects even without events.
const informerResync = 10 * time.Minute

// ttlWorkers is how many works the TTL controller handles at once.
const ttlWorkers = 2

// hubDeps is what the hub needs, all resolved before it starts.
type hubDeps struct {
	Config *rest.Config // the hub, with --kube-api-qps/burst
	Ready  *diagnostics.Readiness
	// CleanUp runs the TTL controller, which deletes completed works
	// (feature gate CleanUpCompletedManifestWork).
	CleanUp bool
	// ReplicaSets runs the ManifestWorkReplicaSet controller once the hub
	// serves its APIs (feature gate ManifestWorkReplicaSet).
	ReplicaSets bool
	// Hub names the hub in messages about its APIs.
	Hub kubeconn.Cluster
}

// hub is the active replica's work: the ManifestWork informer and the
// hub-side controllers.
type hub struct {
	hubDeps
}

func newHub(d hubDeps) *hub {
	return &hub{hubDeps: d}
}

// runnable is a controller with its number of workers.
type runnable struct {
	controller factory.Controller
	workers    int
}

// wiring is the hub's informers and the controllers fed by them.
type wiring struct {
	client      versioned.Interface
	recorder    events.Recorder
	informers   externalversions.SharedInformerFactory
	synced      []cache.InformerSynced
	controllers []runnable
}

// wire builds the client, the cluster-wide ManifestWork informer and the
// controllers; nothing runs yet.
func (h *hub) wire() (*wiring, error) {
	client, err := versioned.NewForConfig(h.Config)
	if err != nil {
		return nil, fmt.Errorf("hub client: %w", err)
	}
	informers := externalversions.NewSharedInformerFactory(client, informerResync)
	recorder := events.NewLoggingEventRecorder("work-hub", clock.RealClock{})
	w := &wiring{client: client, recorder: recorder, informers: informers}
	if !h.CleanUp {
		return w, nil // no controller yet: nothing to watch
	}
	works := informers.Work().V1().ManifestWorks()
	w.synced = append(w.synced, works.Informer().HasSynced)
	w.controllers = append(w.controllers,
		runnable{workers: ttlWorkers, controller: ttl.New(ttl.Deps{Client: client, Works: works, Recorder: recorder})})
	return w, nil
}

// run starts the informers and, once their caches have synced, the
// controllers; it reports ready then and blocks until ctx is cancelled. It
// returns after the controllers and informers have stopped.
func (h *hub) run(ctx context.Context) error {
	h.Ready.Set(false)
	defer h.Ready.Set(false)

	w, err := h.wire()
	if err != nil {
		return err
	}
	w.informers.Start(ctx.Done())
	defer w.informers.Shutdown() // after ctx is done: waits for the informers to stop

	if !cache.WaitForNamedCacheSyncWithContext(ctx, w.synced...) {
		return nil // cancelled before the caches synced
	}
	var wg sync.WaitGroup
	for _, c := range w.controllers {
		wg.Go(func() { c.controller.Run(ctx, c.workers) })
	}
	if h.ReplicaSets {
		wg.Go(func() { h.runReplicaSets(ctx, w) })
	}
	klog.FromContext(ctx).Info("Ready", "hub", h.Config.Host, "controllers", len(w.controllers))
	h.Ready.Set(true)

	<-ctx.Done()
	klog.FromContext(ctx).Info("Shutting down")
	wg.Wait()
	return nil
}
