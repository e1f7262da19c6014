package agent

import (
	"fmt"
	"net/http"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"

	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/kubeconn/outage"
)

// watchClients are the clients the informers of the managed cluster list
// and watch with. Their requests wait through an outage of the cluster and
// go the moment it answers again, instead of failing into client-go's
// backoff (package outage); the controllers' own clients fail at once, as
// their errors belong on the works. The hub's are its connection's
// (hubConnection.WatchClient).
type watchClients struct {
	monitor  *outage.Monitor // the managed cluster's
	spoke    versioned.Interface
	kube     kubernetes.Interface // RBAC of the managed cluster
	metadata metadata.Interface   // applied objects
	dynamic  dynamic.Interface    // watched feedback
}

func newWatchClients(spoke *rest.Config) (*watchClients, error) {
	monitor, spokeHTTP, err := monitored("managed cluster", spoke)
	if err != nil {
		return nil, err
	}
	w := &watchClients{monitor: monitor}
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
