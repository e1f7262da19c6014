package framework

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	// EnvLogDir overrides the folder under which each e2e run keeps its logs
	// (default <repo>/_output/e2e-logs).
	EnvLogDir = "WORK_E2E_LOG_DIR"
	// EnvKeepLogs keeps the logs of a run that passed too, when set to "1".
	EnvKeepLogs = "WORK_E2E_KEEP_LOGS"

	// HubName is the name of the hub cluster.
	HubName = "hub"
	// HubLeaseNamespace holds the leader-election lease of work hub.
	HubLeaseNamespace = "open-cluster-management-hub"
	// AgentLeaseNamespace holds the leader-election lease of work agent.
	AgentLeaseNamespace = "open-cluster-management-agent"
)

// E2EOptions tunes NewE2E. The zero value gives a hub and the managed
// clusters cluster1 and cluster2 with two fake nodes each.
type E2EOptions struct {
	// ManagedClusters are the names of the managed clusters.
	ManagedClusters []string
	// Nodes is the number of fake nodes of each managed cluster.
	Nodes int
	// LogRoot is the folder under which the run keeps its logs.
	LogRoot string
	// ReadyTimeout bounds the wait for a work process to be ready.
	ReadyTimeout time.Duration
}

func (o *E2EOptions) defaults() {
	if len(o.ManagedClusters) == 0 {
		o.ManagedClusters = []string{"cluster1", "cluster2"}
	}
	if o.Nodes == 0 {
		o.Nodes = 2
	}
	if o.LogRoot == "" {
		o.LogRoot = os.Getenv(EnvLogDir)
	}
	if o.LogRoot == "" {
		o.LogRoot = RepoPath("_output", "e2e-logs")
	}
	if o.ReadyTimeout == 0 {
		o.ReadyTimeout = 2 * time.Minute
	}
}

// E2E is a hub and managed clusters run by kwok, the work binary built from
// this checkout, and the work processes the tests start. It is a Suite.
type E2E struct {
	Options E2EOptions
	// Bin is the test-bed folder.
	Bin string
	// Run is the private folder of the run.
	Run *RunDir
	// LogDir holds the logs of the work processes and of kwokctl.
	LogDir string
	// WorkBinary is the work binary built for this run.
	WorkBinary string
	// Hub and Managed are set up by Start.
	Hub     *Cluster
	Managed []*Cluster
	// StartupTime is how long Start took.
	StartupTime time.Duration

	ctx       context.Context
	cancel    context.CancelFunc
	kwok      *kwok
	mu        sync.Mutex
	state     runState
	procs     []*Process
	names     map[string]int
	startDone chan struct{}
}

// NewE2E returns an environment that Start (or Setup) brings up.
func NewE2E(opts E2EOptions) *E2E {
	opts.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &E2E{Options: opts, ctx: ctx, cancel: cancel, names: map[string]int{}}
}

// Setup implements Suite.
func (e *E2E) Setup() error { return e.Start() }

// Teardown implements Suite.
func (e *E2E) Teardown(failed bool) { e.Stop(failed) }

// Start creates the clusters, installs the CRDs and namespaces, applies
// deploy/ (see deploy) and builds the work binary (alongside cluster
// creation).
func (e *E2E) Start() error {
	e.mu.Lock()
	e.startDone = make(chan struct{})
	e.mu.Unlock()
	defer close(e.startDone)
	began := time.Now()
	if err := e.prepare(); err != nil {
		return err
	}
	build := e.buildWorkAsync()
	if err := e.startClusters(); err != nil {
		e.cancel()
		<-build
		return err
	}
	if err := <-build; err != nil {
		return err
	}
	e.StartupTime = time.Since(began)
	fmt.Fprintf(os.Stderr, "framework: e2e environment up in %s (run folder %s, logs %s)\n",
		e.StartupTime.Round(time.Millisecond), e.Run.Path, e.LogDir)
	return nil
}

