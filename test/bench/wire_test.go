//go:build linux

package bench

import (
	"fmt"
	"io"
	"net"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// wireProxy forwards TCP connections from an agent to its hub or broker
// and counts the bytes each way. With mqtt set it also reads the MQTT
// fixed header of every packet, to count packets by type.
type wireProxy struct {
	listener net.Listener
	target   string
	mqtt     bool

	mu   sync.Mutex
	n    wireCount
	conn map[net.Conn]struct{}
}

// wireCount is what went through a proxy: Up from the agent, Down to it.
type wireCount struct {
	Up          int64          `json:"upBytes"`
	Down        int64          `json:"downBytes"`
	UpPackets   map[string]int `json:"upPackets,omitempty"`
	DownPackets map[string]int `json:"downPackets,omitempty"`
}

func (w wireCount) total() int64 { return w.Up + w.Down }

// minus is what went through between the snapshot o and w.
func (w wireCount) minus(o wireCount) wireCount {
	sub := func(a, b map[string]int) map[string]int {
		out := map[string]int{}
		for k, v := range a {
			if d := v - b[k]; d != 0 {
				out[k] = d
			}
		}
		return out
	}
	return wireCount{Up: w.Up - o.Up, Down: w.Down - o.Down, UpPackets: sub(w.UpPackets, o.UpPackets), DownPackets: sub(w.DownPackets, o.DownPackets)}
}

// startWireProxy listens on a free loopback port and forwards to target.
func startWireProxy(target string, mqtt bool) (*wireProxy, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &wireProxy{listener: l, target: target, mqtt: mqtt, conn: map[net.Conn]struct{}{},
		n: wireCount{UpPackets: map[string]int{}, DownPackets: map[string]int{}}}
	go p.serve()
	return p, nil
}

// addr is where the agent connects instead of the target.
func (p *wireProxy) addr() string { return p.listener.Addr().String() }

// snapshot copies the counts so far.
func (p *wireProxy) snapshot() wireCount {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n.minus(wireCount{})
}

// close stops listening and cuts every connection.
func (p *wireProxy) close() {
	_ = p.listener.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conn {
		_ = c.Close()
	}
}

func (p *wireProxy) serve() {
	for {
		client, err := p.listener.Accept()
		if err != nil {
			return // closed
		}
		go p.forward(client)
	}
}

func (p *wireProxy) forward(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = client.Close()
		return
	}
	p.mu.Lock()
	p.conn[client], p.conn[server] = struct{}{}, struct{}{}
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { p.pipe(server, client, true); done <- struct{}{} }()
	go func() { p.pipe(client, server, false); done <- struct{}{} }()
	<-done
	p.mu.Lock()
	for _, c := range []net.Conn{client, server} {
		_ = c.Close()
		delete(p.conn, c)
	}
	p.mu.Unlock()
	<-done
}

// pipe copies src to dst, counting each read before it is written on, so
// that what the far end has received is counted already.
func (p *wireProxy) pipe(dst, src net.Conn, up bool) {
	var scan *mqttScanner
	if p.mqtt {
		scan = &mqttScanner{}
	}
	buf := make([]byte, 32*1024)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.count(buf[:n], up, scan)
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return // io.EOF or a closed connection
		}
	}
}

func (p *wireProxy) count(b []byte, up bool, scan *mqttScanner) {
	p.mu.Lock()
	defer p.mu.Unlock()
	packets := p.n.DownPackets
	if up {
		p.n.Up += int64(len(b))
		packets = p.n.UpPackets
	} else {
		p.n.Down += int64(len(b))
	}
	if scan != nil {
		scan.feed(b, func(kind byte) { packets[mqttPacketName(kind)]++ })
	}
}

