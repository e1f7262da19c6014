package framework

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// Proxy forwards TCP connections to a target address until it is paused:
// then every open connection is cut and new ones are closed at once, as when
// the network between a process and its server fails. Resume restores it.
type Proxy struct {
	listener net.Listener
	target   string

	mu     sync.Mutex
	paused bool
	conns  map[net.Conn]struct{}
	// forwarded counts the connections forwarded so far.
	forwarded atomic.Int64
}

// StartProxy listens on a free loopback port and forwards to target.
func StartProxy(target string) (*Proxy, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{listener: l, target: target, conns: map[net.Conn]struct{}{}}
	go p.serve()
	return p, nil
}

// Addr is the address to connect to instead of the target.
func (p *Proxy) Addr() string { return p.listener.Addr().String() }

// Forwarded is how many connections the proxy has forwarded to its target.
func (p *Proxy) Forwarded() int64 { return p.forwarded.Load() }

// Pause cuts every connection and refuses new ones until Resume.
func (p *Proxy) Pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = true
	for c := range p.conns {
		_ = c.Close()
	}
}

// Resume forwards connections again.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = false
}

// Close stops the proxy and cuts every connection.
func (p *Proxy) Close() {
	_ = p.listener.Close()
	p.Pause()
}

func (p *Proxy) serve() {
	for {
		client, err := p.listener.Accept()
		if err != nil {
			return // closed
		}
		go p.forward(client)
	}
}

func (p *Proxy) forward(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil || !p.track(client, server) {
		_ = client.Close()
		if server != nil {
			_ = server.Close()
		}
		return
	}
	p.forwarded.Add(1)
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(server, client)
	go pipe(client, server)
	<-done
	p.untrack(client, server)
}

// track registers a live pair, unless the proxy is paused.
func (p *Proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused {
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

// untrack closes and forgets a pair once either side is done.
func (p *Proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
		delete(p.conns, c)
	}
}
