package startup

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/component-base/metrics/testutil"

	"github.com/manifestwork/work/pkg/diagnostics"
	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/filewatch/filewatchtest"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

func TestMain(m *testing.M) { startuptest.Main(m) }

func options() *Options {
	o := NewOptions(testProcess, features.NewHubFeatureGate())
	o.HealthProbeBindAddress, o.SecureBindAddress = "0", "0"
	return o
}

// lead is a process's work: ready while it runs, until ctx is cancelled.
type lead struct {
	ready    *diagnostics.Readiness
	started  atomic.Bool
	stopped  atomic.Bool
	stopping func() // if set, called as it stops
}

func (l *lead) run(ctx context.Context) error {
	l.started.Store(true)
	l.ready.Set(true)
	<-ctx.Done()
	if l.stopping != nil {
		l.stopping()
	}
	l.ready.Set(false)
	l.stopped.Store(true)
	return nil
}

// startOn starts a process whose lease is on srv, with l as its work.
func startOn(t *testing.T, srv *kubeconntest.Server, l *lead, servers ...func(context.Context) (Server, error)) Start {
	cfg, err := kubeconn.Cluster{Kubeconfig: srv.Kubeconfig(t)}.Load()
	require.NoError(t, err)
	return func(_ context.Context, ready *diagnostics.Readiness) (*Work, error) {
		l.ready = ready
		return &Work{LeaseCluster: cfg, Lead: l.run, Servers: servers}, nil
	}
}

func valid() error { return nil }

// run runs the process until the test stops it; it returns once ready.
func run(t *testing.T, o *Options, start Start) (stop func() error) {
	o.HealthProbeBindAddress = startuptest.FreeAddr(t)
	return startuptest.Start(t, o.HealthProbeBindAddress, func(ctx context.Context) error { return Run(ctx, o, o.Validate, start) })
}

// background runs the process until cancel is called; wait returns what Run
// returned.
func background(t *testing.T, o *Options, start Start) (cancel context.CancelFunc, wait func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, o, valid, start) }()
	return cancel, func() error {
		select {
		case err := <-errc:
			return err
		case <-time.After(20 * time.Second):
			t.Fatal("Run does not return")
			return nil
		}
	}
}

func TestRunStartupErrors(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	failing := func(context.Context, *diagnostics.Readiness) (*Work, error) { return nil, errors.New("cannot connect") }

	tests := []struct {
		name     string
		ctx      context.Context
		validate func() error
		probe    string
		wantErr  string
	}{
		{"invalid options, as validate says", context.Background(), func() error { return errors.New("--x is required") }, "0",
			"--x is required"},
		{"busy probe address", context.Background(), valid, busy.Addr().String(),
			`health probe address "` + busy.Addr().String() + `": listen tcp ` + busy.Addr().String() + `: bind: address already in use`},
		{"start fails", context.Background(), valid, "0", "cannot connect"},
		{"start fails because it was interrupted", cancelled, valid, "0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := options()
			o.HealthProbeBindAddress = tt.probe
			startuptest.RequireError(t, Run(tt.ctx, o, tt.validate, failing), tt.wantErr)
		})
	}
}

func TestRunWithoutLeaderElection(t *testing.T) {
	srv := kubeconntest.NewServer(t)
	o := options()
	o.DisableLeaderElection = true
	l := &lead{}

	stop := run(t, o, startOn(t, srv, l))
	health := "http://" + o.HealthProbeBindAddress
	assert.True(t, l.started.Load(), "ready means leading")
	assert.Equal(t, http.StatusOK, startuptest.Status(health+"/healthz"))
	assert.Equal(t, http.StatusOK, startuptest.Status(health+"/livez"))
	assert.Equal(t, http.StatusNotFound, startuptest.Status(health+"/metrics"), "only probes over plain HTTP")
	assert.Equal(t, http.StatusNotFound, startuptest.Status(health+"/debug/pprof/"), "profiles only with --profiling")

	require.NoError(t, stop())
	assert.True(t, l.stopped.Load(), "the work has stopped when Run returns")
	assert.Equal(t, 0, startuptest.Status(health+"/readyz"), "the probe server is gone after Run returns")
	_, leased := srv.Lease("test-namespace", "work-test")
	assert.False(t, leased, "no lease without leader election")
}

// With --profiling the profiles sit beside /metrics: behind the
// authorizer on --listen, or with --metrics-auth=false open on both
// addresses, as the metrics then are.
func TestRunProfiling(t *testing.T) {
	for _, auth := range []bool{true, false} {
		t.Run(fmt.Sprintf("--metrics-auth=%v", auth), func(t *testing.T) {
			o := options()
			o.DisableLeaderElection, o.Profiling, o.MetricsAuth = true, true, auth
			o.SecureBindAddress = startuptest.FreeAddr(t)
			stop := run(t, o, startOn(t, kubeconntest.NewServer(t), &lead{}))
			plain, secure := http.StatusNotFound, http.StatusUnauthorized
			if !auth {
				plain, secure = http.StatusOK, http.StatusOK
			}
			for _, path := range []string{"/metrics", "/debug/pprof/"} {
				assert.Equal(t, plain, startuptest.Status("http://"+o.HealthProbeBindAddress+path), "plain "+path)
				assert.Equal(t, secure, secureStatus(t, o.SecureBindAddress, path), "secure "+path)
			}
			require.NoError(t, stop())
		})
	}
}

