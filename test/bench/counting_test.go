//go:build linux

package bench

import (
	"io"
	"net/http"
	"sync"

	"k8s.io/client-go/rest"

	"github.com/manifestwork/work/test/framework"
)

// reqKey is how kube-apiserver labels a request in apiserver_request_total.
type reqKey = framework.RequestKey

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
	mu   sync.Mutex
	c    counts
	sent bodySizes // request bodies, as kube-apiserver labels them
}

func newCounter() *counter { return &counter{c: counts{}, sent: bodySizes{}} }

// body counts a request body of n bytes sent with a request of key k.
func (c *counter) body(k reqKey, n int64) {
	bk, ok := bodyKey(k)
	if !ok || n < 0 {
		return
	}
	c.mu.Lock()
	b := c.sent[bk]
	b.Bytes += float64(n)
	b.N++
	c.sent[bk] = b
	c.mu.Unlock()
}

// sentSnapshot returns a copy of the request bodies counted so far.
func (c *counter) sentSnapshot() bodySizes {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := bodySizes{}
	out.add(c.sent, 1)
	return out
}

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
// answer is not counted. The body of a write is counted with it, as the
// server's apiserver_request_body_size_bytes does.
type countingTransport struct {
	next http.RoundTripper
	c    *counter
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	key, ok := framework.ClassifyRequest(req.Method, req.URL, req.Header.Get("Content-Type"))
	resp, err := t.next.RoundTrip(req)
	if err != nil || !ok {
		return resp, err
	}
	if key.Verb == "WATCH" {
		resp.Body = &countOnClose{ReadCloser: resp.Body, done: func() { t.c.inc(key) }}
		return resp, nil
	}
	t.c.inc(key)
	t.c.body(key, req.ContentLength)
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
