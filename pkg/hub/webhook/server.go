// Package webhook is the hub's validating admission webhook for ManifestWorks
// and WorkOverrides: an HTTPS server answering admission.k8s.io/v1 and
// v1beta1 AdmissionReviews at Path, at OCM's path, OCMPath, and at
// OverridePath. It refuses works whose manifests the agent could not apply,
// works whose executor the requesting user may not "execute-as", and
// overrides whose rules could not render. Every hub replica serves
// it, leader or not.
package webhook

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"k8s.io/klog/v2"
)

// shutdownTimeout bounds how long in-flight reviews may finish on shutdown.
const shutdownTimeout = 5 * time.Second

// Deps is what the webhook server needs.
type Deps struct {
	// BindAddress is host:port to listen on (--webhook-bind-address).
	BindAddress string
	// CertFile and KeyFile hold the serving key pair (--tls-cert-file,
	// --tls-private-key-file); they are re-read when they change.
	CertFile, KeyFile string
	// ManifestLimit is --manifest-limit, in bytes.
	ManifestLimit int
	// NilExecutorValidating checks a work without an executor as the agent's
	// own service account.
	NilExecutorValidating bool
	// SubjectAccessReviews asks the hub who may execute as whom.
	SubjectAccessReviews SubjectAccessReviews
	// TLSConfig, if set, holds the TLS settings (--tls-min-version,
	// --tls-cipher-suites); the certificate is the files'. Nil means TLS 1.2
	// at least with Go's cipher suites.
	TLSConfig *tls.Config
	// Flag names BindAddress in errors, e.g. "--webhook-bind-address".
	Flag string
}

// Server is a running webhook server.
type Server struct {
	addr string
	done chan struct{}
	err  error
}

// Start loads the serving certificate, binds the address and serves in the
// background until ctx is cancelled, then shuts down gracefully. A missing or
// invalid key pair and a busy address are reported here, as one line.
func Start(ctx context.Context, d Deps) (*Server, error) {
	logger := klog.FromContext(ctx).WithName("webhook")
	cert, err := loadCertificate(logger, d.CertFile, d.KeyFile)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", d.BindAddress)
	if err != nil {
		return nil, fmt.Errorf("webhook address %s %q: %w", d.Flag, d.BindAddress, err)
	}
	mux := http.NewServeMux()
	h := &handler{logger: logger, reviewer: &reviewer{
		sars:                  d.SubjectAccessReviews,
		manifestLimit:         d.ManifestLimit,
		nilExecutorValidating: d.NilExecutorValidating,
	}}
	mux.Handle(Path, h)
	mux.Handle(OCMPath, h)
	mux.Handle(OverridePath, h)
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	if d.TLSConfig != nil {
		tlsConfig = d.TLSConfig.Clone()
	}
	tlsConfig.GetCertificate = cert.get
	srv := &http.Server{
		Handler:           mux,
		TLSConfig:         tlsConfig,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       90 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	s := &Server{addr: ln.Addr().String(), done: make(chan struct{})}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.ServeTLS(ln, "", "") }()
	go func() {
		defer close(s.done)
		select {
		case err := <-serveErr:
			s.err = fmt.Errorf("webhook server on %s stopped: %w", s.addr, err)
			logger.Error(err, "Webhook server stopped", "address", s.addr)
			return
		case <-ctx.Done():
		}
		shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil {
			logger.Error(err, "Webhook server did not shut down in time; closing it")
			_ = srv.Close() // the connections are dropped either way
		}
		if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
			s.err = fmt.Errorf("webhook server on %s: %w", s.addr, err)
		}
		logger.Info("Webhook server stopped", "address", s.addr)
	}()
	logger.Info("Serving the ManifestWork and WorkOverride webhook", "address", s.addr, "paths", []string{Path, OCMPath, OverridePath})
	return s, nil
}

// Addr is the address actually bound (useful with port 0).
func (s *Server) Addr() string { return s.addr }

// Done is closed once the server has stopped serving.
func (s *Server) Done() <-chan struct{} { return s.done }

// Err says why the server stopped other than by cancellation; read it after Done.
func (s *Server) Err() error { return s.err }