// secureStatus is the status of GET path on the secure address, without a
// token, or 0 without an answer.
func secureStatus(t *testing.T, addr, path string) int {
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // as the kubelet probes
	resp, err := client.Get("https://" + addr + path)
	if err != nil {
		return 0
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

func TestRunSetsGCPercent(t *testing.T) {
	failing := func(context.Context, *diagnostics.Readiness) (*Work, error) { return nil, errors.New("cannot connect") }
	for gogc, want := range map[string]int{"": 50, "100": 100} {
		t.Run("GOGC="+gogc, func(t *testing.T) {
			t.Setenv("GOGC", gogc)
			defer debug.SetGCPercent(debug.SetGCPercent(100)) // from Go's default, restored after
			o := options()
			o.process.GCPercent = 50
			require.EqualError(t, Run(context.Background(), o, valid, failing), "cannot connect")
			assert.Equal(t, want, debug.SetGCPercent(100), "the environment wins")
		})
	}
}

func TestRunLeadsUnderTheLease(t *testing.T) {
	srv := kubeconntest.NewServer(t)
	l := &lead{}

	stop := run(t, options(), startOn(t, srv, l)) // ready as a standby first
	require.Eventually(t, l.started.Load, 20*time.Second, 10*time.Millisecond, "it leads")
	assert.NotEmpty(t, srv.Holder("test-namespace", "work-test"), "the leader holds the lease")

	require.NoError(t, stop())
	assert.True(t, l.stopped.Load())
	assert.Empty(t, srv.Holder("test-namespace", "work-test"), "the lease is released on shutdown, after the work stopped")
}

func TestRunStandbyIsReadyWithoutLeading(t *testing.T) {
	srv := kubeconntest.NewServer(t)
	srv.HoldLease("test-namespace", "work-test", "other-replica")
	l := &lead{}

	stop := run(t, options(), startOn(t, srv, l)) // returns once /readyz is ok
	require.NoError(t, stop())
	assert.False(t, l.started.Load(), "a standby does not lead")
	assert.Equal(t, "other-replica", srv.Holder("test-namespace", "work-test"), "a standby leaves the leader's lease alone")
}

// server is a Work.Servers entry serving until ctx is cancelled or fail is
// called.
type server struct {
	ctx     context.Context
	done    chan struct{}
	err     error
	stopped atomic.Bool
	fail    func(error)
}

func (s *server) Done() <-chan struct{} { return s.done }
func (s *server) Err() error            { return s.err }

func startServer(s **server) func(context.Context) (Server, error) {
	return func(ctx context.Context) (Server, error) {
		ctx, cancel := context.WithCancel(ctx)
		srv := &server{ctx: ctx, done: make(chan struct{})}
		srv.fail = func(err error) { srv.err = err; cancel() }
		go func() { <-ctx.Done(); srv.stopped.Store(true); close(srv.done) }()
		*s = srv
		return srv, nil
	}
}

func TestRunServers(t *testing.T) {
	t.Run("serve on a standby", func(t *testing.T) {
		srv := kubeconntest.NewServer(t)
		srv.HoldLease("test-namespace", "work-test", "other-replica")
		var s *server
		stop := run(t, options(), startOn(t, srv, &lead{}, startServer(&s)))
		assert.False(t, s.stopped.Load(), "serving while on standby")
		require.NoError(t, stop())
		assert.True(t, s.stopped.Load(), "stopped when Run returns")
	})

	t.Run("stop after the work", func(t *testing.T) {
		o := options()
		o.DisableLeaderElection = true
		var s *server
		release := make(chan struct{})
		l := &lead{stopping: func() { <-release }}
		cancel, wait := background(t, o, startOn(t, kubeconntest.NewServer(t), l, startServer(&s)))
		require.Eventually(t, l.started.Load, 20*time.Second, 10*time.Millisecond)
		cancel()
		assert.NoError(t, s.ctx.Err(), "serving while the work stops")
		close(release)
		require.NoError(t, wait())
		assert.True(t, s.stopped.Load(), "stopped when Run returns")
	})

	t.Run("a server that stops stops the process with its error", func(t *testing.T) {
		o := options()
		o.DisableLeaderElection = true
		l := &lead{}
		var s *server
		_, wait := background(t, o, startOn(t, kubeconntest.NewServer(t), l, startServer(&s)))
		require.Eventually(t, l.started.Load, 20*time.Second, 10*time.Millisecond)
		s.fail(errors.New("serving certificate: gone"))
		require.EqualError(t, wait(), "serving certificate: gone")
		assert.True(t, l.stopped.Load())
	})

	t.Run("a server that fails to start stops those started", func(t *testing.T) {
		var s *server
		broken := func(context.Context) (Server, error) { return nil, errors.New("bind: address already in use") }
		l := &lead{}
		err := Run(context.Background(), options(), valid, startOn(t, kubeconntest.NewServer(t), l, startServer(&s), broken))
		require.EqualError(t, err, "bind: address already in use")
		assert.True(t, s.stopped.Load())
		assert.False(t, l.started.Load(), "no work without its servers")
	})
}

// OCM's operators probe GET /healthz over HTTPS on the secure port; it
// serves with a self-signed certificate, /metrics beside it only to a token
// the cluster reviews (pkg/diagnostics tests the reviews).
func TestRunServesProbesOverHTTPS(t *testing.T) {
	o := options()
	o.DisableLeaderElection = true
	o.SecureBindAddress = startuptest.FreeAddr(t)
	o.TLS.MinVersion = "VersionTLS13"
	stop := run(t, o, startOn(t, kubeconntest.NewServer(t), &lead{}))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // as the kubelet probes
	for path, want := range map[string]int{"/healthz": http.StatusOK, "/livez": http.StatusOK, "/readyz": http.StatusOK, "/metrics": http.StatusUnauthorized} {
		resp, err := client.Get("https://" + o.SecureBindAddress + path)
		require.NoError(t, err, path)
		_ = resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, path)
		assert.Equal(t, uint16(tls.VersionTLS13), resp.TLS.Version, "--tls-min-version applies")
	}
	old := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true, MaxVersion: tls.VersionTLS12}}} //nolint:gosec
	_, err := old.Get("https://" + o.SecureBindAddress + "/healthz")
	assert.Error(t, err, "TLS 1.2 is refused with --tls-min-version=VersionTLS13")
	require.NoError(t, stop())
	_, err = client.Get("https://" + o.SecureBindAddress + "/healthz")
	assert.Error(t, err, "stopped with the process")
}

