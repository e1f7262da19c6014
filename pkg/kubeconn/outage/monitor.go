// Package outage notices when a cluster's API server stops answering, holds
// the list and watch requests of informers until it answers again, and
// tells subscribers when it does.
//
// client-go's reflector backs off after every failed list or watch, up to
// 30s (with jitter, up to a minute), and SharedIndexInformer does not let
// that be changed. Through an outage of some seconds an informer therefore
// falls into its longest backoff and stays blind that long after the server
// is back. A Monitor wraps the transport of the clients informers use: a GET
// that finds the cluster unreachable does not fail, but waits until the
// cluster answers again and is then sent once more. The reflector does not
// see the outage, does not back off for it, and lists the moment the
// cluster is back.
//
// Unreachable means a request got no answer at all, or the server refused
// it (401, 403, 404 or 5xx) while its /readyz says it is not ready: a
// kube-apiserver that has just started serves requests before its
// authorizer and its CRD handlers have caught up, and answers Forbidden or
// NotFound meanwhile. One /readyz request tells this apart from a real
// denial, which is returned at once, as without a Monitor. A ready
// kube-apiserver answers /readyz to everyone (RBAC allows it to all, and
// the default --authorization-always-allow-paths too); while it starts, it
// answers 500, or even 403 before its RBAC has loaded.
//
// The outage ends when /readyz answers 200, or when a held request, sent
// as a trial while /readyz still answers an error, succeeds: /readyz waits
// for every part of the server, and lists may work a second earlier. Each
// held request is a trial at most once, so that a real denial during an
// outage is not sent again and again.
//
// A Monitor sends requests of its own only to tell such an answer apart
// and, during an outage, to ask /readyz every ProbeInterval until it answers.
// A healthy cluster costs nothing.
package outage

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/metrics"
)

const (
	// DefaultProbeInterval is how often /readyz is asked during an outage.
	DefaultProbeInterval = 500 * time.Millisecond
	// DefaultNotReadyLimit is how long a server may answer /readyz with an
	// error before held requests are let through anyway: the API may work
	// although some readiness check fails, and the requests themselves
	// then tell.
	DefaultNotReadyLimit = 30 * time.Second
	// probeTimeout bounds one /readyz request.
	probeTimeout = 5 * time.Second
	// readyFresh is how long a /readyz that found the server ready settles
	// that refused requests are real refusals: a burst of them costs one probe.
	readyFresh = time.Second
	// stillDownEvery is how often a long outage is logged again.
	stillDownEvery = time.Minute
)

// Deps is what a Monitor needs.
type Deps struct {
	// Cluster names the cluster in logs, e.g. "hub".
	Cluster string
	// Config reaches the cluster; the Monitor asks its /readyz with it.
	Config *rest.Config
	// ProbeInterval and NotReadyLimit default to DefaultProbeInterval and
	// DefaultNotReadyLimit when 0.
	ProbeInterval, NotReadyLimit time.Duration
}

// verdict is what a /readyz request says about the server.
type verdict int

const (
	// ready: 200, or an answer that cannot tell (a server without
	// /readyz), which must not hold anything.
	ready verdict = iota
	// notReady: the server answers, with a server error, or refuses
	// /readyz as a starting kube-apiserver does. (A server that always
	// refuses it is found up by trial requests.)
	notReady
	// unreachable: no answer.
	unreachable
)

// prober asks the server whether it is ready; err says why it is not.
type prober func(context.Context) (verdict, error)

// Monitor follows whether one cluster answers. Create it with New, run it
// with Run (before the informers whose clients use it start) and build
// those clients with HTTPClient.
type Monitor struct {
	cluster       string
	probe         prober
	interval      time.Duration
	notReadyLimit time.Duration
	wake          chan struct{} // an outage began; buffered
	trials        chan struct{} // hands a held request the turn to be sent as a trial

	mu          sync.Mutex
	logger      klog.Logger
	down        bool
	since       time.Time     // start of the current outage
	cause       string        // what showed it
	up          chan struct{} // closed, except during an outage
	checked     time.Time     // last /readyz that found the server ready
	checking    chan struct{} // closed when the running check ends; nil if none
	subscribers []func()
	lasting     []lastingSubscriber
}

// lastingSubscriber is told when an outage has lasted after.
type lastingSubscriber struct {
	after time.Duration
	f     func()
}

// New returns a Monitor that finds the cluster up until a request says otherwise.
func New(d Deps) (*Monitor, error) {
	probe, err := readyz(d.Config)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Cluster, err)
	}
	return newMonitor(d, probe), nil
}

