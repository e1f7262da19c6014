package hub

import (
	"context"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/pkg/hub/controllers/ttl"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/startup"
)

// informerResync is how often the informers replay every cached object to
// their handlers, so controllers re-check objects even without events.
const informerResync = 10 * time.Minute

// ttlWorkers is how many works the TTL controller handles at once.
const ttlWorkers = 2

// hubDeps is what the hub needs, all resolved before it starts.
type hubDeps struct {
	Config *rest.Config // the hub, with --kube-api-qps/burst
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

// wiring is what the hub's controllers share.
type wiring struct {
	client    versioned.Interface
	recorder  events.Recorder
	informers externalversions.SharedInformerFactory
}

// wire builds the client, the cluster-wide ManifestWork informer and the
// controllers; nothing runs yet. The replica set controller runs beside
// the others: it starts once the hub serves its APIs.
func (h *hub) wire() (*startup.Controllers, error) {
	client, err := versioned.NewForConfig(h.Config)
	if err != nil {
		return nil, fmt.Errorf("hub client: %w", err)
	}
	w := &wiring{
		client:    client,
		recorder:  events.NewLoggingEventRecorder("work-hub", clock.RealClock{}),
		informers: externalversions.NewSharedInformerFactory(client, informerResync),
	}
	c := &startup.Controllers{Informers: []startup.InformerFactory{w.informers}}
	if h.CleanUp {
		works := w.informers.Work().V1().ManifestWorks()
		c.Synced = []cache.InformerSynced{works.Informer().HasSynced}
		c.Controllers = []startup.Controller{
			{Workers: ttlWorkers, Controller: ttl.New(ttl.Deps{Client: client, Works: works, Recorder: w.recorder})},
		}
	}
	if h.ReplicaSets {
		c.Background = []func(context.Context){func(ctx context.Context) { h.runReplicaSets(ctx, w) }}
	}
	c.ReadyLog = []any{"hub", h.Config.Host, "controllers", len(c.Controllers)}
	return c, nil
}
