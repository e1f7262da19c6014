package outage

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"

	"github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
)

// cluster is a fake API server: what requests and /readyz get.
type cluster struct {
	mu       sync.Mutex
	answer   int // status of requests; 0 = no answer
	verdict  verdict
	requests int
	probes   atomic.Int32
}

func (c *cluster) set(answer int, v verdict) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answer, c.verdict = answer, v
}

func (c *cluster) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	if c.answer == 0 {
		return nil, errors.New("connect: connection refused")
	}
	return &http.Response{StatusCode: c.answer, Status: http.StatusText(c.answer),
		Body: io.NopCloser(strings.NewReader("{}")), Request: req}, nil
}

func (c *cluster) sent() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests
}

func (c *cluster) probe(context.Context) (verdict, error) {
	c.probes.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.verdict, nil
}

// start runs a Monitor of c with short intervals until the test ends, and
// returns it with a transport through it and a count of reconnections.
func start(t *testing.T, c *cluster, notReadyLimit time.Duration) (*Monitor, http.RoundTripper, *atomic.Int32) {
	t.Helper()
	m := newMonitor(Deps{Cluster: "test", ProbeInterval: 5 * time.Millisecond, NotReadyLimit: notReadyLimit}, c.probe)
	var reconnects atomic.Int32
	m.OnReconnect(func() { reconnects.Add(1) })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return m, &transport{monitor: m, next: c}, &reconnects
}

// send sends a GET in the background and returns where its outcome arrives.
func send(ctx context.Context, rt http.RoundTripper) <-chan int {
	out := make(chan int, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://cluster/api/v1/configmaps", nil)
		resp, err := rt.RoundTrip(req)
		if err != nil {
			out <- 0
			return
		}
		_ = resp.Body.Close()
		out <- resp.StatusCode
	}()
	return out
}

func get(t *testing.T, rt http.RoundTripper) int {
	t.Helper()
	select {
	case code := <-send(t.Context(), rt):
		return code
	case <-time.After(10 * time.Second):
		t.Fatal("the request did not return")
		return 0
	}
}

// eventually polls cond for up to ten seconds.
func eventually(t *testing.T, cond func() bool, what string) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, time.Millisecond, what)
}

func TestHealthyClusterCostsNoProbe(t *testing.T) {
	c := &cluster{answer: http.StatusOK}
	_, rt, reconnects := start(t, c, time.Minute)
	for range 5 {
		assert.Equal(t, http.StatusOK, get(t, rt))
	}
	c.set(http.StatusTooManyRequests, ready)
	assert.Equal(t, http.StatusTooManyRequests, get(t, rt), "throttling is the reflector's to handle")
	assert.Zero(t, c.probes.Load())
	assert.Equal(t, 6, c.sent())
	assert.Zero(t, reconnects.Load())
}

func TestRealRefusalIsReturnedAtOnce(t *testing.T) {
	for _, code := range []int{http.StatusForbidden, http.StatusNotFound, http.StatusUnauthorized, http.StatusInternalServerError} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			c := &cluster{answer: code, verdict: ready}
			_, rt, reconnects := start(t, c, time.Minute)
			assert.Equal(t, code, get(t, rt))
			assert.Equal(t, code, get(t, rt))
			assert.Equal(t, 2, c.sent(), "not sent again")
			assert.Equal(t, int32(1), c.probes.Load(), "one /readyz settles a burst of refusals")
			assert.Zero(t, reconnects.Load())
		})
	}
}

func TestRequestWaitsThroughOutage(t *testing.T) {
	c := &cluster{answer: http.StatusOK}
	_, rt, reconnects := start(t, c, time.Minute)
	c.set(0, unreachable)
	held := send(t.Context(), rt)
	eventually(t, func() bool { return c.probes.Load() >= 3 }, "probing during the outage")
	select {
	case code := <-held:
		t.Fatalf("returned %d during the outage", code)
	default:
	}
	assert.Equal(t, 1, c.sent(), "nothing is sent during the outage")
	second := send(t.Context(), rt)

	c.set(http.StatusOK, ready)
	assert.Equal(t, http.StatusOK, <-held, "sent again once the cluster answers")
	assert.Equal(t, http.StatusOK, <-second, "a request made during the outage waited")
	assert.Equal(t, 3, c.sent())
	eventually(t, func() bool { return reconnects.Load() == 1 }, "subscribers told once")

	probes := c.probes.Load()
	assert.Equal(t, http.StatusOK, get(t, rt))
	assert.Equal(t, probes, c.probes.Load(), "no probing once up")
}

func TestRefusalWhileNotReadyIsHeld(t *testing.T) {
	c := &cluster{answer: http.StatusForbidden, verdict: notReady}
	_, rt, reconnects := start(t, c, time.Minute)
	held := send(t.Context(), rt)
	eventually(t, func() bool { return c.probes.Load() >= 2 }, "probing while not ready")
	c.set(http.StatusOK, ready)
	assert.Equal(t, http.StatusOK, <-held)
	eventually(t, func() bool { return reconnects.Load() == 1 }, "subscribers told once")
}

