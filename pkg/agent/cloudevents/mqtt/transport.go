package mqtt

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	mqttbinding "github.com/cloudevents/sdk-go/protocol/mqtt_paho/v2"
	"github.com/cloudevents/sdk-go/v2/binding"
	cecontext "github.com/cloudevents/sdk-go/v2/context"
	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/packets"
	"github.com/eclipse/paho.golang/paho"
	"go.uber.org/zap"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
)

// subscribeTimeout bounds the wait for a SUBACK; a broker that does not
// answer in time gets its connection dropped, and the transport tries again.
const subscribeTimeout = 30 * time.Second

// shutdownTimeout bounds the clean DISCONNECT when Run's context ends.
const shutdownTimeout = 5 * time.Second

// Transport is the agent's MQTT transport: one MQTT 5 client that
// subscribes to the agent's spec and broadcast topics and publishes to its
// status and resync topics. It implements cloudevents.Transport.
type Transport struct {
	cfg          *Config
	topics       AgentTopics
	mqttClientID string
	tls          *tls.Config
	delay        func() time.Duration
	certs        *cloudevents.CertReloader // nil unless the client certificate is in files
	followCerts  bool                      // reconnect when the certificate files hold a renewed one

	// everUp is set once a first connection came up: from then on, even
	// the first attempt of a reconnect waits for the backoff, as OCM's
	// agent waits before it reconnects.
	everUp  atomic.Bool
	running atomic.Bool

	mu    sync.Mutex
	cm    *autopaho.ConnectionManager
	conn  net.Conn // the current network connection, closed to force a reconnect
	gen   uint64   // counts connections that came up
	up    bool     // a connection is up (maybe not subscribed yet)
	ready bool     // the connection of gen is subscribed: Publish may send
}

var _ cloudevents.Transport = (*Transport)(nil)

// Option changes how New builds a Transport.
type Option func(*Transport)

// WithBackoff replaces OCM's reconnect backoff
// (cloudevents.NewReconnectDelay) with delay, which is asked for the wait
// before each reconnect attempt. Tests use it to reconnect fast.
func WithBackoff(delay func() time.Duration) Option {
	return func(t *Transport) { t.delay = delay }
}

// New builds the MQTT transport of the agent of cluster clusterName, with
// the MQTT client id "<clientID>-client" (clientID is the agent's
// --cloudevents-client-id). It does not connect: Run does.
func New(cfg *Config, clusterName, clientID string, opts ...Option) (*Transport, error) {
	if cfg == nil {
		return nil, fmt.Errorf("MQTT transport: no config")
	}
	if clientID == "" {
		return nil, fmt.Errorf("MQTT transport: the CloudEvents client id is required")
	}
	topics, err := ResolveAgentTopics(cfg.Topics, clusterName)
	if err != nil {
		return nil, cfg.errorf("%w", err)
	}
	tlsCfg, certs, err := cfg.tlsConfig()
	if err != nil {
		return nil, cfg.errorf("%w", err)
	}
	t := &Transport{
		cfg:          cfg,
		topics:       topics,
		mqttClientID: clientID + "-client",
		tls:          tlsCfg,
		certs:        certs,
		followCerts:  certs != nil,
		delay:        cloudevents.NewReconnectDelay(clock.RealClock{}),
	}
	for _, o := range opts {
		o(t)
	}
	return t, nil
}

// Address is brokerHost as the config file writes it.
func (t *Transport) Address() string { return t.cfg.BrokerHost }

// Topics are the agent's resolved topics.
func (t *Transport) Topics() AgentTopics { return t.topics }

// ClientID is the MQTT client id the transport connects with.
func (t *Transport) ClientID() string { return t.mqttClientID }

