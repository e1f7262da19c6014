package grpc

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	"k8s.io/utils/clock"
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
)

// MaxMessageSize is the largest message the transport sends or takes:
// gRPC's default of 4 MiB raised, so that an event with too large a work
// still arrives and the Hub can say what is wrong with it. A larger one ends
// the subscription (gRPC cannot skip a message), and the error says why.
const MaxMessageSize = 64 << 20

// Option changes a Transport made by New.
type Option func(*Transport)

// WithBackoff replaces OCM's reconnect backoff
// (cloudevents.NewReconnectDelay) with delay, which is asked for the wait
// before each reconnect attempt, so that tests reconnect fast.
func WithBackoff(delay func() time.Duration) Option { return func(t *Transport) { t.delay = delay } }

// WithHeaderWait sets how long a new subscription waits for the server's
// response headers before it counts as up (default 2 s). OCM's servers
// from v1.2 send them at once; older ones only with their first event, so
// the subscription counts as up after this wait if the call has not failed.
func WithHeaderWait(d time.Duration) Option { return func(t *Transport) { t.headerWait = d } }

// Transport is the agent's gRPC transport: one subscription to the server
// for the agent's cluster and the manifestbundles data type, and a Publish
// call per event the agent sends.
type Transport struct {
	cfg         *Config
	clusterName string
	clientID    string
	dialOptions []grpclib.DialOption
	delay       func() time.Duration
	headerWait  time.Duration
	// certs is the client certificate read from files, nil without one:
	// when the files hold a renewed one, the subscription is dropped and
	// made again with it.
	certs *cloudevents.CertReloader

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
		delay:       cloudevents.NewReconnectDelay(clock.RealClock{}),
		headerWait:  2 * time.Second,
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
		tc, certs, err := cfg.tlsConfig()
		if err != nil {
			return nil, configError(cfg, err)
		}
		t.certs = certs
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
	var background sync.WaitGroup
	defer background.Wait()
	renewed := make(chan struct{}, 1)
	if t.certs != nil {
		background.Go(func() {
			t.certs.Follow(ctx, func() {
				select {
				case renewed <- struct{}{}:
				default:
				}
			})
		})
	}
	for {
		connected, err := t.session(ctx, h, renewed)
		if ctx.Err() != nil {
			return
		}
		delay := t.delay()
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
// either fails, renewed tells of a renewed client certificate, or ctx ends.
// connected tells whether h.Connected was called; if so, h.Disconnected is
// called before it returns.
func (t *Transport) session(ctx context.Context, h cloudevents.Handler, renewed <-chan struct{}) (connected bool, err error) {
	// A renewal before this connection is one it presents already.
	select {
	case <-renewed:
	default:
	}
	conn, err := grpclib.NewClient(t.cfg.URL, t.dialOptions...)
	if err != nil {
		return false, err
	}
	defer func() { _ = conn.Close() }()
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := t.subscribe(sctx, conn)
	if err != nil {
		return false, err
	}
	messages := make(chan received)
	header := read(sctx, stream, messages)
	if err := t.awaitHeader(ctx, header, messages); err != nil {
		return false, err
	}

	t.setConn(conn)
	klog.FromContext(ctx).Info("subscribed to the gRPC server")
	h.Connected(ctx)
	defer func() {
		t.setConn(nil)
		h.Disconnected(err)
	}()
	return true, t.serve(ctx, h, messages, renewed)
}

// subscribe opens the Subscribe call of the agent's cluster on conn.
func (t *Transport) subscribe(ctx context.Context, conn *grpclib.ClientConn) (grpclib.ClientStream, error) {
	stream, err := conn.NewStream(ctx, &pbv1.CloudEventService_ServiceDesc.Streams[0], pbv1.CloudEventService_Subscribe_FullMethodName)
	if err != nil {
		return nil, err
	}
	req := &pbv1.SubscriptionRequest{ClusterName: t.clusterName, DataType: cloudevents.DataType}
	if err := stream.SendMsg(req); err != nil {
		if errors.Is(err, io.EOF) {
			// The call ended already; its status comes with RecvMsg.
			err = stream.RecvMsg(&RawMessage{})
		}
		return nil, err
	}
	if err := stream.CloseSend(); err != nil {
		return nil, err
	}
	return stream, nil
}

// read reads the stream in a goroutine of its own, until it ends or ctx
// does: it tells on the channel it returns whether the server sent its
// response headers, then hands each message over to messages.
func read(ctx context.Context, stream grpclib.ClientStream, messages chan<- received) <-chan bool {
	header := make(chan bool, 1)
	go func() {
		md, _ := stream.Header()
		header <- md != nil
		for {
			var msg RawMessage
			err := stream.RecvMsg(&msg)
			select {
			case messages <- received{msg: msg, err: err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return header
}

// awaitHeader waits up to headerWait for the server's response headers;
// a call that failed before any header returns its status.
func (t *Transport) awaitHeader(ctx context.Context, header <-chan bool, messages <-chan received) error {
	wait := time.NewTimer(t.headerWait)
	defer wait.Stop()
	select {
	case ok := <-header:
		if ok {
			return nil
		}
		// The call failed before any header: its status is the error.
		select {
		case r := <-messages:
			return streamError(r.err)
		case <-ctx.Done():
			return ctx.Err()
		}
	case <-wait.C:
		// A server that sends its headers only with its first event.
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// serve hands what the subscription receives to h until it fails, the
// server's heartbeats stop, the client certificate is renewed or ctx ends,
// and returns why.
func (t *Transport) serve(ctx context.Context, h cloudevents.Handler, messages <-chan received, renewed <-chan struct{}) error {
	health := &heartbeats{timeout: t.cfg.ServerHealthinessTimeout}
	defer health.stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-renewed:
			return errors.New("the client certificate changed: connecting again with the new one")
		case <-health.expired():
			return fmt.Errorf("no heartbeat from the server for %s", t.cfg.ServerHealthinessTimeout)
		case r := <-messages:
			if r.err != nil {
				return streamError(r.err)
			}
			t.receive(ctx, h, health, r.msg)
		}
	}
}

// receive decodes one message: a heartbeat rearms health, an event goes
// to h.Receive and anything else to h.Malformed.
func (t *Transport) receive(ctx context.Context, h cloudevents.Handler, health *heartbeats, msg RawMessage) {
	m := &pbv1.CloudEvent{}
	if err := proto.Unmarshal(msg, m); err != nil {
		h.Malformed(fmt.Errorf("gRPC message of %d bytes is not a CloudEvent: %w", len(msg), err))
		return
	}
	if m.Type == HeartbeatType {
		health.beat()
		klog.FromContext(ctx).V(5).Info("heartbeat from the gRPC server", "id", m.Id)
		return
	}
	e, err := FromProto(m)
	if err != nil {
		h.Malformed(err)
		return
	}
	h.Receive(ctx, e)
}

// heartbeats tells when the server's heartbeats stopped for longer than
// timeout (zero: never). The first heartbeat arms it: a server without
// heartbeats is never taken for dead.
type heartbeats struct {
	timeout time.Duration
	timer   *time.Timer
}

func (b *heartbeats) beat() {
	switch {
	case b.timeout <= 0:
	case b.timer == nil:
		b.timer = time.NewTimer(b.timeout)
	default:
		b.timer.Reset(b.timeout)
	}
}

// expired fires once the heartbeats stopped; nil before the first one.
func (b *heartbeats) expired() <-chan time.Time {
	if b.timer == nil {
		return nil
	}
	return b.timer.C
}

func (b *heartbeats) stop() {
	if b.timer != nil {
		b.timer.Stop()
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
