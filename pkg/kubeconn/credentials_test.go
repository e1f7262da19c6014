package kubeconn

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
	certutil "k8s.io/client-go/util/cert"
	"k8s.io/component-base/metrics/testutil"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"

	"github.com/manifestwork/work/pkg/filewatch/filewatchtest"
	"github.com/manifestwork/work/pkg/metrics"
)

const eventually = 10 * time.Second

func init() { metrics.Register() }

// authServer is a TLS API server that serves discovery of workAPI to the
// bearer tokens and client certificates (by subject) it accepts, and answers
// 401 to anything else. It remembers who sent each request.
type authServer struct {
	*httptest.Server
	mu       sync.Mutex
	accepted map[string]bool
	seen     []string
}

func newAuthServer(t *testing.T, accepted ...string) *authServer {
	t.Helper()
	s := &authServer{accepted: map[string]bool{}}
	s.accept(accepted...)
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.TLS = &tls.Config{ClientAuth: tls.RequestClientCert}
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func (s *authServer) accept(who ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range who {
		s.accepted[w] = true
	}
}

func (s *authServer) revoke(who string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.accepted, who)
}

// last is who sent the last request.
func (s *authServer) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		return ""
	}
	return s.seen[len(s.seen)-1]
}

func (s *authServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

func (s *authServer) serve(w http.ResponseWriter, r *http.Request) {
	who := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if len(r.TLS.PeerCertificates) > 0 {
		who = "cert:" + strings.SplitN(r.TLS.PeerCertificates[0].Subject.CommonName, "@", 2)[0]
	}
	s.mu.Lock()
	s.seen = append(s.seen, who)
	ok := s.accepted[who]
	s.mu.Unlock()
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized","code":401}`)
		return
	}
	discoveryServer(http.StatusOK, workAPI.Resource).ServeHTTP(w, r)
}

// kubeconfigWith is a kubeconfig for server with the given user entry.
func kubeconfigWith(server, user string) []byte {
	return fmt.Appendf(nil, `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: %q, insecure-skip-tls-verify: true}
users:
- name: u
  user: %s
contexts:
- name: ctx
  context: {cluster: c, user: u}
current-context: ctx
`, server, user)
}

func tokenUser(token string) string { return "{token: " + token + "}" }

// certUser embeds a new self-signed client certificate with subject cn.
func certUser(t *testing.T, cn string) string {
	t.Helper()
	cert, key, err := certutil.GenerateSelfSignedCertKey(cn, nil, nil)
	require.NoError(t, err)
	return fmt.Sprintf("{client-certificate-data: %s, client-key-data: %s}",
		base64.StdEncoding.EncodeToString(cert), base64.StdEncoding.EncodeToString(key))
}

// hubVolume lays the kubeconfig out like the Secret OCM mounts at
// /spoke/hub-kubeconfig.
func hubVolume(t *testing.T, kubeconfig []byte) (*filewatchtest.SecretVolume, Cluster) {
	t.Helper()
	vol, err := filewatchtest.NewSecretVolume(filepath.Join(t.TempDir(), "spoke", "hub-kubeconfig"),
		map[string][]byte{"kubeconfig": kubeconfig})
	require.NoError(t, err)
	return vol, Cluster{Role: "hub", Flag: "--hub-kubeconfig", Kubeconfig: vol.Path("kubeconfig")}
}

func get(t *testing.T, client *http.Client, cfg *rest.Config) int {
	t.Helper()
	resp, err := client.Get(cfg.Host + "/apis/" + workAPI.GroupVersion)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	require.NoError(t, resp.Body.Close())
	return resp.StatusCode
}

func reloads(t *testing.T, result string) float64 {
	t.Helper()
	v, err := testutil.GetCounterMetricValue(metrics.CredentialReloads.WithLabelValues("hub", result))
	require.NoError(t, err)
	return v
}