// Run connects and stays connected until ctx ends; see
// cloudevents.Transport. When ctx ends while the Handler knows the
// transport as connected, it hears Disconnected(ctx.Err()) before Run
// returns. A Transport runs once: a second Run logs an error and only
// waits for its context.
func (t *Transport) Run(ctx context.Context, h cloudevents.Handler) {
	log := klog.FromContext(ctx).WithValues("broker", t.cfg.BrokerHost, "mqttClientID", t.mqttClientID)
	if !t.running.CompareAndSwap(false, true) {
		log.Error(nil, "The MQTT transport runs already; this Run does nothing")
		<-ctx.Done()
		return
	}
	ctx = klog.NewContext(ctx, log)
	// The CloudEvents SDK logs through zap, in JSON of its own; none of
	// what this transport calls should log, and if it did, it stays quiet.
	ctx = cecontext.WithLogger(ctx, zap.NewNop().Sugar())

	in := &inbox{signal: make(chan struct{}, 1)}
	var background sync.WaitGroup
	defer background.Wait()
	delivered := make(chan struct{})
	background.Go(func() {
		defer close(delivered)
		t.deliver(ctx, h, in)
	})
	if t.certs != nil && t.followCerts {
		background.Go(func() { t.certs.Follow(ctx, func() { t.certificateRenewed(ctx) }) })
	}

	cm, err := autopaho.NewConnection(ctx, t.clientConfig(ctx, in))
	if err != nil {
		// Only a config without a server URL fails here, and ours has one.
		log.Error(err, "Cannot start the MQTT client")
		<-ctx.Done()
		<-delivered
		return
	}
	t.mu.Lock()
	t.cm = cm
	t.mu.Unlock()
	log.V(2).Info("MQTT transport started", "spec", t.topics.Spec, "broadcast", t.topics.Broadcast,
		"status", t.topics.Status, "resync", t.topics.Resync)
	<-ctx.Done()
	t.shutdown(ctx, cm, delivered)
}

// clientConfig is autopaho's configuration of the connection: its
// callbacks push what happens into in, in order, for deliver.
func (t *Transport) clientConfig(ctx context.Context, in *inbox) autopaho.ClientConfig {
	log := klog.FromContext(ctx)
	why := &dropReason{}
	return autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{{Scheme: "tcp", Host: t.cfg.BrokerHost}},
		KeepAlive:                     t.cfg.KeepAlive,
		CleanStartOnInitialConnection: true,
		ReconnectBackoff:              t.reconnectDelay,
		ConnectTimeout:                t.cfg.DialTimeout,
		AttemptConnection:             t.dial,
		ConnectUsername:               t.cfg.Username,
		ConnectPassword:               []byte(t.cfg.Password),
		// OCM's agent starts clean on every connection, not only the
		// first: the broker keeps no session across reconnects.
		ConnectPacketBuilder: func(cp *paho.Connect, _ *url.URL) (*paho.Connect, error) {
			cp.CleanStart = true
			return cp, nil
		},
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			why.take()
			in.push(item{kind: itemUp, gen: t.connectionUp(cm)})
		},
		OnConnectionDown: func() bool {
			t.connectionDown()
			in.push(item{kind: itemDown, err: why.take()})
			return true
		},
		OnConnectError: func(err error) {
			log.Error(err, "Cannot connect to the MQTT broker; trying again")
		},
		ClientConfig: paho.ClientConfig{
			ClientID: t.mqttClientID,
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){
				func(pr paho.PublishReceived) (bool, error) {
					in.push(item{kind: itemMessage, pub: pr.Packet})
					return true, nil
				},
			},
			OnClientError:      why.note,
			OnServerDisconnect: func(d *paho.Disconnect) { why.note(serverDisconnect(d)) },
		},
	}
}

// dropReason is why the current connection dropped: the first error heard
// since it came up.
type dropReason struct {
	mu  sync.Mutex
	err error
}

func (r *dropReason) note(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// take returns the reason, or a connection lost when none was heard, and
// forgets it for the next connection.
func (r *dropReason) take() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.err
	r.err = nil
	if err == nil {
		err = errors.New("connection to the broker lost")
	}
	return err
}

func serverDisconnect(d *paho.Disconnect) error {
	reason := ""
	if d.Properties != nil {
		reason = d.Properties.ReasonString
	}
	return fmt.Errorf("the broker disconnected: reason code %d %s", d.ReasonCode, reason)
}

// shutdown disconnects cleanly once Run's context ended, and waits for the
// Handler to have heard the last of it.
func (t *Transport) shutdown(ctx context.Context, cm *autopaho.ConnectionManager, delivered <-chan struct{}) {
	stopCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := cm.Disconnect(stopCtx); err != nil {
		klog.FromContext(ctx).Error(err, "The MQTT client did not stop in time")
	}
	<-delivered
	t.mu.Lock()
	t.up, t.ready = false, false
	t.mu.Unlock()
}

// connectionUp records a new connection and returns its generation.
func (t *Transport) connectionUp(cm *autopaho.ConnectionManager) uint64 {
	t.everUp.Store(true)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cm = cm
	t.gen++
	t.up = true
	return t.gen
}

