package framework

import (
	"fmt"
	"path/filepath"
	"sync"
)

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
			}
		})
		return startErr
	}, nil
}
