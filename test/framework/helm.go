package framework

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// EnvHelm names the helm binary of the chart tests. When it is unset the
// framework runs hack/helm.sh (which builds it on its first run) and reads
// the path from its output.
const EnvHelm = "WORK_HELM"

// helmBuildTimeout bounds a first build of helm by hack/helm.sh.
const helmBuildTimeout = 30 * time.Minute

// helmTimeout bounds one helm command.
const helmTimeout = 2 * time.Minute

var (
	helmOnce sync.Once
	helmPath string
	helmErr  error
)

// ChartDir is the folder of a Helm chart under deploy/charts.
func ChartDir(name string) string { return RepoPath("deploy", "charts", name) }

// HelmBinary returns the absolute path of helm, from WORK_HELM or else
// hack/helm.sh.
func HelmBinary() (string, error) {
	helmOnce.Do(func() { helmPath, helmErr = findHelm() })
	return helmPath, helmErr
}

func findHelm() (string, error) {
	path := os.Getenv(EnvHelm)
	if path == "" {
		var err error
		if path, err = runBuildScript("helm.sh", helmBuildTimeout); err != nil {
			return "", err
		}
	}
	path, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("framework: helm: %w", err)
	}
	if info.Mode()&0o111 == 0 {
		return "", fmt.Errorf("framework: helm %s is not executable", path)
	}
	return path, nil
}

// Helm runs helm against one cluster, with configuration, cache and data
// folders of its own, so that no repository or plugin of the user matters.
type Helm struct {
	// Kubeconfig is the cluster's; empty for commands that need none
	// (template, lint).
	Kubeconfig string

	binary string
	home   string
}

// NewHelm returns a Helm for kubeconfig that keeps its folders under home.
func NewHelm(kubeconfig, home string) (*Helm, error) {
	binary, err := HelmBinary()
	if err != nil {
		return nil, err
	}
	return &Helm{Kubeconfig: kubeconfig, binary: binary, home: home}, nil
}

// Run runs helm with args, bounded to two minutes, and returns what it
// printed; a non-zero exit is an error that carries its stderr.
func (h *Helm) Run(ctx context.Context, args ...string) (Result, error) {
	env := []string{
		"HELM_CONFIG_HOME=" + filepath.Join(h.home, "config"),
		"HELM_CACHE_HOME=" + filepath.Join(h.home, "cache"),
		"HELM_DATA_HOME=" + filepath.Join(h.home, "data"),
	}
	if h.Kubeconfig != "" {
		args = append([]string{"--kubeconfig", h.Kubeconfig}, args...)
	}
	return command{name: h.binary, args: args, env: env, timeout: helmTimeout}.run(ctx)
}
