package diagnostics

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	k8smetrics "k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

func TestHandler(t *testing.T) {
	tests := []struct {
		name     string
		path     string
		ready    bool
		wantCode int
		wantBody string
	}{
		{"healthz while not ready", "/healthz", false, http.StatusOK, "ok\n"},
		{"healthz while ready", "/healthz", true, http.StatusOK, "ok\n"},
		{"readyz while not ready", "/readyz", false, http.StatusServiceUnavailable, "not ready\n"},
		{"readyz while ready", "/readyz", true, http.StatusOK, "ok\n"},
		{"unknown path", "/nope", true, http.StatusNotFound, "404 page not found\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Readiness
			r.Set(tt.ready)
			rec := httptest.NewRecorder()
			Handler(&r).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			assert.Equal(t, tt.wantCode, rec.Code)
			assert.Equal(t, tt.wantBody, rec.Body.String())
		})
	}
}

// /metrics serves the legacy registry in the Prometheus text format, with
// what is registered there (here a counter of this test).
func TestMetrics(t *testing.T) {
	counter := k8smetrics.NewCounter(&k8smetrics.CounterOpts{Name: "healthz_test_total", Help: "A counter of the test."})
	legacyregistry.MustRegister(counter)
	counter.Add(3)

	rec := httptest.NewRecorder()
	Handler(&Readiness{}, WithMetrics()).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Header().Get("Content-Type"), "text/plain")
	assert.Contains(t, rec.Body.String(), "\nhealthz_test_total 3\n")
}

func TestStartServesAndStops(t *testing.T) {
	var r Readiness
	s, err := Start("127.0.0.1:0", &r)
	require.NoError(t, err)
	url := "http://" + s.Addr()

	assert.Equal(t, http.StatusServiceUnavailable, get(t, url+"/readyz"))
	r.Set(true)
	assert.Equal(t, http.StatusOK, get(t, url+"/readyz"))
	assert.Equal(t, http.StatusOK, get(t, url+"/healthz"))

	s.Stop()
	_, err = http.Get(url + "/healthz")
	assert.Error(t, err, "the server no longer listens after Stop")
}

func TestStartReportsBusyPort(t *testing.T) {
	first, err := Start("127.0.0.1:0", &Readiness{})
	require.NoError(t, err)
	defer first.Stop()

	_, err = Start(first.Addr(), &Readiness{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `health probe address "`+first.Addr()+`"`)
	assert.Contains(t, err.Error(), "address already in use")
}

func TestDisabled(t *testing.T) {
	for _, addr := range []string{Disabled, ""} {
		s, err := Start(addr, &Readiness{})
		require.NoError(t, err)
		assert.Empty(t, s.Addr())
		s.Stop()
	}
}

func get(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

func TestValidateAddress(t *testing.T) {
	tests := []struct {
		addr    string
		wantErr string
	}{
		{"0", ""},
		{":8081", ""},
		{"127.0.0.1:0", ""},
		{"[::1]:9000", ""},
		{"", `--health-probe-bind-address "": want host:port, :port or 0 to disable`},
		{"8081", `--health-probe-bind-address "8081": want host:port, :port or 0 to disable`},
		{":http", `--health-probe-bind-address ":http": invalid port "http"`},
		{":70000", `--health-probe-bind-address ":70000": invalid port "70000"`},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			err := ValidateAddress("--health-probe-bind-address", tt.addr)
			if tt.wantErr == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tt.wantErr)
			}
		})
	}
}

func TestProfilingOnlyWhenAsked(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler(&Readiness{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/debug/pprof/", nil))
	assert.Equal(t, http.StatusNotFound, rec.Code)

	rec = httptest.NewRecorder()
	Handler(&Readiness{}, WithProfiling()).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/debug/pprof/", nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Body.String(), "heap")
}

// The secure variant serves the same endpoints over HTTPS with a
// self-signed certificate made in memory.
func TestStartTLSWithSelfSignedCertificate(t *testing.T) {
	cert, err := SelfSigned("work-agent")
	require.NoError(t, err)
	assert.Contains(t, cert.Leaf.DNSNames, "localhost")
	var r Readiness
	r.Set(true)
	s, err := StartOn("secure address (--listen)", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, &r, WithMetrics())
	require.NoError(t, err)
	defer s.Stop()

	pool := x509.NewCertPool()
	pool.AddCert(cert.Leaf)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		resp, err := client.Get("https://" + s.Addr() + path)
		require.NoError(t, err, path)
		_ = resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
	}
	assert.Equal(t, http.StatusBadRequest, get(t, "http://"+s.Addr()+"/healthz"), "no plain HTTP on the secure address")

	_, err = StartOn("secure address (--listen)", s.Addr(), &tls.Config{Certificates: []tls.Certificate{cert}}, &r)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `secure address (--listen) "`+s.Addr()+`": `)
}
