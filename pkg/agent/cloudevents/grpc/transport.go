package grpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	grpclib "google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"k8s.io/klog/v2"
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
)

// Backoff is the wait between two connection attempts: Initial at first,
// times Factor after each failure up to Max, each wait stretched by up to
// Jitter of itself at random. After ResetAfter without a wait it starts
// from Initial again.
type Backoff struct {
	Initial    time.Duration
	Max        time.Duration
	Factor     float64
	Jitter     float64
	ResetAfter time.Duration
}

// DefaultBackoff is OCM's reconnect backoff: 5 s first, growing to a minute,
// plus up to as much again of jitter; reset after ten quiet minutes.
var DefaultBackoff = Backoff{Initial: 5 * time.Second, Max: time.Minute, Factor: 5, Jitter: 1, ResetAfter: 10 * time.Minute}

// backoffState walks through a Backoff.
type backoffState struct {
	b     Backoff
	next  time.Duration
	last  time.Time
	now   func() time.Time
	float func() float64
}

func (s *backoffState) delay() time.Duration {
	now := s.now()
	if s.next == 0 || (s.b.ResetAfter > 0 && now.Sub(s.last) > s.b.ResetAfter) {
		s.next = s.b.Initial
	}
	s.last = now
	d := s.next
	if grown := time.Duration(float64(s.next) * s.b.Factor); grown > s.next {
		s.next = min(grown, s.b.Max)
	}
	if s.b.Jitter > 0 {
		d += time.Duration(s.float() * s.b.Jitter * float64(d))
	}
	return d
}

// MaxMessageSize is the largest message the transport sends or takes:
// gRPC's default of 4 MiB raised, so that an event with too large a work
// still arrives and the Hub can say what is wrong with it. A larger one ends
// the subscription (gRPC cannot skip a message), and the error says why.
const MaxMessageSize = 64 << 20

// Option changes a Transport made by New.
type Option func(*Transport)

// WithBackoff replaces DefaultBackoff, so that tests reconnect fast.
func WithBackoff(b Backoff) Option { return func(t *Transport) { t.backoff = b } }

// WithHeaderWait sets how long a new subscription waits for the server's
// response headers before it counts as up (default 2 s). OCM's servers
// from v1.2 send them at once; older ones only with their first event, so
// the subscription counts as up after this wait if the call has not failed.
func WithHeaderWait(d time.Duration) Option { return func(t *Transport) { t.headerWait = d } }

// WithCertReload sets how often a client certificate read from files is
// read again (default 5 minutes, as in OCM). When it changed, the
// subscription is dropped and made again with the new certificate.
func WithCertReload(d time.Duration) Option { return func(t *Transport) { t.certReload = d } }

// Transport is the agent's gRPC transport: one subscription to the server
// for the agent's cluster and the manifestbundles data type, and a Publish
// call per event the agent sends.
type Transport struct {
	cfg         *Config
	clusterName string
	clientID    string
	dialOptions []grpclib.DialOption
	backoff     Backoff
	headerWait  time.Duration
	certReload  time.Duration

	mu   sync.Mutex
	conn *grpclib.ClientConn // the connection of the live subscription; nil without one
}

var _ cloudevents.Transport = (*Transport)(nil)