func (e *E2E) prepare() error {
	var err error
	if e.Bin, err = TestbedBin(); err != nil {
		return err
	}
	if err := checkCRDDirs([]string{HubCRDDir(), ManagedCRDDir()}); err != nil {
		return err
	}
	run, err := NewRunDir()
	if err != nil {
		return err
	}
	e.mu.Lock()
	e.Run = run
	e.mu.Unlock()
	e.LogDir = filepath.Join(e.Options.LogRoot, time.Now().Format("20060102-150405")+"-"+run.ID)
	if err := os.MkdirAll(e.LogDir, 0o755); err != nil {
		return err
	}
	workdir, err := run.Mkdir("kwok")
	if err != nil {
		return err
	}
	home, err := run.Mkdir("home")
	if err != nil {
		return err
	}
	e.kwok = &kwok{bin: e.Bin, workdir: workdir, home: home, logPath: filepath.Join(e.LogDir, "kwokctl.log")}
	e.state = runState{Kwokctl: e.kwok.kwokctl(), KwokWorkdir: workdir, LogDir: e.LogDir}
	return run.saveState(e.state)
}

// buildWorkAsync builds ./cmd/work into the run folder.
func (e *E2E) buildWorkAsync() <-chan error {
	done := make(chan error, 1)
	e.WorkBinary = e.Run.Join("bin", "work")
	go func() {
		cmd := command{
			name:    "go",
			args:    []string{"build", "-o", e.WorkBinary, "./cmd/work"},
			dir:     RepoPath(),
			timeout: 15 * time.Minute,
			logPath: filepath.Join(e.LogDir, "go-build.log"),
		}
		_, err := cmd.run(e.ctx)
		done <- err
	}()
	return done
}

func (e *E2E) startClusters() error {
	var err error
	if e.Hub, err = e.createCluster(HubName, 0); err != nil {
		return err
	}
	for _, name := range e.Options.ManagedClusters {
		c, err := e.createCluster(name, e.Options.Nodes)
		if err != nil {
			return err
		}
		e.Managed = append(e.Managed, c)
	}
	// deploy/ goes first, onto clusters as fresh as a user's, so that the
	// bases are known to apply alone (they create their namespaces).
	if err := e.deploy(); err != nil {
		return err
	}
	if err := e.setupHub(); err != nil {
		return err
	}
	for _, c := range e.Managed {
		if err := e.setupManaged(c); err != nil {
			return err
		}
	}
	return nil
}

// createCluster creates one kwok cluster with nodes fake nodes, recording it
// for the reaper first.
func (e *E2E) createCluster(name string, nodes int) (*Cluster, error) {
	kwokName := name + "-" + e.Run.ID
	kubeconfig := e.Run.Join(name + ".kubeconfig")
	e.mu.Lock()
	e.state.Clusters = append(e.state.Clusters, stateCluster{Name: kwokName, Kubeconfig: kubeconfig})
	err := e.Run.saveState(e.state)
	e.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := e.kwok.create(e.ctx, kwokName, kubeconfig); err != nil {
		return nil, err
	}
	if nodes > 0 {
		if err := e.kwok.scaleNodes(e.ctx, kwokName, kubeconfig, nodes); err != nil {
			return nil, err
		}
	}
	return newCluster(name, kwokName, kubeconfig)
}

// NewCluster creates a kwok cluster of t's own, as fresh as a user's (no
// CRD, no namespace of ours), with nodes fake nodes Ready; it is deleted
// when t ends.
func (e *E2E) NewCluster(t testing.TB, name string, nodes int) *Cluster {
	t.Helper()
	c, err := e.createCluster(name, nodes)
	if err != nil {
		t.Fatalf("framework: cluster %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := e.kwok.delete(context.Background(), c.KwokName, c.Kubeconfig); err != nil {
			t.Errorf("framework: %v", err)
			return
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		e.state.Clusters = slices.DeleteFunc(e.state.Clusters, func(s stateCluster) bool { return s.Name == c.KwokName })
		if err := e.Run.saveState(e.state); err != nil {
			t.Errorf("framework: %v", err)
		}
	})
	if err := c.WaitNodesReady(e.ctx, 2*time.Minute, nodes); err != nil {
		t.Fatalf("framework: cluster %s: %v", name, err)
	}
	return c
}