// A token or a client certificate embedded in the kubeconfig, rotated the
// kubelet's way, is used by the next requests of the same client: no new
// client, no request spent on the switch.
func TestFollowsRotatedCredential(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after func() string
		first, second string // who the server sees
	}{
		{"token", func() string { return tokenUser("t1") }, func() string { return tokenUser("t2") }, "t1", "t2"},
		{"client certificate", func() string { return certUser(t, "first") }, func() string { return certUser(t, "second") }, "cert:first", "cert:second"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newAuthServer(t, tc.first, tc.second)
			vol, cluster := hubVolume(t, kubeconfigWith(srv.URL, tc.before()))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg, err := Connect(ctx, cluster, workAPI)
			require.NoError(t, err)
			client, err := rest.HTTPClientFor(cfg)
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, get(t, client, cfg))
			assert.Equal(t, tc.first, srv.last())
			loaded := reloads(t, metrics.ReloadLoaded)

			require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": kubeconfigWith(srv.URL, tc.after())}))
			require.Eventually(t, func() bool { return reloads(t, metrics.ReloadLoaded) == loaded+1 }, eventually, 10*time.Millisecond)
			sent := srv.requests()
			assert.Equal(t, http.StatusOK, get(t, client, cfg))
			assert.Equal(t, tc.second, srv.last(), "the next request of the same client goes with the new credential")
			assert.Equal(t, sent+1, srv.requests(), "the switch itself sent nothing")
		})
	}
}

// A rejected credential is said once, in the log, the metric and to
// OnCredential, and the switch to a working one is said once too.
func TestRejectedCredentialIsReportedThenRecovered(t *testing.T) {
	srv := newAuthServer(t, "t1")
	vol, cluster := hubVolume(t, kubeconfigWith(srv.URL, tokenUser("t1")))
	var mu sync.Mutex
	var told []string
	cluster.OnCredential = func(rejected bool, msg string) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, fmt.Sprintf("%v %s", rejected, msg))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, err := Connect(ctx, cluster, workAPI)
	require.NoError(t, err)
	client, err := rest.HTTPClientFor(cfg)
	require.NoError(t, err)
	rejections, err := testutil.GetCounterMetricValue(metrics.CredentialRejections.WithLabelValues("hub"))
	require.NoError(t, err)

	srv.revoke("t1")
	assert.Equal(t, http.StatusUnauthorized, get(t, client, cfg))
	assert.Equal(t, http.StatusUnauthorized, get(t, client, cfg))
	gauge, err := testutil.GetGaugeMetricValue(metrics.CredentialRejected.WithLabelValues("hub"))
	require.NoError(t, err)
	assert.Equal(t, 1.0, gauge)
	after, err := testutil.GetCounterMetricValue(metrics.CredentialRejections.WithLabelValues("hub"))
	require.NoError(t, err)
	assert.Equal(t, rejections+1, after, "counted once, not per request")

	// A new credential that is rejected too is said again.
	require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": kubeconfigWith(srv.URL, tokenUser("t2"))}))
	require.Eventually(t, func() bool {
		get(t, client, cfg)
		return srv.last() == "t2"
	}, eventually, 10*time.Millisecond)
	after, err = testutil.GetCounterMetricValue(metrics.CredentialRejections.WithLabelValues("hub"))
	require.NoError(t, err)
	assert.Equal(t, rejections+2, after)

	srv.accept("t2")
	require.Eventually(t, func() bool { return get(t, client, cfg) == http.StatusOK }, eventually, 10*time.Millisecond)
	gauge, err = testutil.GetGaugeMetricValue(metrics.CredentialRejected.WithLabelValues("hub"))
	require.NoError(t, err)
	assert.Equal(t, 0.0, gauge)
	first, err := testutil.GetGaugeMetricValue(metrics.CredentialFirstUsed.WithLabelValues("hub"))
	require.NoError(t, err)
	assert.InDelta(t, float64(time.Now().Unix()), first, 60, "when the new credential was first answered")

	mu.Lock()
	defer mu.Unlock()
	prefix := fmt.Sprintf("hub kubeconfig %q: ", cluster.Kubeconfig)
	rejected := "true " + prefix + "the hub rejects the credential (401 Unauthorized): it expired, was revoked or is not valid for this server; " +
		"requests are retried, and a new credential written to the file is used as soon as it appears"
	assert.Equal(t, []string{rejected, rejected, "false " + prefix + "the hub accepts the credential again"}, told)
}