// connectionDown records that the connection dropped: Publish fails from
// now on, before the Handler hears of it.
func (t *Transport) connectionDown() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.up, t.ready = false, false
	t.conn = nil
}

func (t *Transport) reconnectDelay(attempt int) time.Duration {
	if attempt == 0 && !t.everUp.Load() {
		return 0
	}
	return t.delay()
}

// dial opens the network connection, with TLS when the config has a client
// certificate; autopaho's own dialer has no dial timeout of its own and
// would not let us close the connection.
func (t *Transport) dial(ctx context.Context, _ autopaho.ClientConfig, _ *url.URL) (net.Conn, error) {
	nd := &net.Dialer{Timeout: t.cfg.DialTimeout}
	var conn net.Conn
	var err error
	if t.tls != nil {
		conn, err = (&tls.Dialer{NetDialer: nd, Config: t.tls}).DialContext(ctx, "tcp", t.cfg.BrokerHost)
	} else {
		conn, err = nd.DialContext(ctx, "tcp", t.cfg.BrokerHost)
	}
	if err != nil {
		return nil, err
	}
	safe := packets.NewThreadSafeConn(conn)
	t.mu.Lock()
	t.conn = safe
	t.mu.Unlock()
	return safe, nil
}

// certificateRenewed drops the connection, so that the next one presents
// the renewed client certificate, as OCM's agent does.
func (t *Transport) certificateRenewed(ctx context.Context) {
	t.mu.Lock()
	gen := t.gen
	t.mu.Unlock()
	klog.FromContext(ctx).Info("The client certificate was renewed; reconnecting with it", "certFile", t.cfg.ClientCertFile)
	t.dropConnection(gen)
}

// dropConnection closes the connection of generation gen, if it is still
// the current one; autopaho then reconnects after the backoff.
func (t *Transport) dropConnection(gen uint64) {
	t.mu.Lock()
	conn := t.conn
	current := t.gen == gen && t.up
	t.mu.Unlock()
	if current && conn != nil {
		_ = conn.Close()
	}
}

// deliver is the one goroutine that calls the Handler, in the order things
// arrived, until ctx ends.
func (t *Transport) deliver(ctx context.Context, h cloudevents.Handler, in *inbox) {
	log := klog.FromContext(ctx)
	handlerUp := false
	for {
		it, ok := in.pop(ctx)
		if !ok {
			break
		}
		switch it.kind {
		case itemUp:
			if t.subscribe(ctx, it.gen) {
				handlerUp = true
				log.Info("Connected to the MQTT broker")
				h.Connected(ctx)
			}
		case itemDown:
			if handlerUp {
				handlerUp = false
				log.Info("Disconnected from the MQTT broker", "err", it.err.Error())
				h.Disconnected(it.err)
			}
		case itemMessage:
			e, err := toEvent(it.pub)
			if err != nil {
				h.Malformed(fmt.Errorf("MQTT message on topic %q: %w", it.pub.Topic, err))
				continue
			}
			h.Receive(ctx, *e)
		}
	}
	if handlerUp {
		h.Disconnected(ctx.Err())
	}
}

// subscribe subscribes the connection of generation gen to the agent's
// topics and reports whether it did; Publish may send from then on. On a
// failure it drops the connection, so that autopaho tries again.
func (t *Transport) subscribe(ctx context.Context, gen uint64) bool {
	t.mu.Lock()
	cm, current := t.cm, t.gen == gen && t.up
	t.mu.Unlock()
	if !current {
		return false // dropped already; its down item follows
	}
	sub := &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: t.topics.Spec, QoS: t.cfg.SubQoS}}}
	if t.topics.Broadcast != "" {
		sub.Subscriptions = append(sub.Subscriptions, paho.SubscribeOptions{Topic: t.topics.Broadcast, QoS: t.cfg.SubQoS})
	}
	subCtx, cancel := context.WithTimeout(ctx, subscribeTimeout)
	defer cancel()
	if suback, err := cm.Subscribe(subCtx, sub); err != nil {
		if ctx.Err() == nil {
			var reasons []int // one per topic; 0x80 and above is a refusal
			if suback != nil {
				for _, r := range suback.Reasons {
					reasons = append(reasons, int(r))
				}
			}
			klog.FromContext(ctx).Error(err, "Cannot subscribe to the agent's topics; reconnecting",
				"spec", t.topics.Spec, "broadcast", t.topics.Broadcast, "reasonCodes", reasons)
		}
		t.dropConnection(gen)
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen || !t.up {
		return false
	}
	t.ready = true
	return true
}

