package webhook

import (
	"crypto/tls"
	"fmt"
	"os"
	"sync"

	"k8s.io/klog/v2"
)

// certificate serves the key pair in two files and re-reads it when either
// file changes, checked on each TLS handshake rather than by a polling loop.
// os.Stat follows symlinks, so the atomic symlink swap of a Kubernetes secret
// volume counts as a change.
type certificate struct {
	certFile, keyFile string
	logger            klog.Logger

	mu      sync.Mutex
	current *tls.Certificate
	seen    [2]os.FileInfo // the files as last read, good pair or not
}

// loadCertificate reads the pair once; a missing or invalid pair is an error.
func loadCertificate(logger klog.Logger, certFile, keyFile string) (*certificate, error) {
	c := &certificate{certFile: certFile, keyFile: keyFile, logger: logger}
	stamps, err := c.stat()
	if err != nil {
		return nil, err
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("serving certificate %q, key %q: %w", certFile, keyFile, err)
	}
	c.current, c.seen = &pair, stamps
	return c, nil
}

// get implements tls.Config.GetCertificate. When the files changed it loads
// them; an unreadable or invalid new pair is logged once and the last good
// pair goes on being served.
func (c *certificate) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	stamps, err := c.stat()
	if err != nil {
		if c.seen[0] != nil {
			c.logger.Error(err, "Serving the previous certificate")
			c.seen = [2]os.FileInfo{} // log again only after the files come back
		}
		return c.current, nil
	}
	if c.seen[0] != nil && unchanged(c.seen[0], stamps[0]) && unchanged(c.seen[1], stamps[1]) {
		return c.current, nil
	}
	c.seen = stamps
	pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		c.logger.Error(err, "New serving certificate is invalid; serving the previous one",
			"certFile", c.certFile, "keyFile", c.keyFile)
		return c.current, nil
	}
	c.current = &pair
	c.logger.Info("Loaded a new serving certificate", "certFile", c.certFile, "keyFile", c.keyFile)
	return c.current, nil
}

func (c *certificate) stat() ([2]os.FileInfo, error) {
	var stamps [2]os.FileInfo
	for i, f := range []string{c.certFile, c.keyFile} {
		info, err := os.Stat(f)
		if err != nil {
			return stamps, fmt.Errorf("serving certificate: %w", err)
		}
		stamps[i] = info
	}
	return stamps, nil
}

// unchanged reports whether a file is still the same one, same size, same
// modification time.
func unchanged(before, now os.FileInfo) bool {
	return os.SameFile(before, now) && before.Size() == now.Size() && before.ModTime().Equal(now.ModTime())
}
