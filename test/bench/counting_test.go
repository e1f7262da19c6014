//go:build linux

package bench

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/rest"
)

// reqKey is how kube-apiserver labels a request in apiserver_request_total.
type reqKey struct {
	Verb        string
	Resource    string
	Subresource string
}

func (k reqKey) String() string {
	if k.Subresource == "" {
		return k.Verb + " " + k.Resource
	}
	return k.Verb + " " + k.Resource + "/" + k.Subresource
}

// counts are requests by key.
type counts map[reqKey]int

func (c counts) add(o counts, sign int) {
	for k, n := range o {
		c[k] += sign * n
	}
}

// counter counts the requests this process sends to one cluster, so that
// they can be taken out of the kube-apiserver's totals.
type counter struct {
	mu sync.Mutex
	c  counts
}

func newCounter() *counter { return &counter{c: counts{}} }

func (c *counter) inc(k reqKey) {
	c.mu.Lock()
	c.c[k]++
	c.mu.Unlock()
}

// snapshot returns a copy of the counts so far.
func (c *counter) snapshot() counts {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(counts, len(c.c))
	for k, n := range c.c {
		out[k] = n
	}
	return out
}

// config returns a copy of base whose requests are counted, with limits high
// enough that the bench itself is never what is measured.
func (c *counter) config(base *rest.Config) *rest.Config {
	config := rest.CopyConfig(base)
	config.QPS, config.Burst = 500, 1000
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &countingTransport{next: rt, c: c} })
	return config
}

// countingTransport counts a request when kube-apiserver would: a plain
// request once its answer arrives, a watch when it ends (the server records
// a watch in apiserver_request_total only then). A request that got no
// answer is not counted.
type countingTransport struct {
	next http.RoundTripper
	c    *counter
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	key, ok := classify(req.Method, req.URL, req.Header.Get("Content-Type"))
	resp, err := t.next.RoundTrip(req)
	if err != nil || !ok {
		return resp, err
	}
	if key.Verb == "WATCH" {
		resp.Body = &countOnClose{ReadCloser: resp.Body, done: func() { t.c.inc(key) }}
		return resp, nil
	}
	t.c.inc(key)
	return resp, nil
}

// countOnClose counts a watch once, when its body is closed.
type countOnClose struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *countOnClose) Close() error {
	b.once.Do(b.done)
	return b.ReadCloser.Close()
}

// classify maps a request to the verb, resource and subresource that
// kube-apiserver reports for it; ok is false for non-resource paths.
func classify(method string, u *url.URL, contentType string) (reqKey, bool) {
	resource, name, sub, ok := parseResourcePath(u.Path)
	if !ok {
		return reqKey{}, false
	}
	verb := method
	switch method {
	case http.MethodGet:
		switch {
		case isTrue(u.Query().Get("watch")):
			verb = "WATCH"
		case name == "":
			verb = "LIST"
		}
	case http.MethodPatch:
		if strings.HasPrefix(contentType, "application/apply-patch") {
			verb = "APPLY"
		}
	case http.MethodDelete:
		if name == "" {
			verb = "DELETECOLLECTION"
		}
	}
	return reqKey{Verb: verb, Resource: resource, Subresource: sub}, true
}

func isTrue(s string) bool { return s == "true" || s == "1" }

// parseResourcePath splits /api/v1/... and /apis/<group>/<version>/... into
// resource, name and subresource, with or without a namespace.
func parseResourcePath(path string) (resource, name, sub string, ok bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		parts = parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		parts = parts[3:]
	default:
		return "", "", "", false
	}
	// /namespaces/<ns>/<resource>/... is namespaced; /namespaces[/<ns>] is the namespace itself.
	if len(parts) >= 3 && parts[0] == "namespaces" {
		parts = parts[2:]
	}
	resource = parts[0]
	if len(parts) > 1 {
		name = parts[1]
	}
	if len(parts) > 2 {
		sub = parts[2]
	}
	return resource, name, sub, true
}

func TestClassify(t *testing.T) {
	cases := []struct {
		method, url, contentType string
		want                     string
	}{
		{"POST", "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks", "application/json", "POST manifestworks"},
		{"GET", "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks?limit=500", "", "LIST manifestworks"},
		{"GET", "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks?watch=true&resourceVersion=1", "", "WATCH manifestworks"},
		{"GET", "/api/v1/namespaces/bench/configmaps/cm", "", "GET configmaps"},
		{"PATCH", "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks/w/status", "application/merge-patch+json", "PATCH manifestworks/status"},
		{"PATCH", "/api/v1/namespaces/bench/configmaps/cm", "application/apply-patch+yaml", "APPLY configmaps"},
		{"PUT", "/apis/work.open-cluster-management.io/v1/appliedmanifestworks/a", "application/json", "PUT appliedmanifestworks"},
		{"DELETE", "/api/v1/namespaces/bench/configmaps", "", "DELETECOLLECTION configmaps"},
		{"POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", "application/json", "POST subjectaccessreviews"},
		{"GET", "/api/v1/namespaces/bench", "", "GET namespaces"},
		{"GET", "/api/v1/namespaces", "", "LIST namespaces"},
	}
	for _, tc := range cases {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		k, ok := classify(tc.method, u, tc.contentType)
		if !ok || k.String() != tc.want {
			t.Errorf("%s %s = %q %v, want %q", tc.method, tc.url, k, ok, tc.want)
		}
	}
	for _, path := range []string{"/metrics", "/readyz", "/apis", "/api", "/openapi/v2"} {
		if _, ok := classify("GET", &url.URL{Path: path}, ""); ok {
			t.Errorf("%s is not a resource request", path)
		}
	}
}