func TestHeldRequestEndsOutageAsTrial(t *testing.T) {
	c := &cluster{answer: http.StatusForbidden, verdict: notReady}
	_, rt, reconnects := start(t, c, time.Minute)
	held := send(t.Context(), rt)
	eventually(t, func() bool { return c.sent() >= 2 }, "sent as a trial while /readyz fails")
	c.set(http.StatusOK, notReady)
	waiting := send(t.Context(), rt)
	eventually(t, func() bool { return reconnects.Load() == 1 }, "the outage ends with a successful request")
	assert.Equal(t, http.StatusOK, <-held)
	assert.Equal(t, http.StatusOK, <-waiting)
	// The first is sent, tried (refused), then sent after the outage; the
	// second, tried, succeeded: a request is a trial at most once.
	assert.Equal(t, 4, c.sent())
}

func TestNotReadyForLongLetsRequestsThrough(t *testing.T) {
	c := &cluster{answer: http.StatusServiceUnavailable, verdict: notReady}
	_, rt, reconnects := start(t, c, 20*time.Millisecond)
	assert.Equal(t, http.StatusServiceUnavailable, get(t, rt), "sent as a trial, again after the limit, then its answer is returned")
	assert.Equal(t, 3, c.sent())
	eventually(t, func() bool { return reconnects.Load() == 1 }, "subscribers told once")
}

func TestCancelledWhileHeld(t *testing.T) {
	c := &cluster{verdict: unreachable}
	_, rt, _ := start(t, c, time.Minute)
	ctx, cancel := context.WithCancel(t.Context())
	held := send(ctx, rt)
	eventually(t, func() bool { return c.probes.Load() >= 1 }, "outage noticed")
	cancel()
	assert.Equal(t, 0, <-held)
	assert.Equal(t, 1, c.sent())
}

func TestOnlyGetIsHeld(t *testing.T) {
	c := &cluster{verdict: unreachable}
	_, rt, _ := start(t, c, time.Minute)
	_ = send(t.Context(), rt) // starts the outage
	eventually(t, func() bool { return c.probes.Load() >= 1 }, "outage noticed")
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, "https://cluster/api/v1/namespaces/a/configmaps", strings.NewReader("{}"))
	require.NoError(t, err)
	_, err = rt.RoundTrip(req)
	assert.Error(t, err, "a write fails at once, as without a Monitor")
}

func TestReadyz(t *testing.T) {
	var status atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(int(status.Load()))
	}))
	m, err := New(Deps{Cluster: "test", Config: &rest.Config{Host: srv.URL}})
	require.NoError(t, err)
	for _, tc := range []struct {
		status int
		want   verdict
	}{
		{http.StatusOK, ready},
		{http.StatusInternalServerError, notReady},
		{http.StatusServiceUnavailable, notReady},
		{http.StatusForbidden, notReady}, // RBAC not loaded yet
		{http.StatusUnauthorized, notReady},
		{http.StatusNotFound, ready}, // no /readyz: cannot tell, holds nothing
	} {
		status.Store(int32(tc.status))
		v, _ := m.probe(t.Context())
		assert.Equal(t, tc.want, v, "/readyz answering %d", tc.status)
	}
	srv.Close()
	v, err := m.probe(t.Context())
	assert.Equal(t, unreachable, v)
	assert.Error(t, err)
}

// Outage tells since when and why the cluster has not answered, and so does
// the gauge work_cluster_unreachable; the subscribers of outages that last
// are told once per outage that lasts long enough, and not for a short one.
func TestOutageAndSubscribersOfLastingOutages(t *testing.T) {
	metrics.Register() // the gauge records only once registered
	gauge := func() float64 {
		return controllertest.GaugeValue(t, metrics.ClusterUnreachable.WithLabelValues("test"))
	}
	c := &cluster{answer: http.StatusOK}
	m, rt, _ := start(t, c, time.Minute)
	assert.Zero(t, gauge(), "a cluster is reachable until a request says otherwise")
	var long, short atomic.Int32
	m.OnUnreachable(time.Hour, func() { long.Add(1) })
	m.OnUnreachable(50*time.Millisecond, func() { short.Add(1) })
	_, _, down := m.Outage()
	assert.False(t, down)

	for outage := range 2 {
		before := time.Now()
		c.set(0, unreachable)
		held := send(t.Context(), rt)
		eventually(t, func() bool { return short.Load() == int32(outage+1) }, "told once the outage lasted")
		since, cause, down := m.Outage()
		assert.True(t, down)
		assert.False(t, since.Before(before))
		assert.Contains(t, cause, "connection refused")
		assert.Equal(t, 1.0, gauge())
		eventually(t, func() bool { return c.probes.Load() >= int32(20*(outage+1)) }, "probing on")
		assert.Equal(t, int32(outage+1), short.Load(), "once per outage")
		c.set(http.StatusOK, ready)
		assert.Equal(t, http.StatusOK, <-held)
		_, _, down = m.Outage()
		assert.False(t, down)
		assert.Zero(t, gauge())
	}
	assert.Zero(t, long.Load(), "an outage shorter than asked tells nothing")
}