// mqttScanner follows one direction of an MQTT connection: each packet is
// a fixed header (type in the high nibble of the first byte, then the
// remaining length in one to four bytes of seven bits, low first) and that
// many bytes more.
type mqttScanner struct {
	state  int // 0: first byte next, 1: in the remaining length, 2: in the rest
	kind   byte
	length int
	shift  uint
	left   int
	broken bool
}

// feed reads b and calls done with the type of every packet it completes.
func (s *mqttScanner) feed(b []byte, done func(kind byte)) {
	for i := 0; i < len(b) && !s.broken; {
		switch s.state {
		case 0:
			s.kind, s.length, s.shift, s.state = b[i]>>4, 0, 0, 1
			i++
		case 1:
			c := b[i]
			i++
			s.length |= int(c&0x7f) << s.shift
			s.shift += 7
			switch {
			case c&0x80 != 0 && s.shift >= 28:
				s.broken = true // more than four bytes: not MQTT
			case c&0x80 == 0 && s.length == 0:
				done(s.kind)
				s.state = 0
			case c&0x80 == 0:
				s.left, s.state = s.length, 2
			}
		case 2:
			n := min(s.left, len(b)-i)
			i += n
			if s.left -= n; s.left == 0 {
				done(s.kind)
				s.state = 0
			}
		}
	}
}

var mqttPacketNames = [...]string{"RESERVED", "CONNECT", "CONNACK", "PUBLISH", "PUBACK", "PUBREC", "PUBREL", "PUBCOMP",
	"SUBSCRIBE", "SUBACK", "UNSUBSCRIBE", "UNSUBACK", "PINGREQ", "PINGRESP", "DISCONNECT", "AUTH"}

func mqttPacketName(kind byte) string {
	if int(kind) < len(mqttPacketNames) {
		return mqttPacketNames[kind]
	}
	return fmt.Sprintf("type%d", kind)
}

// isKeepAlive tells the MQTT packets of the keep-alive alone.
func isKeepAlive(name string) bool { return name == "PINGREQ" || name == "PINGRESP" }

func TestMQTTScanner(t *testing.T) {
	// PINGREQ, a PUBLISH of 200 bytes after its header (a two-byte remaining
	// length: 200 = 0xC8 0x01), a PUBACK of 2; fed in every split.
	publish := append([]byte{0x32, 0xC8, 0x01}, make([]byte, 200)...)
	stream := append(append([]byte{0xC0, 0x00}, publish...), 0x40, 0x02, 0x00, 0x01)
	for cut := range len(stream) + 1 {
		s := &mqttScanner{}
		var got []string
		done := func(k byte) { got = append(got, mqttPacketName(k)) }
		s.feed(stream[:cut], done)
		s.feed(stream[cut:], done)
		if !assert.Equal(t, []string{"PINGREQ", "PUBLISH", "PUBACK"}, got, "split at %d", cut) {
			return
		}
	}
	s := &mqttScanner{}
	s.feed([]byte{0x30, 0xff, 0xff, 0xff, 0xff, 0x01}, func(byte) { t.Error("a packet from a malformed length") })
	assert.True(t, s.broken)
}

// The proxy counts what it forwards both ways, and MQTT packets by type.
func TestWireProxy(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer func() { _ = c.Close() }()
		buf := make([]byte, 2)
		if _, err := io.ReadFull(c, buf); err == nil {
			_, _ = c.Write([]byte{0xD0, 0x00}) // PINGRESP
		}
	}()
	p, err := startWireProxy(l.Addr().String(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	before := p.snapshot()
	c, err := net.Dial("tcp", p.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	_, err = c.Write([]byte{0xC0, 0x00}) // PINGREQ
	assert.NoError(t, err)
	buf := make([]byte, 2)
	_, err = io.ReadFull(c, buf)
	assert.NoError(t, err)
	got := p.snapshot().minus(before)
	assert.Equal(t, wireCount{Up: 2, Down: 2, UpPackets: map[string]int{"PINGREQ": 1}, DownPackets: map[string]int{"PINGRESP": 1}}, got)
}
