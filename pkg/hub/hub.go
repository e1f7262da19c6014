package hub

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

// hubDeps is what the hub needs, all resolved before it starts.
type hubDeps struct {
	Config *rest.Config // the hub, with --kube-api-qps/burst
	Ready  *healthz.Readiness
}

// hub is the active replica's work: informers now, controllers later.
type hub struct {
	hubDeps
}

func newHub(d hubDeps) *hub {
	return &hub{hubDeps: d}
}

// run starts a cluster-wide ManifestWork informer, reports ready once its
// cache is synced and blocks until ctx is cancelled; it returns after the
// informer has stopped.
func (h *hub) run(ctx context.Context) error {
	h.Ready.Set(false)
	defer h.Ready.Set(false)

	client, err := versioned.NewForConfig(h.Config)
	if err != nil {
		return fmt.Errorf("hub client: %w", err)
	}
	informers := externalversions.NewSharedInformerFactory(client, informerResync)
	works := informers.Work().V1().ManifestWorks().Informer()

	informers.Start(ctx.Done())
	defer informers.Shutdown() // after ctx is done: waits for the informer to stop

	if !cache.WaitForNamedCacheSyncWithContext(ctx, works.HasSynced) {
		return nil // cancelled before the cache synced
	}
	klog.FromContext(ctx).Info("Ready", "hub", h.Config.Host)
	h.Ready.Set(true)

	<-ctx.Done()
	klog.FromContext(ctx).Info("Shutting down")
	return nil
}
