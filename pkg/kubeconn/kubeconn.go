// Package kubeconn turns a kubeconfig flag into a client config and checks,
// once at startup, that the cluster behind it answers and serves the API the
// process needs. Every failure is a single line naming the cluster, the file
// and the cause, instead of client-go's retries and stack of wrapped errors.
package kubeconn

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Cluster is one cluster the process talks to, as the user named it.
type Cluster struct {
	// Role names the cluster in messages, e.g. "hub" or "managed cluster".
	Role string
	// Flag is the flag giving the kubeconfig, e.g. "--hub-kubeconfig".
	Flag string
	// Kubeconfig is the file; empty means the pod's in-cluster service account.
	Kubeconfig string
	// OnCredential, if set, is told when the cluster starts rejecting the
	// credential of Kubeconfig (401 Unauthorized), and when it accepts it
	// again, with a one-line message. It must not block.
	OnCredential func(rejected bool, message string)
}

// String is the prefix of every error about the cluster, e.g.
// `hub kubeconfig "/etc/hub/kubeconfig"`.
func (c Cluster) String() string {
	if c.Kubeconfig == "" {
		return c.Role + " in-cluster config"
	}
	return fmt.Sprintf("%s kubeconfig %q", c.Role, c.Kubeconfig)
}

// Load builds the client config for the cluster. Relative file references
// in the kubeconfig (certificates, keys) are resolved against its folder.
func (c Cluster) Load() (*rest.Config, error) {
	if c.Kubeconfig == "" {
		return c.loadInCluster()
	}
	raw, err := clientcmd.LoadFromFile(c.Kubeconfig)
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return nil, fmt.Errorf("%s: cannot read file: %w", c, pathErr.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not a valid kubeconfig: %s", c, OneLine(err.Error()))
	}
	if err := clientcmd.ResolveLocalPaths(raw); err != nil {
		return nil, fmt.Errorf("%s: %s", c, OneLine(err.Error()))
	}
	cfg, err := clientcmd.NewDefaultClientConfig(*raw, &clientcmd.ConfigOverrides{}).ClientConfig()
	if clientcmd.IsEmptyConfig(err) {
		return nil, fmt.Errorf("%s: the file names no cluster (no current-context or server)", c)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s", c, OneLine(err.Error()))
	}
	return cfg, nil
}

func (c Cluster) loadInCluster() (*rest.Config, error) {
	cfg, err := rest.InClusterConfig()
	if errors.Is(err, rest.ErrNotInCluster) {
		return nil, fmt.Errorf("%s: not running in a pod (KUBERNETES_SERVICE_HOST is unset); pass %s", c, c.Flag)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s", c, OneLine(err.Error()))
	}
	return cfg, nil
}

// OneLine folds a possibly multi-line message into one line.
func OneLine(msg string) string {
	lines := strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "; ")
}
