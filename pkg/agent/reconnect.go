package agent

import (
	"fmt"
	"net/http"

	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/workqueue"

	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/kubeconn/outage"
)

// watchClients are the clients the informers list and watch with. Their
// requests wait through an outage of their cluster and go the moment it
// answers again, instead of failing into client-go's backoff (package
// outage); the controllers' own clients fail at once, as their errors
// belong on the works.
type watchClients struct {
	monitors     outage.Monitors // hub, managed cluster
	spokeMonitor *outage.Monitor // the managed cluster's
	hub, spoke   versioned.Interface
	kube         kubernetes.Interface // RBAC of the managed cluster
	metadata     metadata.Interface   // applied objects
	dynamic      dynamic.Interface    // watched feedback
}

func newWatchClients(hub, spoke *rest.Config) (*watchClients, error) {
	hubMonitor, hubHTTP, err := monitored("hub", hub)
	if err != nil {
		return nil, err
	}
	spokeMonitor, spokeHTTP, err := monitored("managed cluster", spoke)
	if err != nil {
		return nil, err
	}
	w := &watchClients{monitors: outage.Monitors{hubMonitor, spokeMonitor}, spokeMonitor: spokeMonitor}
	if w.hub, err = versioned.NewForConfigAndClient(hub, hubHTTP); err != nil {
		return nil, fmt.Errorf("hub client: %w", err)
	}
	if w.spoke, err = versioned.NewForConfigAndClient(spoke, spokeHTTP); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	if w.kube, err = kubernetes.NewForConfigAndClient(spoke, spokeHTTP); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	if w.metadata, err = metadata.NewForConfigAndClient(spoke, spokeHTTP); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	if w.dynamic, err = dynamic.NewForConfigAndClient(spoke, spokeHTTP); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	return w, nil
}

// monitored returns the outage Monitor of a cluster and the HTTP client
// through it.
func monitored(cluster string, cfg *rest.Config) (*outage.Monitor, *http.Client, error) {
	m, err := outage.New(outage.Deps{Cluster: cluster, Config: cfg})
	if err != nil {
		return nil, nil, err
	}
	client, err := m.HTTPClient(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("%s client: %w", cluster, err)
	}
	return m, client, nil
}

// retryFailed returns what retries at once, when a cluster answers again
// after an outage, every work or AppliedManifestWork whose reconcile failed
// lately in the queues the controllers share: the backoff that the outage
// built up says nothing about the clusters any more. (The ManifestWork
// controller does the same with its own per-work backoff.)
func (q queues) retryFailed(works worklisters.ManifestWorkNamespaceLister, applied worklisters.AppliedManifestWorkLister) func() {
	byWork := []factory.SyncContext{q.available, q.record, q.finalize, q.feedback}
	return func() {
		all, _ := works.List(labels.Everything()) // a lister does not fail
		for _, work := range all {
			key := work.Namespace + "/" + work.Name
			for _, s := range byWork {
				retryNow(s.Queue(), key)
			}
		}
		appliedWorks, _ := applied.List(labels.Everything())
		for _, a := range appliedWorks {
			retryNow(q.done.Queue(), a.Name)
		}
	}
}

// retryNow queues key at once if it is backing off after failures.
func retryNow(queue workqueue.RateLimitingInterface, key string) {
	if queue.NumRequeues(key) > 0 {
		queue.Forget(key)
		queue.Add(key)
	}
}
