package kubeconn

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/filewatch"
	"github.com/manifestwork/work/pkg/metrics"
)

// credentials follows the kubeconfig of a cluster: when the file, or a
// certificate, key or token file it names, changes (a rotated client
// certificate, a new token), the next requests go out with the new
// credential, on new connections, while requests and watches in flight
// finish on the old ones. Clients, informers and their caches stay as they
// are: nothing is listed again and no request is spent on the switch.
//
// client-go alone re-reads only certificate files a kubeconfig points at, and
// only every few minutes; a kubeconfig that embeds its certificate or token
// (as OCM's registration agent writes it) is read once. Here every kind of
// credential client-go supports is followed, as soon as the file changes.
//
// It also watches the answers: while the cluster answers 401 Unauthorized
// (expired, revoked or wrong credential) it says so once in the log, in
// metrics and to Cluster.OnCredential, and again once it is accepted.
type credentials struct {
	cluster Cluster
	host    string
	logger  klog.Logger

	current  atomic.Pointer[generation]
	rejected atomic.Int64 // the generation the cluster rejects, 0 while it accepts

	mu       sync.Mutex
	files    []string      // the kubeconfig and the files it names
	reloaded chan struct{} // closed, and replaced, on each reload
	stop     context.CancelFunc
}

// generation is the transport of one credential.
type generation struct {
	c        *credentials
	n        int
	rt       http.RoundTripper
	expires  time.Time // of the client certificate; zero when none
	loadedAt time.Time // zero for the credential the process started with
	answered atomic.Bool
}

// followCredentials loads the cluster's kubeconfig and returns a client
// config whose requests go out with its current credential, and the
// credentials following it until ctx is done. The config carries no TLS or
// auth settings of its own: only Host, APIPath and a Transport.
func followCredentials(ctx context.Context, c Cluster) (*rest.Config, *credentials, error) {
	loaded, err := c.Load()
	if err != nil {
		return nil, nil, err
	}
	creds := &credentials{
		cluster: c, host: loaded.Host, reloaded: make(chan struct{}),
		logger: klog.FromContext(ctx).WithValues("cluster", c.Role, "kubeconfig", c.Kubeconfig),
	}
	g, err := creds.newGeneration(loaded, 1)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s", c, OneLine(err.Error()))
	}
	creds.current.Store(g)
	if err := creds.watch(ctx, credentialFiles(c.Kubeconfig, loaded)); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", c, err)
	}
	cfg := &rest.Config{Host: loaded.Host, APIPath: loaded.APIPath, Transport: creds}
	return cfg, creds, nil
}

// credentialFiles are the kubeconfig and the files it names.
func credentialFiles(kubeconfig string, cfg *rest.Config) []string {
	files := []string{kubeconfig}
	for _, f := range []string{cfg.CertFile, cfg.KeyFile, cfg.CAFile, cfg.BearerTokenFile} {
		if f != "" && !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return files
}

// newGeneration builds the transport of a loaded config. Certificate, key
// and CA files are read into the config, so that the transport holds exactly
// what the files hold now; a transport of its own (not client-go's shared
// cache) lets the previous one be dropped.
func (c *credentials) newGeneration(cfg *rest.Config, n int) (*generation, error) {
	cfg = rest.CopyConfig(cfg)
	for _, f := range []struct {
		file *string
		data *[]byte
	}{{&cfg.CertFile, &cfg.CertData}, {&cfg.KeyFile, &cfg.KeyData}, {&cfg.CAFile, &cfg.CAData}} {
		if *f.file == "" {
			continue
		}
		data, err := os.ReadFile(*f.file)
		if err != nil {
			return nil, err
		}
		*f.data, *f.file = data, ""
	}
	cfg.Proxy = http.ProxyFromEnvironment // as the default, but keeps the transport out of client-go's cache
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		return nil, err
	}
	return &generation{c: c, n: n, rt: rt, expires: certificateExpiry(cfg.CertData)}, nil
}

// certificateExpiry is when the first certificate of a PEM bundle expires,
// or zero.
func certificateExpiry(certPEM []byte) time.Time {
	block, _ := pem.Decode(certPEM)
	if block == nil {
		return time.Time{}
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return time.Time{}
	}
	return cert.NotAfter
}

// watch (re)starts watching files.
func (c *credentials) watch(ctx context.Context, files []string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if slices.Equal(files, c.files) {
		return nil
	}
	if c.stop != nil {
		c.stop() // the files of the previous kubeconfig
	}
	watchCtx, stop := context.WithCancel(ctx) // ends with ctx too
	w, err := filewatch.Watch(watchCtx, files...)
	if err != nil {
		stop()
		return err
	}
	c.files, c.stop = files, stop
	go func() {
		for {
			select {
			case <-watchCtx.Done():
				return
			case changed := <-w.Changes():
				c.reload(ctx, changed)
			}
		}
	}()
	return nil
}

