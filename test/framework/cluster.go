package framework

import (
	"context"
	"fmt"
	"time"

	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// Clients are the clientsets of one cluster.
type Clients struct {
	Config        *rest.Config
	Kube          kubernetes.Interface
	Dynamic       dynamic.Interface
	APIExtensions apiextensionsclient.Interface
	Work          workclient.Interface
}

// NewClients builds every clientset from one client configuration.
func NewClients(config *rest.Config) (*Clients, error) {
	c := &Clients{Config: rest.CopyConfig(config)}
	c.Config.QPS, c.Config.Burst = 100, 200
	var err error
	if c.Kube, err = kubernetes.NewForConfig(c.Config); err != nil {
		return nil, err
	}
	if c.Dynamic, err = dynamic.NewForConfig(c.Config); err != nil {
		return nil, err
	}
	if c.APIExtensions, err = apiextensionsclient.NewForConfig(c.Config); err != nil {
		return nil, err
	}
	if c.Work, err = workclient.NewForConfig(c.Config); err != nil {
		return nil, err
	}
	return c, nil
}

// Cluster is one kwok cluster of an e2e run.
type Cluster struct {
	*Clients
	// Name is the name tests use: "hub", "cluster1", "cluster2".
	Name string
	// KwokName is the kwokctl cluster name, Name plus the run suffix.
	KwokName string
	// Kubeconfig is an admin kubeconfig file for the cluster.
	Kubeconfig string
	// WorkKubeconfig is a kubeconfig of the cluster for the ServiceAccount
	// the work process on it runs as under deploy/: work-hub on the hub,
	// klusterlet-work-sa on a managed cluster. StartHub and StartAgent use it.
	WorkKubeconfig string
	// AgentHubKubeconfig, of a managed cluster, is a kubeconfig of the hub
	// for ServiceAccount work-agent in the cluster's namespace
	// (deploy/cluster-namespace): its agent's identity on the hub.
	AgentHubKubeconfig string
}

func newCluster(name, kwokName, kubeconfig string) (*Cluster, error) {
	// The certificates are read once, into the configuration: clients of a
	// cluster a test deleted would otherwise log, every few seconds until
	// the run ends, that their certificate files are gone.
	raw, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		return nil, err
	}
	if err := clientcmdapi.FlattenConfig(raw); err != nil {
		return nil, err
	}
	config, err := clientcmd.NewDefaultClientConfig(*raw, nil).ClientConfig()
	if err != nil {
		return nil, err
	}
	clients, err := NewClients(config)
	if err != nil {
		return nil, err
	}
	return &Cluster{Clients: clients, Name: name, KwokName: kwokName, Kubeconfig: kubeconfig}, nil
}

// InstallCRDs creates the CRDs found in dirs and waits until they are
// established and served.
func (c *Clients) InstallCRDs(dirs ...string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	if err := checkCRDDirs(dirs); err != nil {
		return nil, err
	}
	return envtest.InstallCRDs(c.Config, envtest.CRDInstallOptions{
		Paths:              dirs,
		ErrorIfPathMissing: true,
		MaxTime:            time.Minute,
		PollInterval:       PollInterval,
	})
}

// CRDEstablished reports whether the named CRD exists with condition
// Established=True.
func (c *Clients) CRDEstablished(ctx context.Context, name string) (bool, error) {
	crd, err := c.APIExtensions.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, cond := range crd.Status.Conditions {
		if cond.Type == apiextensionsv1.Established {
			return cond.Status == apiextensionsv1.ConditionTrue, nil
		}
	}
	return false, nil
}

// WaitCRDsEstablished waits at most timeout for the CRDs to be Established.
func (c *Clients) WaitCRDsEstablished(ctx context.Context, timeout time.Duration, crds ...*apiextensionsv1.CustomResourceDefinition) error {
	for _, crd := range crds {
		err := poll(ctx, timeout, func(ctx context.Context) (bool, error) {
			return c.CRDEstablished(ctx, crd.Name)
		})
		if err != nil {
			return fmt.Errorf("framework: CRD %s not established: %w", crd.Name, err)
		}
	}
	return nil
}

// EnsureNamespaces creates the namespaces that do not exist yet.
func (c *Clients) EnsureNamespaces(ctx context.Context, names ...string) error {
	for _, name := range names {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		_, err := c.Kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("framework: create namespace %s: %w", name, err)
		}
	}
	return nil
}

// WaitNodesReady waits at most timeout for at least n nodes with Ready=True.
func (c *Clients) WaitNodesReady(ctx context.Context, timeout time.Duration, n int) error {
	err := poll(ctx, timeout, func(ctx context.Context) (bool, error) {
		nodes, err := c.Kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil //nolint:nilerr // the API server may still be settling
		}
		return countReady(nodes.Items) >= n, nil
	})
	if err != nil {
		return fmt.Errorf("framework: %d ready nodes: %w", n, err)
	}
	return nil
}

func countReady(nodes []corev1.Node) int {
	ready := 0
	for i := range nodes {
		if nodeReady(&nodes[i]) {
			ready++
		}
	}
	return ready
}

// nodeReady says whether a node's Ready condition is True.
func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