func newMonitor(d Deps, probe prober) *Monitor {
	up := make(chan struct{})
	close(up)
	m := &Monitor{
		cluster: d.Cluster, probe: probe,
		interval: d.ProbeInterval, notReadyLimit: d.NotReadyLimit,
		wake: make(chan struct{}, 1), trials: make(chan struct{}), up: up,
		logger: klog.Background().WithValues("cluster", d.Cluster),
	}
	if m.interval <= 0 {
		m.interval = DefaultProbeInterval
	}
	if m.notReadyLimit <= 0 {
		m.notReadyLimit = DefaultNotReadyLimit
	}
	metrics.ClusterUnreachable.WithLabelValues(m.cluster).Set(0)
	return m
}

// readyz returns the prober of the cluster's /readyz.
func readyz(cfg *rest.Config) (prober, error) {
	c := rest.CopyConfig(cfg)
	c.Timeout = probeTimeout
	client, err := discovery.NewDiscoveryClientForConfig(c)
	if err != nil {
		return nil, err
	}
	rc := client.RESTClient()
	return func(ctx context.Context) (verdict, error) {
		var code int
		err := rc.Get().AbsPath("/readyz").MaxRetries(0).Do(ctx).StatusCode(&code).Error()
		switch {
		case code == http.StatusOK:
			return ready, nil
		case code >= http.StatusInternalServerError, code == http.StatusUnauthorized, code == http.StatusForbidden:
			return notReady, err
		case code != 0:
			return ready, nil
		default:
			return unreachable, err
		}
	}, nil
}

// OnReconnect registers f, to be called each time the cluster answers again
// after an outage, after held requests are released. f runs on the
// Monitor's goroutine: it must be quick (adding to queues is the intended
// use). Register before Run.
func (m *Monitor) OnReconnect(f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subscribers = append(m.subscribers, f)
}

// OnUnreachable registers f, to be called once in each outage that lasts
// after, on the Monitor's goroutine: it must be quick. Register before Run.
func (m *Monitor) OnUnreachable(after time.Duration, f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lasting = append(m.lasting, lastingSubscriber{after: after, f: f})
}

// Outage tells, during an outage, since when the cluster has not answered
// and what showed it; down is false while the cluster answers.
func (m *Monitor) Outage() (since time.Time, cause string, down bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.since, m.cause, m.down
}

// Run asks /readyz during each outage until the cluster answers, and blocks
// until ctx is done.
func (m *Monitor) Run(ctx context.Context) {
	m.mu.Lock()
	m.logger = klog.FromContext(ctx).WithValues("cluster", m.cluster)
	m.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return
		case <-m.wake:
			m.probeUntilUp(ctx)
		}
	}
}

// probeUntilUp asks /readyz every interval until the server is ready, or has
// answered not ready for notReadyLimit, and then ends the outage. While the
// server answers not ready, one held request per interval is sent as a
// trial.
func (m *Monitor) probeUntilUp(ctx context.Context) {
	ticker := time.NewTicker(m.interval)
	defer ticker.Stop()
	var answering time.Time // first answer of the outage
	logged := time.Now()
	m.mu.Lock()
	lasting := slices.Clone(m.lasting) // not told yet in this outage
	m.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		v, err := m.probe(ctx)
		now := time.Now()
		if v != ready {
			lasting = m.tellLasting(lasting, now)
		}
		switch {
		case v == ready:
			m.restored("ready")
			return
		case v == notReady && answering.IsZero():
			answering = now
		case v == notReady && now.Sub(answering) >= m.notReadyLimit:
			m.restored(fmt.Sprintf("not ready for %s; letting requests through", m.notReadyLimit))
			return
		}
		if v == notReady {
			select {
			case m.trials <- struct{}{}: // to one held request, if any waits for it
			default:
			}
		}
		if now.Sub(logged) >= stillDownEvery {
			since, _, _ := m.Outage()
			m.logger.Info("Cluster still unreachable", "for", now.Sub(since).Round(time.Second), "err", err)
			logged = now
		}
	}
}

// tellLasting calls the subscribers whose time has come in this outage and
// returns the others. An outage a trial request ended tells nobody.
func (m *Monitor) tellLasting(subscribers []lastingSubscriber, now time.Time) []lastingSubscriber {
	since, _, down := m.Outage()
	if !down {
		return subscribers
	}
	rest := subscribers[:0]
	for _, s := range subscribers {
		if now.Sub(since) >= s.after {
			s.f()
			continue
		}
		rest = append(rest, s)
	}
	return rest
}

// lost records that a request found the cluster unreachable.
func (m *Monitor) lost(reason string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lostLocked(reason)
}

