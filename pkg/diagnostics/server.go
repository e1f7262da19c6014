// Package diagnostics serves what operators ask a running work process: the
// liveness (/healthz, /livez) and readiness (/readyz) probes to anyone and,
// when asked, the Prometheus metrics (/metrics, WithMetrics) and the Go
// profiles (/debug/pprof, WithProfiling), to anyone or only to whom the
// cluster's API server allows (WithAuthorizer), over plain HTTP or HTTPS
// (StartOn; the secure port OCM's operators probe).
//
// /healthz answers ok for as long as the process serves HTTP at all. /readyz
// answers ok only while the Readiness given to Start is set; what "ready" means
// is decided by the caller. /metrics serves the component-base legacy
// registry, where package metrics registers the work metrics.
package diagnostics

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"sync/atomic"
	"time"

	"k8s.io/component-base/metrics/legacyregistry"
)

// Disabled is the bind address that turns the probe server off.
const Disabled = "0"

// shutdownTimeout bounds how long Stop waits for in-flight probe requests.
const shutdownTimeout = 5 * time.Second

// Readiness is a concurrency-safe ready flag. The zero value is "not ready".
type Readiness struct {
	ready atomic.Bool
}

// Set marks the process ready or not ready.
func (r *Readiness) Set(ready bool) { r.ready.Store(ready) }

// Ready reports the current state.
func (r *Readiness) Ready() bool { return r.ready.Load() }

// Server is a running probe server. A Server for the Disabled address does nothing.
type Server struct {
	srv  *http.Server
	addr string
	done chan struct{}
}

// Start binds addr and serves the probes in the background. Binding happens
// before Start returns, so a busy port is reported here. addr "0" (or empty)
// disables the server.
func Start(addr string, ready *Readiness, opts ...Option) (*Server, error) {
	return start("health probe address", addr, nil, Handler(ready, opts...))
}

// StartOn is Start with what naming the address in errors (e.g. "secure
// address --listen"), over HTTPS when tlsConfig is set; it must hold a
// certificate (see SelfSigned).
func StartOn(what, addr string, tlsConfig *tls.Config, ready *Readiness, opts ...Option) (*Server, error) {
	return start(what, addr, tlsConfig, Handler(ready, opts...))
}

func start(what, addr string, tlsConfig *tls.Config, handler http.Handler) (*Server, error) {
	s := &Server{done: make(chan struct{})}
	if addr == Disabled || addr == "" {
		close(s.done)
		return s, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", what, addr, err)
	}
	s.addr = ln.Addr().String()
	s.srv = &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, TLSConfig: tlsConfig}
	go func() {
		defer close(s.done)
		// Serve returns http.ErrServerClosed after Stop. Any other error means
		// the listener broke, which the kubelet's liveness probe then notices.
		if tlsConfig != nil {
			_ = s.srv.ServeTLS(ln, "", "")
		} else {
			_ = s.srv.Serve(ln)
		}
	}()
	return s, nil
}

// Done is closed once the server has stopped serving.
func (s *Server) Done() <-chan struct{} { return s.done }

// Err is nil: a probe server that stops by itself is noticed by the
// kubelet's probes, not reported.
func (s *Server) Err() error { return nil }

// Addr is the address actually bound (useful with port 0), or "" when disabled.
func (s *Server) Addr() string { return s.addr }

// Stop shuts the server down and waits until it has stopped serving.
func (s *Server) Stop() {
	if s.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		_ = s.srv.Close()
	}
	<-s.done
}

// Option adds to what the server serves: without options, only the probes.
type Option func(*served)

// served is what a server serves besides the probes.
type served struct {
	metrics, profiling bool
	auth               *Authorizer
}

// WithMetrics serves the legacy registry's metrics at /metrics.
func WithMetrics() Option {
	return func(s *served) { s.metrics = true }
}

// WithProfiling serves Go's profiles (net/http/pprof) under /debug/pprof/,
// for `go tool pprof http://<address>/debug/pprof/heap` and the like.
func WithProfiling() Option {
	return func(s *served) { s.profiling = true }
}

// WithAuthorizer serves the metrics and the profiles only to whom a allows;
// the probes stay open.
func WithAuthorizer(a *Authorizer) Option {
	return func(s *served) { s.auth = a }
}

// Handler returns the mux serving the probes /healthz, /livez and /readyz to
// anyone, and what the options add.
func Handler(ready *Readiness, opts ...Option) http.Handler {
	var s served
	for _, opt := range opts {
		opt(&s)
	}
	guard := func(h http.Handler) http.Handler { return h }
	if s.auth != nil {
		guard = s.auth.Wrap
	}
	mux := http.NewServeMux()
	if s.profiling {
		mux.Handle("/debug/pprof/", guard(http.HandlerFunc(pprof.Index)))
		mux.Handle("/debug/pprof/cmdline", guard(http.HandlerFunc(pprof.Cmdline)))
		mux.Handle("/debug/pprof/profile", guard(http.HandlerFunc(pprof.Profile)))
		mux.Handle("/debug/pprof/symbol", guard(http.HandlerFunc(pprof.Symbol)))
		mux.Handle("/debug/pprof/trace", guard(http.HandlerFunc(pprof.Trace)))
	}
	if s.metrics {
		mux.Handle("/metrics", guard(legacyregistry.Handler()))
	}
	alive := func(w http.ResponseWriter, _ *http.Request) { writeStatus(w, true) }
	mux.HandleFunc("/healthz", alive)
	mux.HandleFunc("/livez", alive)
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		writeStatus(w, ready.Ready())
	})
	return mux
}

func writeStatus(w http.ResponseWriter, ok bool) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = fmt.Fprintln(w, "not ready")
		return
	}
	_, _ = fmt.Fprintln(w, "ok")
}