// New makes the transport of cfg for the agent of clusterName; clientID is
// the agent's --cloudevents-client-id, used in its logs. It checks cfg and
// builds the TLS config, but does not connect: Run does.
func New(cfg *Config, clusterName, clientID string, opts ...Option) (*Transport, error) {
	if cfg == nil {
		return nil, errors.New("gRPC transport: no config")
	}
	if clusterName == "" {
		return nil, errors.New("gRPC transport: no cluster name")
	}
	if err := cfg.Validate(); err != nil {
		return nil, configError(cfg, err)
	}
	t := &Transport{
		cfg:         cfg,
		clusterName: clusterName,
		clientID:    clientID,
		backoff:     DefaultBackoff,
		headerWait:  2 * time.Second,
		certReload:  5 * time.Minute,
	}
	for _, o := range opts {
		o(t)
	}
	t.dialOptions = []grpclib.DialOption{grpclib.WithDefaultCallOptions(
		grpclib.ForceCodec(Codec{}),
		grpclib.MaxCallRecvMsgSize(MaxMessageSize),
		grpclib.MaxCallSendMsgSize(MaxMessageSize),
	)}
	if cfg.UseTLS() {
		tc, err := cfg.tlsConfig()
		if err != nil {
			return nil, configError(cfg, err)
		}
		t.dialOptions = append(t.dialOptions, grpclib.WithTransportCredentials(credentials.NewTLS(tc)))
		if cfg.Token != "" {
			t.dialOptions = append(t.dialOptions, grpclib.WithPerRPCCredentials(bearer(cfg.Token)))
		}
	} else {
		t.dialOptions = append(t.dialOptions, grpclib.WithTransportCredentials(insecure.NewCredentials()))
	}
	if ka := cfg.KeepAlive; ka.Enable {
		t.dialOptions = append(t.dialOptions, grpclib.WithKeepaliveParams(keepalive.ClientParameters{
			Time:                ka.Time,
			Timeout:             ka.Timeout,
			PermitWithoutStream: ka.PermitWithoutStream,
		}))
	}
	return t, nil
}

func configError(cfg *Config, err error) error {
	if cfg.Path != "" {
		return fmt.Errorf("gRPC config %s: %w", cfg.Path, err)
	}
	return fmt.Errorf("gRPC config: %w", err)
}

// bearer is the per-call credential of a token: "authorization: Bearer
// <token>", over TLS only.
type bearer string

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}

func (bearer) RequireTransportSecurity() bool { return true }

// Address is the config file's url, verbatim.
func (t *Transport) Address() string { return t.cfg.URL }

// Run keeps one subscription up until ctx ends; see cloudevents.Transport.
func (t *Transport) Run(ctx context.Context, h cloudevents.Handler) {
	logger := klog.FromContext(ctx).WithValues("url", t.cfg.URL, "cluster", t.clusterName, "clientID", t.clientID)
	ctx = klog.NewContext(ctx, logger)
	b := &backoffState{b: t.backoff, now: time.Now, float: rand.Float64}
	for {
		connected, err := t.session(ctx, h)
		if ctx.Err() != nil {
			return
		}
		delay := b.delay()
		if connected {
			logger.Info("gRPC subscription lost, reconnecting", "err", err, "after", delay)
		} else {
			logger.Info("cannot subscribe to the gRPC server, retrying", "err", err, "after", delay)
		}
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
	}
}

// received is what the stream's reader hands over: one message or the
// stream's end.
type received struct {
	msg RawMessage
	err error
}

