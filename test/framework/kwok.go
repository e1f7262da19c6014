package framework

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"time"
)

const (
	kwokCreateTimeout = 4 * time.Minute
	kwokDeleteTimeout = 2 * time.Minute
	kwokLockFile      = "kwokctl-create.lock"
)

// kwok runs kwokctl with the binary runtime and only test-bed binaries, in a
// work folder private to the run, so nothing is downloaded and nothing
// outside the run folder (no ~/.kwok, no ~/.kube/config) is touched.
type kwok struct {
	bin     string // test-bed folder
	workdir string // KWOK_WORKDIR
	home    string // HOME (kwokctl keeps a discovery cache in ~/.kube/cache)
	logPath string // kwokctl invocations and their output
}

func (k *kwok) kwokctl() string { return filepath.Join(k.bin, "kwokctl") }

func (k *kwok) command(kubeconfig string, timeout time.Duration, args ...string) command {
	return command{
		name: k.kwokctl(),
		args: args,
		env: []string{
			"KWOK_WORKDIR=" + k.workdir,
			"KWOK_KUBECTL_BINARY=" + filepath.Join(k.bin, "kubectl"),
			"KUBECONFIG=" + kubeconfig,
			"HOME=" + k.home,
		},
		timeout: timeout,
		logPath: k.logPath,
	}
}

// createArgs is the kwokctl command line that creates a cluster.
func (k *kwok) createArgs(name, kubeconfig string) []string {
	bin := func(name string) string { return filepath.Join(k.bin, name) }
	return []string{
		"--name", name, "create", "cluster",
		"--runtime", "binary",
		"--kubeconfig", kubeconfig,
		"--kube-apiserver-binary", bin("kube-apiserver"),
		"--kube-controller-manager-binary", bin("kube-controller-manager"),
		"--kube-scheduler-binary", bin("kube-scheduler"),
		"--etcd-binary", bin("etcd"),
		"--kwok-controller-binary", bin("kwok"),
		"--quiet-pull",
		"--wait", "3m",
	}
}

// create creates a cluster. kwokctl picks free ports by probing downwards
// from 32767 in every process, so two runs creating clusters at once could
// pick the same ports: creations are serialised across runs by a file lock.
func (k *kwok) create(ctx context.Context, name, kubeconfig string) error {
	unlock, err := lockFile(ctx, filepath.Join(RunsRoot(), kwokLockFile))
	if err != nil {
		return err
	}
	defer unlock()
	_, err = k.command(kubeconfig, kwokCreateTimeout, k.createArgs(name, kubeconfig)...).run(ctx)
	if err != nil {
		return err
	}
	return k.waitPortsListening(ctx, name)
}

// portLine matches the ports kwokctl chose, in the options of kwok.yaml.
var portLine = regexp.MustCompile(`(?m)^  (?:etcdPeerPort|etcdPort|kubeApiserverPort|kubeControllerManagerPort|kubeSchedulerPort|kwokControllerPort): (\d+)$`)

// waitPortsListening waits until every port kwokctl chose for the cluster
// accepts connections, so that the next kwokctl sees them taken.
func (k *kwok) waitPortsListening(ctx context.Context, name string) error {
	data, err := os.ReadFile(filepath.Join(k.clusterDir(name), "kwok.yaml"))
	if err != nil {
		return err
	}
	for _, m := range portLine.FindAllStringSubmatch(string(data), -1) {
		addr := net.JoinHostPort("127.0.0.1", m[1])
		err := poll(ctx, 30*time.Second, func(context.Context) (bool, error) {
			conn, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				_ = conn.Close()
			}
			return err == nil, nil
		})
		if err != nil {
			return fmt.Errorf("framework: cluster %s: nothing listens on %s: %w", name, addr, err)
		}
	}
	return nil
}

// scaleNodes makes the cluster have n fake nodes.
func (k *kwok) scaleNodes(ctx context.Context, name, kubeconfig string, n int) error {
	args := []string{"--name", name, "scale", "node", "--replicas", strconv.Itoa(n)}
	_, err := k.command(kubeconfig, time.Minute, args...).run(ctx)
	return err
}

// delete deletes a cluster and its context in kubeconfig.
func (k *kwok) delete(ctx context.Context, name, kubeconfig string) error {
	args := []string{"--name", name, "delete", "cluster", "--kubeconfig", kubeconfig}
	_, err := k.command(kubeconfig, kwokDeleteTimeout, args...).run(ctx)
	return err
}

// stop kills every component of a cluster, kube-apiserver and etcd among
// them; their data and configuration stay.
func (k *kwok) stop(ctx context.Context, name, kubeconfig string) error {
	args := []string{"--name", name, "stop", "cluster"}
	_, err := k.command(kubeconfig, kwokDeleteTimeout, args...).run(ctx)
	return err
}

// start starts the components of a stopped cluster again. kwokctl returns
// once the kube-apiserver serves /version; then every port is waited for.
func (k *kwok) start(ctx context.Context, name, kubeconfig string) error {
	args := []string{"--name", name, "start", "cluster"}
	if _, err := k.command(kubeconfig, kwokCreateTimeout, args...).run(ctx); err != nil {
		return err
	}
	return k.waitPortsListening(ctx, name)
}

// clusterDir is where kwokctl keeps a cluster's configuration, pids and logs.
func (k *kwok) clusterDir(name string) string {
	return filepath.Join(k.workdir, "clusters", name)
}

// deleteKwokClusters deletes the clusters a run recorded; the reaper uses it.
func deleteKwokClusters(s runState) {
	if s.Kwokctl == "" {
		return
	}
	k := &kwok{bin: filepath.Dir(s.Kwokctl), workdir: s.KwokWorkdir, home: filepath.Join(filepath.Dir(s.KwokWorkdir), "home")}
	for _, c := range s.Clusters {
		if err := k.delete(context.Background(), c.Name, c.Kubeconfig); err != nil {
			fmt.Fprintf(os.Stderr, "framework: %v\n", err)
		}
	}
}

// copyKwokLogs copies the component logs of a kwok cluster into dst/<name>/.
func copyKwokLogs(workdir, name, dst string) {
	if workdir == "" {
		return
	}
	logs, _ := filepath.Glob(filepath.Join(workdir, "clusters", name, "logs", "*"))
	if len(logs) == 0 {
		return
	}
	dir := filepath.Join(dst, "kwok-"+name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	for _, log := range logs {
		if data, err := os.ReadFile(log); err == nil {
			_ = os.WriteFile(filepath.Join(dir, filepath.Base(log)), data, 0o644)
		}
	}
}

// lockFile takes an exclusive flock on path, polling so that ctx can end the
// wait. The lock goes with the process, also when it is killed.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	err = poll(ctx, 10*time.Minute, func(context.Context) (bool, error) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		return err == nil, nil
	})
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("framework: lock %s: %w", path, err)
	}
	return func() { _ = f.Close() }, nil
}
