// Package leaderelect runs a piece of work only while this process holds a
// coordination.k8s.io/v1 Lease, so that several replicas of the agent or the
// hub can run while only one of them acts.
package leaderelect

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/google/uuid"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"
)

// Default timings. These are the long values common to cluster add-on agents
// rather than client-go's 15s/10s/2s: an agent often talks to a remote or
// busy API server, and a leader that cannot renew within RenewDeadline exits,
// so a short deadline turns a slow API server into restart loops. Failover
// stays quick where it matters: a replica that stops gracefully releases the
// lease (ReleaseOnCancel) and a standby takes over within one RetryPeriod, and
// a leader whose container crashed and restarted in the same pod takes its
// lease back at once (see Identity). Only a leader whose pod is gone costs up
// to LeaseDuration.
const (
	DefaultLeaseDuration = 137 * time.Second
	DefaultRenewDeadline = 107 * time.Second
	DefaultRetryPeriod   = 26 * time.Second
)

// Config says which lease guards the work.
type Config struct {
	// Lock is the lease; see NewLeaseLock.
	Lock resourcelock.Interface
	// Timings; zero means the Default* value.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// OnStandby, if set, is called once this replica has started to wait for
	// the lease.
	OnStandby func()
}

// PodNameEnv is the environment variable that names the pod a replica runs
// in. OCM's Klusterlet sets it on the work agent, and our Deployments set it
// from the downward API (metadata.name).
const PodNameEnv = "POD_NAME"

// NewLeaseLock returns the Lease namespace/name on the cluster of cfg as a
// lock, held under the identity Identity returns.
func NewLeaseLock(cfg *rest.Config, namespace, name string) (resourcelock.Interface, error) {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("leader election client: %w", err)
	}
	return newLeaseLock(client, namespace, name)
}

func newLeaseLock(client kubernetes.Interface, namespace, name string) (resourcelock.Interface, error) {
	identity, err := Identity()
	if err != nil {
		return nil, err
	}
	return resourcelock.New(resourcelock.LeasesResourceLock, namespace, name,
		client.CoreV1(), client.CoordinationV1(),
		resourcelock.ResourceLockConfig{Identity: identity})
}

// Identity is the name this process holds leases under: the pod's name from
// $POD_NAME when it is set, so that a container restarted in the same pod
// (after a crash, an OOM kill or a failed liveness probe) finds the lease
// still held by itself and takes it back at once instead of waiting for it to
// expire; a replica in another pod still waits. Without POD_NAME it is the
// hostname plus a random suffix, unique to this process: a restart then waits
// for the old lease to expire, since nothing says the old holder is gone.
//
// Two live processes must never share an identity, or both would lead: a pod
// name is unique among live pods of a namespace, and a container's previous
// instance is dead before its next one starts.
func Identity() (string, error) {
	if pod := os.Getenv(PodNameEnv); pod != "" {
		return pod, nil
	}
	host, err := os.Hostname()
	if err != nil {
		return "", fmt.Errorf("leader election identity: %w", err)
	}
	return host + "_" + uuid.NewString(), nil
}

// Run blocks until ctx is cancelled, calling work while this process holds the
// lease. On cancellation it first waits for work to return and only then
// releases the lease, so two replicas never act at the same time.
//
// It returns nil after a cancellation, work's error if work fails, and an
// error if the lease is lost (the caller should exit so it restarts clean).
func Run(ctx context.Context, cfg Config, work func(context.Context) error) error {
	g := &guard{parent: ctx, work: work, lock: cfg.Lock.Describe(), identity: cfg.Lock.Identity(), done: make(chan struct{})}
	// The elector gets its own context: cancelling it releases the lease,
	// which must wait until the guarded work has finished.
	electorCtx, stopElector := context.WithCancel(context.WithoutCancel(ctx))
	defer stopElector()

	elector, err := leaderelection.NewLeaderElector(cfg.electorConfig(g))
	if err != nil {
		return fmt.Errorf("leader election: %w", err)
	}
	go g.stopWhenDone(ctx, electorCtx, stopElector)
	if cfg.OnStandby != nil {
		cfg.OnStandby()
	}
	elector.Run(electorCtx)

	// The elector returns once electorCtx is cancelled or the lease is lost.
	// If the work ran, the guard knows which; if not, only ctx can tell.
	if g.finish() {
		return g.err
	}
	if ctx.Err() == nil {
		return fmt.Errorf("lost the leader election lease %s", g.lock)
	}
	return nil
}

