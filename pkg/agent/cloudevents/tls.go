package cloudevents

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"slices"
	"sync"

	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/filewatch"
)

// KeyPair says where a client certificate and its key are, as a config
// file gives them: each as PEM (its *Data key) or as a file (its *File
// key), read again when needed. PEM wins over a file.
type KeyPair struct {
	CertPEM, KeyPEM   []byte
	CertFile, KeyFile string
}

// IsSet tells whether the pair names a certificate at all.
func (p KeyPair) IsSet() bool {
	return len(p.CertPEM) != 0 || p.CertFile != "" || len(p.KeyPEM) != 0 || p.KeyFile != ""
}

// Files are the files the pair is read from: none when both halves are PEM.
func (p KeyPair) Files() []string {
	var files []string
	if len(p.CertPEM) == 0 && p.CertFile != "" {
		files = append(files, p.CertFile)
	}
	if len(p.KeyPEM) == 0 && p.KeyFile != "" {
		files = append(files, p.KeyFile)
	}
	return files
}

// Load reads the certificate and key, each from its file unless given as
// PEM. An error names the key at fault: the file that cannot be read, or
// both halves when they are no pair.
func (p KeyPair) Load() (tls.Certificate, error) {
	certPEM, certKey, err := pemOrFile(p.CertPEM, "clientCertData", p.CertFile, "clientCertFile")
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, keyKey, err := pemOrFile(p.KeyPEM, "clientKeyData", p.KeyFile, "clientKeyFile")
	if err != nil {
		return tls.Certificate{}, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("%s and %s: %w", certKey, keyKey, err)
	}
	return cert, nil
}

// pemOrFile is data when set, else the content of file; key names the one
// it came from.
func pemOrFile(data []byte, dataKey, file, fileKey string) (pem []byte, key string, err error) {
	if len(data) != 0 || file == "" {
		return data, dataKey, nil
	}
	pem, err = os.ReadFile(file)
	if err != nil {
		return nil, fileKey, fmt.Errorf("%s: %w", fileKey, err)
	}
	return pem, fileKey, nil
}

// TLSConfig is the TLS configuration of a connection to a broker or a
// server, as OCM's agent builds it: the system's roots plus the PEM of ca
// (caKey names it in errors), TLS 1.3 only, and the client certificate of
// pair when it is set. A certificate read from files comes with the
// CertReloader that serves it to each handshake; it is nil otherwise.
func TLSConfig(ca []byte, caKey string, pair KeyPair) (*tls.Config, *CertReloader, error) {
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if len(ca) != 0 && !pool.AppendCertsFromPEM(ca) {
		return nil, nil, fmt.Errorf("%s: no PEM certificate in it", caKey)
	}
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS13, MaxVersion: tls.VersionTLS13}
	if !pair.IsSet() {
		return cfg, nil, nil
	}
	cert, err := pair.Load()
	if err != nil {
		return nil, nil, err
	}
	if len(pair.Files()) == 0 {
		cfg.Certificates = []tls.Certificate{cert}
		return cfg, nil, nil
	}
	r := &CertReloader{pair: pair, current: cert}
	cfg.GetClientCertificate = r.GetClientCertificate
	return cfg, r, nil
}

// CertReloader is a client certificate read from files: it reads them
// again at each TLS handshake, and follows them to tell a renewal.
type CertReloader struct {
	pair KeyPair

	mu      sync.Mutex
	current tls.Certificate // the certificate read last
}

// GetClientCertificate is tls.Config.GetClientCertificate. A renewal
// caught half-written must not cost the connection: the certificate read
// last serves until the files read whole again.
func (r *CertReloader) GetClientCertificate(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cert, err := r.pair.Load(); err == nil {
		r.current = cert
	}
	current := r.current
	return &current, nil
}

// Files are the files the certificate is read from.
func (r *CertReloader) Files() []string { return r.pair.Files() }

// Follow watches the files (pkg/filewatch: a file rewritten, or a mounted
// Secret's `..data` swapped) until ctx ends, and calls renewed once per
// certificate that differs from the one read last, by a handshake or by
// Follow: a connection that presented the new certificate already is not
// dropped for it. A pair that does not read whole (one file written, not
// yet the other) is logged and waited out.
func (r *CertReloader) Follow(ctx context.Context, renewed func()) {
	log := klog.FromContext(ctx)
	w, err := filewatch.Watch(ctx, r.Files()...)
	if err != nil {
		log.Error(err, "Cannot follow the client certificate files; each connection still reads them",
			"certFile", r.pair.CertFile, "keyFile", r.pair.KeyFile)
		return
	}
	// A renewal between the last read and the watch is seen by a first
	// look now.
	r.check(ctx, renewed)
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.Changes():
		}
		r.check(ctx, renewed)
	}
}

// check calls renewed when the files hold a renewed certificate.
func (r *CertReloader) check(ctx context.Context, renewed func()) {
	changed, err := r.renewed()
	if err != nil {
		klog.FromContext(ctx).Error(err, "Cannot read the client certificate; keeping the one in use",
			"certFile", r.pair.CertFile, "keyFile", r.pair.KeyFile)
		return
	}
	if changed {
		renewed()
	}
}

// renewed reads the files and reports whether they hold another
// certificate than the one read last, which it then becomes.
func (r *CertReloader) renewed() (bool, error) {
	cert, err := r.pair.Load()
	if err != nil {
		return false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.EqualFunc(cert.Certificate, r.current.Certificate, bytes.Equal) {
		return false, nil
	}
	r.current = cert
	return true, nil
}