// A process whose credential is rejected at start-up waits for a new one
// instead of exiting (and crash-looping in a pod).
func TestConnectWaitsForAnAcceptedCredential(t *testing.T) {
	srv := newAuthServer(t, "t2")
	vol, cluster := hubVolume(t, kubeconfigWith(srv.URL, tokenUser("t1")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Connect(ctx, cluster, workAPI)
		done <- err
	}()
	require.Eventually(t, func() bool { return srv.requests() > 0 }, eventually, 10*time.Millisecond, "the probe was rejected")
	require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": kubeconfigWith(srv.URL, tokenUser("t2"))}))
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(eventually):
		t.Fatal("Connect did not return after the new credential")
	}
	assert.Equal(t, "t2", srv.last())

	// Cancelled while waiting, it returns an error.
	srv.revoke("t2")
	sent := srv.requests()
	ctx2, cancel2 := context.WithCancel(context.Background())
	go func() {
		_, err := Connect(ctx2, cluster, workAPI)
		done <- err
	}()
	require.Eventually(t, func() bool { return srv.requests() > sent }, eventually, 10*time.Millisecond)
	cancel2()
	select {
	case err := <-done:
		require.Error(t, err)
	case <-time.After(eventually):
		t.Fatal("Connect did not return when cancelled")
	}
}

// A changed kubeconfig that cannot be used leaves the previous credential in
// use: unparsable, or naming another server.
func TestUnusableKubeconfigKeepsThePreviousCredential(t *testing.T) {
	srv := newAuthServer(t, "t1")
	vol, cluster := hubVolume(t, kubeconfigWith(srv.URL, tokenUser("t1")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, err := Connect(ctx, cluster, workAPI)
	require.NoError(t, err)
	client, err := rest.HTTPClientFor(cfg)
	require.NoError(t, err)
	for i, bad := range [][]byte{[]byte("clusters: [this is: not: yaml"), kubeconfigWith("https://127.0.0.1:1", tokenUser("t2"))} {
		invalid := reloads(t, metrics.ReloadInvalid)
		require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": bad}), i)
		require.Eventually(t, func() bool { return reloads(t, metrics.ReloadInvalid) == invalid+1 }, eventually, 10*time.Millisecond, i)
		assert.Equal(t, http.StatusOK, get(t, client, cfg), i)
		assert.Equal(t, "t1", srv.last(), i)
	}
}

// At -v=6 a client built on the config logs each request once, as any
// client-go client does, although the credential's transport is client-go's
// too (with its own request logging), for a token and a client certificate.
func TestEachRequestIsLoggedOnce(t *testing.T) {
	var flags flag.FlagSet
	klog.InitFlags(&flags)
	require.NoError(t, flags.Set("v", "6"))
	t.Cleanup(func() { _ = flags.Set("v", "0") })
	for name, user := range map[string]string{"token": tokenUser("t1"), "client certificate": certUser(t, "c1")} {
		srv := newAuthServer(t, "t1", "cert:c1")
		_, cluster := hubVolume(t, kubeconfigWith(srv.URL, user))
		cfg, err := Connect(t.Context(), cluster, workAPI)
		require.NoError(t, err)
		client, err := rest.HTTPClientFor(cfg) // after -v=6, as a process's clients
		require.NoError(t, err)

		var log bytes.Buffer
		ctx := klog.NewContext(t.Context(), textlogger.NewLogger(textlogger.NewConfig(textlogger.Verbosity(6), textlogger.Output(&log))))
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cfg.Host+"/apis/"+workAPI.GroupVersion, nil)
		require.NoError(t, err)
		resp, err := client.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		require.NoError(t, resp.Body.Close())
		assert.Equal(t, 1, strings.Count(log.String(), `"Response" verb="GET"`), "%s: one request, one line:\n%s", name, log.String())
	}
}