// session makes one connection and one subscription and serves it until
// either fails or ctx ends. connected tells whether h.Connected was called;
// if so, h.Disconnected is called before it returns.
func (t *Transport) session(ctx context.Context, h cloudevents.Handler) (connected bool, err error) {
	logger := klog.FromContext(ctx)
	// The certificate files as this connection reads them, to tell when
	// they change.
	certs, _ := t.cfg.clientCertFiles()
	conn, err := grpclib.NewClient(t.cfg.URL, t.dialOptions...)
	if err != nil {
		return false, err
	}
	defer func() { _ = conn.Close() }()

	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := conn.NewStream(sctx, &pbv1.CloudEventService_ServiceDesc.Streams[0], pbv1.CloudEventService_Subscribe_FullMethodName)
	if err != nil {
		return false, err
	}
	req := &pbv1.SubscriptionRequest{ClusterName: t.clusterName, DataType: cloudevents.DataType}
	if err := stream.SendMsg(req); err != nil {
		if errors.Is(err, io.EOF) {
			// The call ended already; its status comes with RecvMsg.
			err = stream.RecvMsg(&RawMessage{})
		}
		return false, err
	}
	if err := stream.CloseSend(); err != nil {
		return false, err
	}

	// One goroutine reads the stream; this one calls the Handler, in order.
	header := make(chan bool, 1)
	messages := make(chan received)
	go func() {
		md, _ := stream.Header()
		header <- md != nil
		for {
			var msg RawMessage
			err := stream.RecvMsg(&msg)
			select {
			case messages <- received{msg: msg, err: err}:
			case <-sctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()

	wait := time.NewTimer(t.headerWait)
	select {
	case ok := <-header:
		wait.Stop()
		if !ok {
			// The call failed before any header: its status is the error.
			select {
			case r := <-messages:
				return false, streamError(r.err)
			case <-ctx.Done():
				return false, ctx.Err()
			}
		}
	case <-wait.C:
		// A server that sends its headers only with its first event.
	case <-ctx.Done():
		wait.Stop()
		return false, ctx.Err()
	}

	t.setConn(conn)
	logger.Info("subscribed to the gRPC server")
	h.Connected(ctx)
	defer func() {
		t.setConn(nil)
		h.Disconnected(err)
	}()

	// The health timer is armed by the first heartbeat: a server without
	// heartbeats is never taken for dead.
	var health *time.Timer
	var healthC <-chan time.Time
	defer func() {
		if health != nil {
			health.Stop()
		}
	}()
	var certCheck <-chan time.Time
	if certs != nil {
		ticker := time.NewTicker(t.certReload)
		defer ticker.Stop()
		certCheck = ticker.C
	}
	for {
		select {
		case <-ctx.Done():
			return true, ctx.Err()
		case <-certCheck:
			now, err := t.cfg.clientCertFiles()
			if err != nil {
				logger.Error(err, "cannot read the client certificate again; keeping the connection")
			} else if !bytes.Equal(now, certs) {
				return true, errors.New("the client certificate changed: connecting again with the new one")
			}
		case <-healthC:
			return true, fmt.Errorf("no heartbeat from the server for %s", t.cfg.ServerHealthinessTimeout)
		case r := <-messages:
			if r.err != nil {
				return true, streamError(r.err)
			}
			m := &pbv1.CloudEvent{}
			if err := proto.Unmarshal(r.msg, m); err != nil {
				h.Malformed(fmt.Errorf("gRPC message of %d bytes is not a CloudEvent: %w", len(r.msg), err))
				continue
			}
			if m.Type == HeartbeatType {
				if timeout := t.cfg.ServerHealthinessTimeout; timeout > 0 {
					if health == nil {
						health = time.NewTimer(timeout)
						healthC = health.C
					} else {
						health.Reset(timeout)
					}
				}
				logger.V(5).Info("heartbeat from the gRPC server", "id", m.Id)
				continue
			}
			e, err := FromProto(m)
			if err != nil {
				h.Malformed(err)
				continue
			}
			h.Receive(ctx, e)
		}
	}
}

// streamError is the error a subscription ended with; a stream the server
// closed without an error still ends the subscription.
func streamError(err error) error {
	if errors.Is(err, io.EOF) {
		return errors.New("the server ended the subscription")
	}
	return err
}

func (t *Transport) setConn(conn *grpclib.ClientConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.conn = conn
}

func (t *Transport) current() *grpclib.ClientConn {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.conn
}

// Publish sends e with one Publish call over the subscription's connection
// and returns once the server answered. Without a live subscription it fails
// at once with cloudevents.ErrDisconnected; so does a call that finds the
// connection gone.
func (t *Transport) Publish(ctx context.Context, e event.Event) error {
	conn := t.current()
	if conn == nil {
		return cloudevents.ErrDisconnected
	}
	m, err := ToProto(e)
	if err != nil {
		return err
	}
	_, err = pbv1.NewCloudEventServiceClient(conn).Publish(ctx, &pbv1.PublishRequest{Event: m})
	if err == nil {
		return nil
	}
	if ctx.Err() == nil {
		switch status.Code(err) {
		case codes.Unavailable, codes.Canceled:
			return fmt.Errorf("%w: publish %s: %v", cloudevents.ErrDisconnected, e.Type(), err)
		}
	}
	return fmt.Errorf("publish %s: %w", e.Type(), err)
}
