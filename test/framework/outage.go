package framework

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// nodesBackTimeout bounds waiting for a restarted cluster's nodes.
const nodesBackTimeout = 2 * time.Minute

// StopCluster stops the kube-apiserver and etcd of the hub or a managed
// cluster, with the cluster's other components, the way a crash would
// (kwokctl kills them), and returns the function that starts them again.
// start returns once the kube-apiserver serves requests; it does nothing the
// second time, so a test also registers it as a cleanup, which keeps the
// shared clusters up for the next tests whatever happens.
//
// Until start returns, no other run creates a cluster: kwokctl picks ports
// that nothing listens on, and would otherwise take the stopped cluster's.
func (e *E2E) StopCluster(name string) (start func() error, err error) {
	c := e.Cluster(name)
	if c == nil {
		return nil, fmt.Errorf("framework: no cluster %q", name)
	}
	unlock, err := lockFile(e.ctx, filepath.Join(RunsRoot(), kwokLockFile))
	if err != nil {
		return nil, err
	}
	if err := e.kwok.stop(e.ctx, c.KwokName, c.Kubeconfig); err != nil {
		// Some components may be down: try to bring them all back.
		err = fmt.Errorf("framework: stop %s: %w", name, err)
		if startErr := e.kwok.start(e.ctx, c.KwokName, c.Kubeconfig); startErr != nil {
			err = fmt.Errorf("%w; start again: %w", err, startErr)
		}
		unlock()
		return nil, err
	}
	var once sync.Once
	var startErr error
	return func() error {
		once.Do(func() {
			defer unlock()
			if err := e.kwok.start(e.ctx, c.KwokName, c.Kubeconfig); err != nil {
				startErr = fmt.Errorf("framework: start %s: %w", name, err)
				return
			}
			if err := nodesManagedAgain(e.ctx, c.Kube); err != nil {
				startErr = fmt.Errorf("framework: start %s: %w", name, err)
			}
		})
		return startErr
	}, nil
}

// nodesManagedAgain gives the fake nodes of a restarted cluster back to its
// new kwok controller at once. kwok holds each node's lease under an identity
// of its process; a kubelet keeps its node's, so a restarted kubelet renews
// its lease, but a restarted kwok finds the lease held by its dead
// predecessor and waits for it to expire (40 s), while no pod on the node
// becomes Running. Deleting the stale leases lets it create them now; the
// wait ends when every node has a lease and is Ready.
func nodesManagedAgain(ctx context.Context, kube kubernetes.Interface) error {
	leases := kube.CoordinationV1().Leases(corev1.NamespaceNodeLease)
	if err := leases.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		return fmt.Errorf("deleting the stale node leases: %w", err)
	}
	var last error
	err := poll(ctx, nodesBackTimeout, func(ctx context.Context) (bool, error) {
		nodes, err := kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			last = err
			return false, nil
		}
		for _, n := range nodes.Items {
			if _, err := leases.Get(ctx, n.Name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
				last = fmt.Errorf("node %s has no lease yet", n.Name)
				return false, nil
			}
			if !nodeReady(&n) {
				last = fmt.Errorf("node %s is not Ready", n.Name)
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("nodes not managed again: %w (%v)", err, last)
	}
	return nil
}