func (e *E2E) setupHub() error {
	crds, err := e.Hub.InstallCRDs(HubCRDDir())
	if err != nil {
		return fmt.Errorf("framework: hub CRDs: %w", err)
	}
	if err := e.Hub.WaitCRDsEstablished(e.ctx, time.Minute, crds...); err != nil {
		return err
	}
	// deploy/ made these already; ensuring them costs nothing.
	namespaces := append([]string{HubLeaseNamespace}, e.Options.ManagedClusters...)
	return e.Hub.EnsureNamespaces(e.ctx, namespaces...)
}

func (e *E2E) setupManaged(c *Cluster) error {
	crds, err := c.InstallCRDs(ManagedCRDDir())
	if err != nil {
		return fmt.Errorf("framework: %s CRDs: %w", c.Name, err)
	}
	if err := c.WaitCRDsEstablished(e.ctx, time.Minute, crds...); err != nil {
		return err
	}
	if err := c.EnsureNamespaces(e.ctx, AgentLeaseNamespace); err != nil {
		return err
	}
	return c.WaitNodesReady(e.ctx, 2*time.Minute, e.Options.Nodes)
}

// Cluster returns the hub or a managed cluster by name, or nil.
func (e *E2E) Cluster(name string) *Cluster {
	for _, c := range e.Clusters() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Clusters returns the hub and then the managed clusters.
func (e *E2E) Clusters() []*Cluster {
	if e.Hub == nil {
		return nil
	}
	return append([]*Cluster{e.Hub}, e.Managed...)
}

// Kubectl runs the test-bed kubectl against a cluster and returns its stdout;
// a failure carries its stderr. It is bounded to a minute.
func (e *E2E) Kubectl(cluster string, args ...string) (string, error) {
	res, err := e.KubectlResult(cluster, args...)
	return res.Stdout, err
}

// KubectlResult is Kubectl, returning stderr too (where kubectl prints the
// API server's warnings).
func (e *E2E) KubectlResult(cluster string, args ...string) (Result, error) {
	c := e.Cluster(cluster)
	if c == nil {
		return Result{}, fmt.Errorf("framework: no cluster %q", cluster)
	}
	return command{
		name:    filepath.Join(e.Bin, "kubectl"),
		args:    append([]string{"--kubeconfig", c.Kubeconfig}, args...),
		env:     []string{"KUBECONFIG=" + c.Kubeconfig, "HOME=" + e.kwok.home},
		timeout: time.Minute,
	}.run(e.ctx)
}

// RunWork runs the work binary once with args, bounded by timeout, and
// returns what it printed and its exit code. err is set only when it could
// not run or did not finish in time.
func (e *E2E) RunWork(timeout time.Duration, args ...string) (Result, error) {
	res, err := command{name: e.WorkBinary, args: args, timeout: timeout}.run(e.ctx)
	if err != nil && res.ExitCode > 0 {
		return res, nil
	}
	return res, err
}

// StartHub starts `work hub` against the hub and waits for it to be ready.
// It runs as ServiceAccount work-hub, under the RBAC of deploy/hub; extraArgs
// come last, so a --kubeconfig among them wins. The process is returned also
// on error, so its log can be read.
func (e *E2E) StartHub(extraArgs ...string) (*Process, error) {
	args := append([]string{"hub", "--kubeconfig", e.Hub.WorkKubeconfig}, extraArgs...)
	return e.launch("hub", nil, args)
}

// StartAgent starts `work agent` for a managed cluster and waits for it to be
// ready. It runs under the RBAC of deploy/agent on the managed cluster and of
// deploy/cluster-namespace on the hub; extraArgs come last, so kubeconfig
// flags among them win. The process is returned also on error, so its log
// can be read.
func (e *E2E) StartAgent(cluster string, extraArgs ...string) (*Process, error) {
	return e.StartAgentWithEnv(cluster, nil, extraArgs...)
}

// StartAgentWithEnv is StartAgent with environment variables (NAME=value)
// added to the test's own, for this start and every later one, e.g.
// POD_NAME, as a pod would set it.
func (e *E2E) StartAgentWithEnv(cluster string, env []string, extraArgs ...string) (*Process, error) {
	c := e.Cluster(cluster)
	if c == nil || c == e.Hub {
		return nil, fmt.Errorf("framework: no managed cluster %q", cluster)
	}
	args := append([]string{
		"agent",
		"--spoke-cluster-name", cluster,
		"--hub-kubeconfig", c.AgentHubKubeconfig,
		"--spoke-kubeconfig", c.WorkKubeconfig,
		"--kubeconfig", c.WorkKubeconfig,
	}, extraArgs...)
	return e.launch("agent-"+cluster, env, args)
}

// StartWork starts the work binary with args (a subcommand first), env
// (NAME=value) added to the test's own, and waits for it to be ready: for a
// test that runs a process as an operator would, with its own arguments. The
// framework adds only the probe ports (see Process.Start).
func (e *E2E) StartWork(name string, env []string, args ...string) (*Process, error) {
	return e.launch(name, env, args)
}

func (e *E2E) launch(name string, env, args []string) (*Process, error) {
	p := e.newProcess(name, env, args)
	if err := p.Start(); err != nil {
		return p, err
	}
	return p, p.WaitReady(e.Options.ReadyTimeout)
}

// newProcess registers a work process with a log file of its own.
func (e *E2E) newProcess(name string, env, args []string) *Process {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.names[name]++
	if n := e.names[name]; n > 1 {
		name = fmt.Sprintf("%s-%d", name, n)
	}
	p := newProcess(name, e.WorkBinary, filepath.Join(e.LogDir, name+".log"), args, env)
	e.procs = append(e.procs, p)
	return p
}

// Processes returns the work processes started so far.
func (e *E2E) Processes() []*Process {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*Process(nil), e.procs...)
}