func (m *Monitor) lostLocked(reason string) {
	if m.down {
		return
	}
	m.down, m.since, m.cause, m.up = true, time.Now(), reason, make(chan struct{})
	metrics.ClusterUnreachable.WithLabelValues(m.cluster).Set(1)
	m.logger.Info("Cluster unreachable; holding list and watch requests until it answers again", "reason", reason)
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// restored ends the outage: held requests go, subscribers are called.
func (m *Monitor) restored(how string) {
	m.mu.Lock()
	if !m.down {
		m.mu.Unlock()
		return
	}
	m.down, m.checked = false, time.Now()
	metrics.ClusterUnreachable.WithLabelValues(m.cluster).Set(0)
	close(m.up)
	outage := time.Since(m.since)
	subscribers := slices.Clone(m.subscribers)
	m.mu.Unlock()

	m.logger.Info("Cluster answers again", "after", outage.Round(time.Millisecond), "how", how)
	for _, f := range subscribers {
		f()
	}
}

// wait blocks during an outage until it ends, the prober hands this request
// a trial (if mayTry), or ctx is done. waited tells whether it blocked.
func (m *Monitor) wait(ctx context.Context, mayTry bool) (trial, waited bool, err error) {
	m.mu.Lock()
	up, down := m.up, m.down
	m.mu.Unlock()
	var trials chan struct{} // nil blocks
	if mayTry {
		trials = m.trials
	}
	select {
	case <-up:
		return false, down, nil
	case <-trials:
		return true, true, nil
	case <-ctx.Done():
		return false, down, ctx.Err()
	}
}

// unreachable tells whether a request's outcome shows the cluster
// unreachable, and records it.
func (m *Monitor) unreachable(ctx context.Context, resp *http.Response, err error) bool {
	if ctx.Err() != nil {
		return false // the caller gave up; that says nothing about the server
	}
	if err != nil {
		m.lost(err.Error())
		return true
	}
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized, code == http.StatusForbidden, code == http.StatusNotFound,
		code >= http.StatusInternalServerError:
		return !m.confirmReady(ctx, resp.Status)
	}
	return false
}

// confirmReady tells whether the server is ready, so that a refusal it just
// gave is a real one. Concurrent callers share one /readyz request, and a
// recent answer is reused.
func (m *Monitor) confirmReady(ctx context.Context, answer string) bool {
	for {
		m.mu.Lock()
		switch {
		case m.down:
			m.mu.Unlock()
			return false
		case time.Since(m.checked) < readyFresh:
			m.mu.Unlock()
			return true
		case m.checking != nil:
			checking := m.checking
			m.mu.Unlock()
			select {
			case <-checking:
				continue
			case <-ctx.Done():
				return true
			}
		}
		checking := make(chan struct{})
		m.checking = checking
		m.mu.Unlock()

		// The verdict is about the server, whether or not the caller still waits.
		v, err := m.probe(context.WithoutCancel(ctx))
		m.mu.Lock()
		m.checking = nil
		close(checking)
		if v == ready {
			m.checked = time.Now()
		} else {
			m.lostLocked(fmt.Sprintf("answered %q while not ready: %v", answer, err))
		}
		m.mu.Unlock()
		return v == ready
	}
}

// HTTPClient returns an HTTP client of the cluster whose GET requests wait
// through outages (see the package doc): build the clients of informers with
// it (NewForConfigAndClient). Each attempt of a request is logged, at -v=6,
// as a request of its own.
func (m *Monitor) HTTPClient(cfg *rest.Config) (*http.Client, error) {
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	client.Transport = &transport{monitor: m, next: client.Transport}
	return client, nil
}

// transport holds GET requests during outages. A GET that finds the
// cluster unreachable is held too, and sent again once the outage ends (or
// as a trial during it); if that fails as well, its failure is returned.
// Other requests pass.
type transport struct {
	monitor *Monitor
	next    http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || (req.Body != nil && req.Body != http.NoBody) {
		return t.next.RoundTrip(req)
	}
	ctx := req.Context()
	tried := false
	for {
		trial, waited, err := t.monitor.wait(ctx, !tried)
		if err != nil {
			return nil, err
		}
		resp, err := t.next.RoundTrip(req)
		switch {
		case !t.monitor.unreachable(ctx, resp, err):
			if trial {
				t.monitor.restored("a held request succeeded")
			}
			return resp, err
		case trial:
			tried = true // waits for the end of the outage now
		case waited:
			return resp, err // sent after an outage, and failed again
		}
		discard(resp)
	}
}

// discard reads and closes the body of a response nobody will see, so that
// its connection can be reused.
func discard(resp *http.Response) {
	if resp == nil || resp.Body == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
}

// Connection is what a process needs of the connection to a cluster or a
// message broker: it runs, and tells when it works again after an outage.
// A Monitor is one.
type Connection interface {
	Run(ctx context.Context)
	OnReconnect(f func())
}

// Monitors are the connections a process talks through.
type Monitors []Connection

// Run runs every Monitor until ctx is done.
func (ms Monitors) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, m := range ms {
		wg.Go(func() { m.Run(ctx) })
	}
	wg.Wait()
}

// OnReconnect registers f with every Monitor: it is called whenever one of
// the clusters answers again after an outage.
func (ms Monitors) OnReconnect(f func()) {
	for _, m := range ms {
		m.OnReconnect(f)
	}
}
