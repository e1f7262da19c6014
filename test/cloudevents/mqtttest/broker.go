// Package mqtttest runs an embedded MQTT broker (mochi) on 127.0.0.1 for
// tests: started on a free port, stopped and started again on the same
// address to play a broker that restarts empty.
package mqtttest

import (
	"crypto/tls"
	"io"
	"log/slog"
	"sort"
	"sync"
	"testing"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// Broker is an embedded MQTT broker that listens on one address of
// 127.0.0.1 for its whole life, across restarts.
type Broker struct {
	tb   testing.TB
	addr string
	opts options

	mu  sync.Mutex
	srv *mochi.Server
}

type options struct {
	username, password string
	denied             []string
	tls                *tls.Config
}

// Option changes what a Broker accepts.
type Option func(*options)

// WithUser accepts only clients that connect with this username and
// password; without it the broker accepts anyone.
func WithUser(username, password string) Option {
	return func(o *options) { o.username, o.password = username, password }
}

// WithDenied refuses every client both subscriptions and publications
// on the topics that match these filters.
func WithDenied(filters ...string) Option {
	return func(o *options) { o.denied = append(o.denied, filters...) }
}

// WithTLS serves TLS with cfg instead of plain TCP.
func WithTLS(cfg *tls.Config) Option {
	return func(o *options) { o.tls = cfg }
}

// StartBroker starts a broker that accepts anyone on 127.0.0.1:0 and
// returns its address and a function that stops it (also called at the
// test's end).
func StartBroker(tb testing.TB) (addr string, stop func()) {
	b := Start(tb)
	return b.Addr(), b.Stop
}

// Start starts a broker on a free port of 127.0.0.1; it stops at the end
// of the test.
func Start(tb testing.TB, opts ...Option) *Broker {
	tb.Helper()
	b := &Broker{tb: tb, addr: "127.0.0.1:0"}
	for _, o := range opts {
		o(&b.opts)
	}
	srv, err := b.serve()
	if err != nil {
		tb.Fatalf("starting the MQTT broker: %v", err)
	}
	b.srv = srv
	tb.Cleanup(b.Stop)
	return b
}

// Addr is host:port of the broker.
func (b *Broker) Addr() string { return b.addr }

// Clients lists the ids of the clients connected now; a stopped broker
// has none.
func (b *Broker) Clients() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.srv == nil {
		return nil
	}
	var ids []string
	for id, cl := range b.srv.Clients.GetAll() {
		if !cl.Closed() {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// Stop stops the broker and drops its clients; it forgets every session
// and subscription. Stopping a stopped broker does nothing.
func (b *Broker) Stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.srv != nil {
		_ = b.srv.Close()
		b.srv = nil
	}
}

// Restart stops the broker if it runs and starts an empty one on the same
// address.
func (b *Broker) Restart() {
	b.tb.Helper()
	b.Stop()
	b.mu.Lock()
	defer b.mu.Unlock()
	// The port was ours a moment ago; give the kernel a little while if
	// it still holds it.
	retry := time.NewTicker(50 * time.Millisecond)
	defer retry.Stop()
	deadline := time.Now().Add(10 * time.Second)
	for {
		srv, err := b.serve()
		if err == nil {
			b.srv = srv
			return
		}
		if time.Now().After(deadline) {
			b.tb.Fatalf("restarting the MQTT broker on %s: %v", b.addr, err)
		}
		<-retry.C
	}
}

// ledger holds the rules of WithUser and WithDenied.
func (b *Broker) ledger() *auth.Ledger {
	rule := auth.AuthRule{Allow: true} // anyone, unless WithUser
	if b.opts.username != "" {
		rule.Username, rule.Password = auth.RString(b.opts.username), auth.RString(b.opts.password)
	}
	l := &auth.Ledger{Auth: auth.AuthRules{rule}}
	if len(b.opts.denied) > 0 {
		filters := auth.Filters{}
		for _, f := range b.opts.denied {
			filters[auth.RString(f)] = auth.Deny
		}
		l.ACL = auth.ACLRules{{Filters: filters}}
	}
	return l
}

// serve starts a server on b.addr and records the address it got.
func (b *Broker) serve() (*mochi.Server, error) {
	srv := mochi.New(&mochi.Options{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	var err error
	if b.opts.username == "" && len(b.opts.denied) == 0 {
		err = srv.AddHook(new(auth.AllowHook), nil)
	} else {
		err = srv.AddHook(new(auth.Hook), &auth.Options{Ledger: b.ledger()})
	}
	if err != nil {
		return nil, err
	}
	l := listeners.NewTCP(listeners.Config{ID: "tcp", Address: b.addr, TLSConfig: b.opts.tls})
	if err := srv.AddListener(l); err != nil {
		_ = srv.Close()
		return nil, err
	}
	if err := srv.Serve(); err != nil {
		_ = srv.Close()
		return nil, err
	}
	b.addr = l.Address()
	return srv, nil
}