func (c Config) electorConfig(g *guard) leaderelection.LeaderElectionConfig {
	withDefault := func(d, def time.Duration) time.Duration {
		if d == 0 {
			return def
		}
		return d
	}
	return leaderelection.LeaderElectionConfig{
		Lock:            c.Lock,
		LeaseDuration:   withDefault(c.LeaseDuration, DefaultLeaseDuration),
		RenewDeadline:   withDefault(c.RenewDeadline, DefaultRenewDeadline),
		RetryPeriod:     withDefault(c.RetryPeriod, DefaultRetryPeriod),
		ReleaseOnCancel: true,
		Name:            c.Lock.Describe(),
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: g.lead,
			OnStoppedLeading: func() {},
		},
	}
}

// guard runs the work at most once, and lets the shutdown path wait for it.
type guard struct {
	parent   context.Context
	work     func(context.Context) error
	lock     string // lease description for messages
	identity string // this replica's name in the lease

	mu       sync.Mutex
	stopping bool // no new work may start
	running  bool // work was started; done closes when it returns

	done chan struct{}
	err  error
}

// lead is OnStartedLeading: it runs work until the lease is lost or the
// parent context is cancelled, whichever comes first.
func (g *guard) lead(leaseCtx context.Context) {
	g.mu.Lock()
	if g.stopping {
		g.mu.Unlock()
		return
	}
	g.running = true
	g.mu.Unlock()

	ctx, cancel := context.WithCancel(leaseCtx)
	defer cancel()
	stop := context.AfterFunc(g.parent, cancel)
	defer stop()

	klog.FromContext(ctx).Info("Acquired the leader election lease, starting", "lease", g.lock, "identity", g.identity)
	err := g.work(ctx)
	// leaseCtx ends before the parent only when renewing failed: releasing
	// the lease on purpose waits for done, which is not closed yet.
	if err == nil && leaseCtx.Err() != nil && g.parent.Err() == nil {
		err = fmt.Errorf("lost the leader election lease %s", g.lock)
	}
	g.err = err
	close(g.done)
}

// stopWhenDone releases the lease once the parent is cancelled or the work
// has returned on its own, in both cases only after the work has finished.
func (g *guard) stopWhenDone(parent, electorCtx context.Context, stopElector func()) {
	select {
	case <-parent.Done():
	case <-g.done:
	case <-electorCtx.Done():
	}
	g.finish()
	stopElector()
}

// finish forbids new work, waits for running work and reports whether work ran.
func (g *guard) finish() bool {
	g.mu.Lock()
	g.stopping = true
	ran := g.running
	g.mu.Unlock()
	if ran {
		<-g.done
	}
	return ran
}

// Lease names the lease a process runs under.
type Lease struct {
	Disabled  bool         // --disable-leader-election: run at once, without a lease
	Config    *rest.Config // the cluster that holds the lease
	Namespace string
	Name      string
	// Timings (--leader-election-lease-duration, -renew-deadline,
	// -retry-period); zero means the Default* value.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
}

// RunOrElect calls work directly when the lease is disabled, and under the
// lease otherwise. A standby calls ready at once: readiness says "configured
// right and able to take over", and holding it back until the replica leads
// would stall a rolling update, whose new pod must become ready before the old
// leader stops and hands over the lease.
func RunOrElect(ctx context.Context, l Lease, ready func(), work func(context.Context) error) error {
	if l.Disabled {
		return work(ctx)
	}
	lock, err := NewLeaseLock(l.Config, l.Namespace, l.Name)
	if err != nil {
		return err
	}
	return Run(ctx, Config{
		Lock: lock, OnStandby: ready,
		LeaseDuration: l.LeaseDuration, RenewDeadline: l.RenewDeadline, RetryPeriod: l.RetryPeriod,
	}, work)
}