// reload loads the kubeconfig again and, if it is usable and names the same
// server, sends the next requests with its credential.
func (c *credentials) reload(ctx context.Context, changed []string) {
	cfg, err := c.cluster.Load()
	if err == nil && cfg.Host != c.host {
		err = fmt.Errorf("it names the server %s instead of %s; a process follows new credentials, not a new server: restart it to switch", cfg.Host, c.host)
	}
	var g *generation
	if err == nil {
		g, err = c.newGeneration(cfg, c.current.Load().n+1)
	}
	if err != nil {
		metrics.CredentialReloads.WithLabelValues(c.cluster.Role, metrics.ReloadInvalid).Inc()
		c.logger.Error(nil, "The changed kubeconfig cannot be used; the previous credential stays in use", "changed", changed, "reason", OneLine(err.Error()))
		return
	}
	g.loadedAt = time.Now()
	old := c.current.Swap(g)
	utilnet.CloseIdleConnectionsFor(old.rt) // requests and watches in flight finish on their connections
	metrics.CredentialReloads.WithLabelValues(c.cluster.Role, metrics.ReloadLoaded).Inc()
	keys := []any{"changed", changed, "credential", g.n}
	if !g.expires.IsZero() {
		keys = append(keys, "clientCertificateExpires", g.expires.UTC().Format(time.RFC3339))
	}
	c.logger.Info("Loaded a new credential; new connections use it", keys...)
	if err := c.watch(ctx, credentialFiles(c.cluster.Kubeconfig, cfg)); err != nil {
		c.logger.Error(err, "Cannot watch the files the new kubeconfig names")
	}
	c.mu.Lock()
	close(c.reloaded)
	c.reloaded = make(chan struct{})
	c.mu.Unlock()
}

// Reloaded is closed at the next reload of the credential.
func (c *credentials) Reloaded() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reloaded
}

// RoundTrip sends the request with the current credential. A client built
// on the config logs the request (at -v=6, client-go's request logging, with
// the logger of the request's context); the credential's transport, built by
// client-go too, would log it a second time, so it gets a logger that writes
// nothing.
func (c *credentials) RoundTrip(req *http.Request) (*http.Response, error) {
	g := c.current.Load()
	resp, err := g.rt.RoundTrip(req.WithContext(klog.NewContext(req.Context(), logr.Discard())))
	if err == nil {
		g.observe(resp.StatusCode)
	}
	return resp, err
}

// CloseIdleConnections closes the idle connections of the current credential.
func (c *credentials) CloseIdleConnections() {
	utilnet.CloseIdleConnectionsFor(c.current.Load().rt)
}

// observe follows what the cluster thinks of the credential: 401 means
// rejected; any other answer short of a server error means accepted.
// Answers to requests sent with an older credential are ignored.
func (g *generation) observe(code int) {
	c := g.c
	if c.current.Load() != g {
		return
	}
	if code == http.StatusUnauthorized {
		if c.rejected.Swap(int64(g.n)) != int64(g.n) {
			c.onRejected(g) // once per credential
		}
		return
	}
	if code >= http.StatusInternalServerError {
		return
	}
	if !g.loadedAt.IsZero() && !g.answered.Swap(true) {
		metrics.CredentialFirstUsed.WithLabelValues(c.cluster.Role).Set(float64(time.Now().UnixNano()) / 1e9)
		c.logger.Info("The first request with the new credential was answered", "credential", g.n,
			"afterLoading", time.Since(g.loadedAt).Round(time.Millisecond), "code", code)
	}
	if c.rejected.Swap(0) != 0 {
		metrics.CredentialRejected.WithLabelValues(c.cluster.Role).Set(0)
		msg := fmt.Sprintf("%s: the %s accepts the credential again", c.cluster, c.cluster.Role)
		c.logger.Info("The credential is accepted again", "credential", g.n)
		c.notify(false, msg)
	}
}

func (c *credentials) onRejected(g *generation) {
	metrics.CredentialRejected.WithLabelValues(c.cluster.Role).Set(1)
	metrics.CredentialRejections.WithLabelValues(c.cluster.Role).Inc()
	msg := fmt.Sprintf("%s: the %s rejects the credential (401 Unauthorized)", c.cluster, c.cluster.Role)
	if !g.expires.IsZero() && time.Now().After(g.expires) {
		msg += fmt.Sprintf(": its client certificate expired at %s", g.expires.UTC().Format(time.RFC3339))
	} else {
		msg += ": it expired, was revoked or is not valid for this server"
	}
	msg += "; requests are retried, and a new credential written to the file is used as soon as it appears"
	c.logger.Error(nil, msg, "credential", g.n)
	c.notify(true, msg)
}

func (c *credentials) notify(rejected bool, msg string) {
	if c.cluster.OnCredential != nil {
		c.cluster.OnCredential(rejected, msg)
	}
}