// DumpOnFailure makes t log the end of every work process log if t fails.
func (e *E2E) DumpOnFailure(t testing.TB) {
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(e.logTails(40))
		}
	})
}

func (e *E2E) logTails(n int) string {
	var b strings.Builder
	for _, p := range e.Processes() {
		fmt.Fprintf(&b, "\n----- %s: last %d lines of %s -----\n%s\n", p.Name, n, p.LogPath, p.Tail(n))
	}
	return b.String()
}

// Stop tears everything down: it ends a Start still running, stops the work
// processes, deletes the clusters and removes the run folder. When failed,
// it prints the end of each process log and keeps the logs (with the kwok
// component logs) in LogDir; otherwise it removes them unless
// WORK_E2E_KEEP_LOGS=1.
func (e *E2E) Stop(failed bool) {
	e.cancel()
	e.waitStart()
	e.stopProcesses()
	if e.Run == nil {
		return
	}
	if failed {
		fmt.Fprint(os.Stderr, e.logTails(40))
		e.copyKwokLogs()
	}
	e.deleteClusters()
	if err := e.Run.Remove(); err != nil {
		fmt.Fprintf(os.Stderr, "framework: remove %s: %v\n", e.Run.Path, err)
	}
	e.finishLogs(failed)
}

func (e *E2E) waitStart() {
	e.mu.Lock()
	done := e.startDone
	e.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-time.After(time.Minute):
		fmt.Fprintln(os.Stderr, "framework: Start did not end within a minute of teardown; going on")
	}
}

func (e *E2E) stopProcesses() {
	for _, p := range e.Processes() {
		if p.Running() {
			if _, err := p.Stop(10 * time.Second); err != nil {
				fmt.Fprintf(os.Stderr, "framework: stop %s: %v\n", p.Name, err)
			}
		}
	}
}

func (e *E2E) copyKwokLogs() {
	for _, c := range e.state.Clusters {
		copyKwokLogs(e.state.KwokWorkdir, c.Name, e.LogDir)
	}
}

// deleteClusters deletes the recorded clusters in parallel.
func (e *E2E) deleteClusters() {
	var wg sync.WaitGroup
	for _, c := range e.state.Clusters {
		wg.Go(func() {
			if err := e.kwok.delete(context.Background(), c.Name, c.Kubeconfig); err != nil {
				fmt.Fprintf(os.Stderr, "framework: %v\n", err)
			}
		})
	}
	wg.Wait()
}

func (e *E2E) finishLogs(failed bool) {
	if failed || os.Getenv(EnvKeepLogs) == "1" {
		fmt.Fprintf(os.Stderr, "framework: e2e logs kept in %s\n", e.LogDir)
		return
	}
	_ = os.RemoveAll(e.LogDir)
	_ = os.Remove(e.Options.LogRoot) // only if no other run left logs there
}
