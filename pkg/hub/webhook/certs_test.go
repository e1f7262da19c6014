package webhook

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/hub/webhook/webhooktest"
)

// rotate writes a new pair beside the files and renames it over them, as a
// tool that replaces files atomically does.
func rotate(t *testing.T, certFile, keyFile string) *x509.Certificate {
	t.Helper()
	cert := webhooktest.WriteKeyPair(t, certFile+".new", keyFile+".new")
	require.NoError(t, os.Rename(keyFile+".new", keyFile))
	require.NoError(t, os.Rename(certFile+".new", certFile))
	return cert
}

func served(t *testing.T, c *certificate) *x509.Certificate {
	t.Helper()
	pair, err := c.get(&tls.ClientHelloInfo{})
	require.NoError(t, err)
	require.NotNil(t, pair)
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	require.NoError(t, err)
	return leaf
}

func TestLoadCertificateErrors(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	_, err := loadCertificate(klog.Background(), certFile, keyFile)
	require.EqualError(t, err, "serving certificate: stat "+certFile+": no such file or directory")

	webhooktest.WriteKeyPair(t, certFile, keyFile)
	other := filepath.Join(dir, "other.key")
	webhooktest.WriteKeyPair(t, filepath.Join(dir, "other.crt"), other)
	_, err = loadCertificate(klog.Background(), certFile, other)
	require.ErrorContains(t, err, `serving certificate "`+certFile+`", key "`+other+`": tls: private key does not match public key`)

	require.NoError(t, os.WriteFile(keyFile, []byte("not a key"), 0o600))
	_, err = loadCertificate(klog.Background(), certFile, keyFile)
	require.ErrorContains(t, err, "tls: failed to find any PEM data in key input")
}

func TestCertificateReloadsChangedFiles(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	first := webhooktest.WriteKeyPair(t, certFile, keyFile)
	c, err := loadCertificate(klog.Background(), certFile, keyFile)
	require.NoError(t, err)
	assert.Equal(t, first.SerialNumber, served(t, c).SerialNumber)
	before, err := c.get(nil)
	require.NoError(t, err)
	after, err := c.get(nil)
	require.NoError(t, err)
	assert.Same(t, before, after, "unchanged files are not re-read")

	second := rotate(t, certFile, keyFile)
	assert.Equal(t, second.SerialNumber, served(t, c).SerialNumber, "the new pair is served")

	// A broken new pair keeps the last good one.
	require.NoError(t, os.WriteFile(keyFile+".new", []byte("garbage"), 0o600))
	require.NoError(t, os.Rename(keyFile+".new", keyFile))
	assert.Equal(t, second.SerialNumber, served(t, c).SerialNumber, "an invalid pair is not served")

	// So do missing files.
	require.NoError(t, os.Remove(certFile))
	assert.Equal(t, second.SerialNumber, served(t, c).SerialNumber, "missing files keep the last pair")

	third := rotate(t, certFile, keyFile)
	assert.Equal(t, third.SerialNumber, served(t, c).SerialNumber, "a good pair after a bad one is served")
}

// A Kubernetes secret volume exposes tls.crt -> ..data/tls.crt and swaps the
// ..data symlink to a new folder on update.
func TestCertificateFollowsSecretVolumeSwap(t *testing.T) {
	dir := t.TempDir()
	v1, v2 := filepath.Join(dir, "..v1"), filepath.Join(dir, "..v2")
	require.NoError(t, os.Mkdir(v1, 0o755))
	require.NoError(t, os.Mkdir(v2, 0o755))
	first := webhooktest.WriteKeyPair(t, filepath.Join(v1, "tls.crt"), filepath.Join(v1, "tls.key"))
	second := webhooktest.WriteKeyPair(t, filepath.Join(v2, "tls.crt"), filepath.Join(v2, "tls.key"))
	data := filepath.Join(dir, "..data")
	require.NoError(t, os.Symlink("..v1", data))
	for _, f := range []string{"tls.crt", "tls.key"} {
		require.NoError(t, os.Symlink(filepath.Join("..data", f), filepath.Join(dir, f)))
	}

	c, err := loadCertificate(klog.Background(), filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"))
	require.NoError(t, err)
	assert.Equal(t, first.SerialNumber, served(t, c).SerialNumber)

	require.NoError(t, os.Symlink("..v2", data+".tmp"))
	require.NoError(t, os.Rename(data+".tmp", data))
	assert.Equal(t, second.SerialNumber, served(t, c).SerialNumber)
}
