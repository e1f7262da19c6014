package kubeconn

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	certutil "k8s.io/client-go/util/cert"
)

var workAPI = ManifestWorkAPI

// writeKubeconfig writes a kubeconfig for server and returns its path.
// caPEM empty means insecure-skip-tls-verify.
func writeKubeconfig(t *testing.T, server string, caPEM []byte) string {
	t.Helper()
	trust := "insecure-skip-tls-verify: true"
	if len(caPEM) > 0 {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "ca.crt"), caPEM, 0o600))
		trust = "certificate-authority: " + filepath.Join(dir, "ca.crt")
	}
	content := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: %s
    %s
users:
- name: u
  user:
    token: secret
contexts:
- name: ctx
  context: {cluster: c, user: u}
current-context: ctx
`, server, trust)
	return writeFile(t, content)
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

func closedPortURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return "https://" + addr
}

func TestLoad(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	dir := t.TempDir()
	garbage := writeFile(t, "clusters: [this is: not: yaml")
	empty := writeFile(t, "")
	noServer := writeFile(t, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {insecure-skip-tls-verify: true}\n"+
		"contexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n")

	tests := []struct {
		name    string
		path    string
		wantErr string
	}{
		{"missing file", missing, `hub kubeconfig "` + missing + `": cannot read file: no such file or directory`},
		{"directory", dir, `hub kubeconfig "` + dir + `": cannot read file: is a directory`},
		{"not yaml", garbage, `hub kubeconfig "` + garbage + `": not a valid kubeconfig: `},
		{"empty file", empty, `hub kubeconfig "` + empty + `": the file names no cluster (no current-context or server)`},
		{"cluster without server", noServer, `hub kubeconfig "` + noServer + `": invalid configuration: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Cluster{Role: "hub", Flag: "--hub-kubeconfig", Kubeconfig: tt.path}.Load()
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tt.wantErr), "got %q", err)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

func TestLoadValid(t *testing.T) {
	cfg, err := Cluster{Role: "hub", Kubeconfig: writeKubeconfig(t, "https://127.0.0.1:6443", nil)}.Load()
	require.NoError(t, err)
	assert.Equal(t, "https://127.0.0.1:6443", cfg.Host)
	assert.Equal(t, "secret", cfg.BearerToken)
}

func TestLoadInClusterOutsideAPod(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	_, err := Cluster{Role: "agent cluster", Flag: "--kubeconfig"}.Load()
	require.EqualError(t, err, "agent cluster in-cluster config: not running in a pod (KUBERNETES_SERVICE_HOST is unset); pass --kubeconfig")
}

// discoveryServer answers discovery for workAPI with the given resources,
// or with status for every request when status is not 200.
func discoveryServer(status int, resources ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status != http.StatusOK {
			w.WriteHeader(status)
			return
		}
		if r.URL.Path != "/apis/"+workAPI.GroupVersion {
			http.NotFound(w, r)
			return
		}
		list := metav1.APIResourceList{GroupVersion: workAPI.GroupVersion}
		for _, name := range resources {
			list.APIResources = append(list.APIResources, metav1.APIResource{Name: name, Namespaced: true, Kind: "X"})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(list)
	})
}

func TestProbe(t *testing.T) {
	tests := []struct {
		name    string
		handler http.Handler
		wantErr string // %s is the server URL
	}{
		{"served", discoveryServer(http.StatusOK, "manifestworks", "manifestworks/status"), ""},
		{"group missing", discoveryServer(http.StatusNotFound), "the ManifestWork CRD is not installed on the hub"},
		{"group without the resource", discoveryServer(http.StatusOK, "appliedmanifestworks"), "the ManifestWork CRD is not installed on the hub"},
		{"unauthorized", discoveryServer(http.StatusUnauthorized), "%s rejected the credentials (401 Unauthorized): the credential is expired, revoked or wrong"},
		{"forbidden", discoveryServer(http.StatusForbidden), "the credentials may not read work.open-cluster-management.io/v1 discovery on %s (403 Forbidden)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewTLSServer(tt.handler)
			defer srv.Close()
			c := Cluster{Role: "hub", Kubeconfig: writeKubeconfig(t, srv.URL, nil)}
			cfg, err := c.Load()
			require.NoError(t, err)

			err = Probe(context.Background(), c, cfg, workAPI)
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			want := c.String() + ": " + strings.ReplaceAll(tt.wantErr, "%s", srv.URL)
			require.EqualError(t, err, want)
		})
	}
}

func TestProbeClosedPort(t *testing.T) {
	url := closedPortURL(t)
	c := Cluster{Role: "hub", Kubeconfig: writeKubeconfig(t, url, nil)}
	cfg, err := c.Load()
	require.NoError(t, err)

	err = Probe(context.Background(), c, cfg, workAPI)
	require.EqualError(t, err, fmt.Sprintf("hub kubeconfig %q: cannot reach %s: connection refused", c.Kubeconfig, url))
}

func TestProbeUntrustedCertificate(t *testing.T) {
	srv := httptest.NewUnstartedServer(discoveryServer(http.StatusOK, "manifestworks"))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the rejected handshake is expected
	srv.StartTLS()
	defer srv.Close()
	// Trust only an unrelated self-signed certificate.
	otherCA, _, err := certutil.GenerateSelfSignedCertKey("elsewhere.example", nil, nil)
	require.NoError(t, err)

	c := Cluster{Role: "hub", Kubeconfig: writeKubeconfig(t, srv.URL, otherCA)}
	cfg, err := c.Load()
	require.NoError(t, err)
	err = Probe(context.Background(), c, cfg, workAPI)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), c.String()+": cannot reach "+srv.URL+": the server certificate is not trusted: x509: "), "got %q", err)
	assert.NotContains(t, err.Error(), "\n")
}

func TestProbeTrustedCertificate(t *testing.T) {
	srv := httptest.NewTLSServer(discoveryServer(http.StatusOK, "manifestworks"))
	defer srv.Close()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	c := Cluster{Role: "hub", Kubeconfig: writeKubeconfig(t, srv.URL, ca)}
	cfg, err := c.Load()
	require.NoError(t, err)
	require.NoError(t, Probe(context.Background(), c, cfg, workAPI))
}

func TestProbeCancelled(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-block }))
	defer srv.Close()
	defer close(block)
	c := Cluster{Role: "hub", Kubeconfig: writeKubeconfig(t, srv.URL, nil)}
	cfg, err := c.Load()
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = Probe(ctx, c, cfg, workAPI)
	require.ErrorIs(t, err, context.Canceled)
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, "a; b; c", OneLine("a\n  b\r\n\nc\n"))
}