func TestRunReportsABusySecurePort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	o := options()
	o.SecureBindAddress = busy.Addr().String()
	err = Run(context.Background(), o, valid, startOn(t, kubeconntest.NewServer(t), &lead{}))
	require.EqualError(t, err, `secure address --listen "`+busy.Addr().String()+`": listen tcp `+busy.Addr().String()+`: bind: address already in use`)
}

// A file of --terminate-on-files that changes (here the kubelet's way, by
// swapping ..data) stops the process as SIGTERM would: the work stops, the
// lease is released, and Run returns nil, so the process exits 0.
func TestRunTerminatesWhenAFileChanges(t *testing.T) {
	vol, err := filewatchtest.NewSecretVolume(filepath.Join(t.TempDir(), "spoke", "hub-kubeconfig"),
		map[string][]byte{"kubeconfig": []byte("first")})
	require.NoError(t, err)
	srv := kubeconntest.NewServer(t)
	o := options()
	o.TerminateOnFiles = []string{filepath.Join(t.TempDir(), "unchanged"), vol.Path("kubeconfig")}
	l := &lead{}
	_, wait := background(t, o, startOn(t, srv, l))
	require.Eventually(t, l.started.Load, 20*time.Second, 10*time.Millisecond, "it leads")
	require.NotEmpty(t, srv.Holder("test-namespace", "work-test"))

	require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": []byte("second")}))
	require.NoError(t, wait(), "a clean stop")
	assert.True(t, l.stopped.Load())
	assert.Empty(t, srv.Holder("test-namespace", "work-test"), "the lease is released")
}

func TestRunTerminateOnUnreadableFile(t *testing.T) {
	o := options()
	o.TerminateOnFiles = []string{t.TempDir()}
	err := Run(context.Background(), o, valid, startOn(t, kubeconntest.NewServer(t), &lead{}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--terminate-on-files: read ")
}

// A process without a lead (the webhook server) runs its servers on every
// replica and is ready once they serve.
func TestRunWithoutLead(t *testing.T) {
	srv := kubeconntest.NewServer(t)
	var s *server
	start := func(context.Context, *diagnostics.Readiness) (*Work, error) {
		return &Work{Servers: []func(context.Context) (Server, error){startServer(&s)}}, nil
	}
	stop := run(t, options(), start)
	assert.False(t, s.stopped.Load())
	require.NoError(t, stop())
	assert.True(t, s.stopped.Load())
	_, leased := srv.Lease("test-namespace", "work-test")
	assert.False(t, leased)
}

// A feature gate of OCM's that is not implemented is accepted, warned about
// and counted, never a crash.
func TestRunReportsUnimplementedGates(t *testing.T) {
	o := options()
	o.DisableLeaderElection = true
	require.NoError(t, o.FeatureGate.Set("CloudEventsDrivers=true"))
	stop := run(t, o, startOn(t, kubeconntest.NewServer(t), &lead{}))
	v, err := testutil.GetGaugeMetricValue(metrics.UnimplementedFeatureGates.WithLabelValues("CloudEventsDrivers"))
	require.NoError(t, err)
	assert.Equal(t, 1.0, v)
	require.NoError(t, stop())
}