// toEvent reads a PUBLISH as a CloudEvent, in binary or structured mode.
func toEvent(pub *paho.Publish) (e *event.Event, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, fmt.Errorf("not a CloudEvent: the MQTT binding failed on it: %v", r)
		}
	}()
	if pub.Properties == nil {
		pub.Properties = &paho.PublishProperties{}
	}
	msg := mqttbinding.NewMessage(pub)
	if msg.ReadEncoding() == binding.EncodingUnknown {
		if v := pub.Properties.User.Get("ce-specversion"); v != "" {
			return nil, fmt.Errorf("not a CloudEvent: unknown CloudEvents spec version %q", v)
		}
		return nil, fmt.Errorf("not a CloudEvent: neither a ce-specversion user property (binary mode) nor a CloudEvents content type (structured mode; content type %q)",
			pub.Properties.ContentType)
	}
	e, err = binding.ToEvent(context.Background(), msg)
	if err != nil {
		return nil, fmt.Errorf("not a CloudEvent: %w", err)
	}
	if err := e.Validate(); err != nil {
		return nil, fmt.Errorf("not a valid CloudEvent: %w", err)
	}
	return e, nil
}

// Publish sends e to the topic its type calls for and returns once the
// broker took it (PUBACK at QoS 1). While the transport has no subscribed
// connection it fails at once with cloudevents.ErrDisconnected; nothing is
// queued. When the connection drops while an event is on its way, the
// error wraps ErrDisconnected: test it with errors.Is.
func (t *Transport) Publish(ctx context.Context, e event.Event) error {
	t.mu.Lock()
	cm, ready := t.cm, t.ready
	t.mu.Unlock()
	if !ready || cm == nil {
		return cloudevents.ErrDisconnected
	}
	if err := e.Validate(); err != nil {
		return fmt.Errorf("event %q: %w", e.ID(), err)
	}
	topic := t.topicFor(e)
	pub := &paho.Publish{QoS: t.cfg.PubQoS, Topic: topic}
	ctx = cecontext.WithLogger(ctx, zap.NewNop().Sugar())
	if err := mqttbinding.WritePubMessage(ctx, binding.ToMessage(&e), pub); err != nil {
		return fmt.Errorf("event %q: %w", e.ID(), err)
	}
	if _, err := cm.Publish(ctx, pub); err != nil {
		if errors.Is(err, autopaho.ConnectionDownError) || !t.isReady() {
			return fmt.Errorf("%w: publishing event %q to %s: %v", cloudevents.ErrDisconnected, e.ID(), topic, err)
		}
		return fmt.Errorf("publishing event %q to %s: %w", e.ID(), topic, err)
	}
	return nil
}

func (t *Transport) isReady() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ready
}

// topicFor is where e goes: a spec resync request to the resync topic,
// every other event to the status topic.
func (t *Transport) topicFor(e event.Event) string {
	if et, ok := cloudevents.ParseEventType(e.Type()); ok &&
		et.SubResource == cloudevents.SubResourceSpec && et.Action == cloudevents.ResyncRequest {
		return t.topics.Resync
	}
	return t.topics.Status
}

type itemKind int

const (
	itemUp itemKind = iota
	itemDown
	itemMessage
)

// item is one thing for the Handler: a connection up or down, or a message.
type item struct {
	kind itemKind
	gen  uint64
	err  error
	pub  *paho.Publish
}

// inbox is an unbounded FIFO between paho's callbacks, which must not
// block, and the one goroutine that calls the Handler. Unbounded, so that
// a Handler that publishes (and waits for a PUBACK that paho's reader
// delivers) never waits on a reader blocked by a full queue.
type inbox struct {
	mu     sync.Mutex
	items  []item
	signal chan struct{}
}

func (q *inbox) push(it item) {
	q.mu.Lock()
	q.items = append(q.items, it)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// pop returns the oldest item, waiting for one; ok is false once ctx ended.
func (q *inbox) pop(ctx context.Context) (it item, ok bool) {
	for {
		if ctx.Err() != nil {
			return item{}, false
		}
		q.mu.Lock()
		if len(q.items) > 0 {
			it = q.items[0]
			q.items[0] = item{}
			q.items = q.items[1:]
			q.mu.Unlock()
			return it, true
		}
		q.mu.Unlock()
		select {
		case <-q.signal:
		case <-ctx.Done():
			return item{}, false
		}
	}
}
