// Package grpcserver is an in-process io.cloudevents.v1.CloudEventService
// server that plays the source's side for tests: agents subscribe to it per
// cluster, it sends them events, and it hands over what they publish. It
// speaks the wire of OCM's gRPC server (the subscription-id header of v1.2,
// optional heartbeats of v1.1, an optional bearer token over TLS).
package grpcserver

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	grpclib "google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"k8s.io/klog/v2"
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"

	cegrpc "github.com/manifestwork/work/pkg/agent/cloudevents/grpc"
)

// ErrNoSubscriber is what Send returns when no agent of the cluster is
// subscribed.
var ErrNoSubscriber = errors.New("no subscriber for the cluster")

// publishedBuffer is how many published events Published holds before it
// drops new ones.
const publishedBuffer = 1024

// Option configures a Server.
type Option func(*Server)

// WithToken makes the server take only calls with "authorization: Bearer
// <token>"; others fail with Unauthenticated.
func WithToken(token string) Option { return func(s *Server) { s.token = token } }

// WithTLS serves TLS with cfg.
func WithTLS(cfg *tls.Config) Option { return func(s *Server) { s.tls = cfg } }

// WithHeartbeat sends a heartbeat event on each subscription every interval,
// as OCM's server does from v1.1.
func WithHeartbeat(interval time.Duration) Option {
	return func(s *Server) { s.heartbeat = interval }
}

// Server is the in-process CloudEventService.
type Server struct {
	token     string
	tls       *tls.Config
	heartbeat time.Duration

	grpc      *grpclib.Server
	published chan event.Event

	mu        sync.Mutex
	subs      map[*subscriber]struct{}
	onPublish func(event.Event)
	rejected  int
}

// subscriber is one open Subscribe call.
type subscriber struct {
	req  *pbv1.SubscriptionRequest
	out  chan cegrpc.RawMessage
	done <-chan struct{}
}

// New makes a server; Serve or Start runs it.
func New(opts ...Option) *Server {
	s := &Server{subs: map[*subscriber]struct{}{}, published: make(chan event.Event, publishedBuffer)}
	for _, o := range opts {
		o(s)
	}
	sopts := []grpclib.ServerOption{
		grpclib.ForceServerCodec(cegrpc.Codec{}),
		grpclib.MaxRecvMsgSize(cegrpc.MaxMessageSize),
		// Agents may ping as often as gRPC lets them (every 10 s), with or
		// without a call, without being sent away for too many pings.
		grpclib.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 5 * time.Second, PermitWithoutStream: true}),
		grpclib.UnaryInterceptor(s.authorizeUnary),
		grpclib.StreamInterceptor(s.authorizeStream),
	}
	if s.tls != nil {
		sopts = append(sopts, grpclib.Creds(credentials.NewTLS(s.tls)))
	}
	s.grpc = grpclib.NewServer(sopts...)
	pbv1.RegisterCloudEventServiceServer(s.grpc, service{s: s})
	return s
}

// Serve serves on lis until Stop.
func (s *Server) Serve(lis net.Listener) error {
	return s.grpc.Serve(lis)
}

// Start listens on addr (such as 127.0.0.1:0) and serves in the background.
// It returns the address it listens on.
func (s *Server) Start(addr string) (string, error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	go func() {
		if err := s.Serve(lis); err != nil {
			klog.Background().WithValues("addr", lis.Addr().String()).Error(err, "gRPC test server stopped")
		}
	}()
	return lis.Addr().String(), nil
}

// Stop closes the listener and every connection at once: subscribers see
// their stream fail, as when a server process dies.
func (s *Server) Stop() { s.grpc.Stop() }

// OnPublish calls fn with each event an agent publishes, before the agent's
// Publish call gets its answer. Events also go to Published.
func (s *Server) OnPublish(fn func(event.Event)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onPublish = fn
}

// Published yields each event agents publish, in order. It holds up to
// 1024; when it is full, later events are dropped from it (OnPublish still
// sees them).
func (s *Server) Published() <-chan event.Event { return s.published }

// Subscribers is the number of open subscriptions for clusterName.
func (s *Server) Subscribers(clusterName string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for sub := range s.subs {
		if sub.req.GetClusterName() == clusterName {
			n++
		}
	}
	return n
}

// Rejected is the number of calls refused for a missing or wrong token.
func (s *Server) Rejected() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rejected
}

// Subscriptions is the request of each open subscription.
func (s *Server) Subscriptions() []*pbv1.SubscriptionRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	reqs := make([]*pbv1.SubscriptionRequest, 0, len(s.subs))
	for sub := range s.subs {
		reqs = append(reqs, sub.req)
	}
	return reqs
}

// Send sends e to every subscriber of clusterName, as OCM writes an event.
func (s *Server) Send(clusterName string, e event.Event) error {
	m, err := cegrpc.ToProto(e)
	if err != nil {
		return err
	}
	return s.SendProto(clusterName, m)
}

// SendProto sends m to every subscriber of clusterName as it is, even when
// it is not a valid event.
func (s *Server) SendProto(clusterName string, m *pbv1.CloudEvent) error {
	b, err := cegrpc.Codec{}.Marshal(m)
	if err != nil {
		return err
	}
	return s.SendRaw(clusterName, b)
}

// SendRaw sends b to every subscriber of clusterName as one message of the
// stream, whatever it holds.
func (s *Server) SendRaw(clusterName string, b []byte) error {
	s.mu.Lock()
	var subs []*subscriber
	for sub := range s.subs {
		if sub.req.GetClusterName() == clusterName {
			subs = append(subs, sub)
		}
	}
	s.mu.Unlock()
	if len(subs) == 0 {
		return fmt.Errorf("%w %q", ErrNoSubscriber, clusterName)
	}
	for _, sub := range subs {
		select {
		case sub.out <- cegrpc.RawMessage(b):
		case <-sub.done:
		}
	}
	return nil
}

func (s *Server) authorize(ctx context.Context) error {
	if s.token == "" {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	want := "Bearer " + s.token
	for _, got := range md.Get("authorization") {
		if subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1 {
			return nil
		}
	}
	s.mu.Lock()
	s.rejected++
	s.mu.Unlock()
	return status.Error(codes.Unauthenticated, "missing or wrong bearer token")
}

func (s *Server) authorizeUnary(ctx context.Context, req any, _ *grpclib.UnaryServerInfo, next grpclib.UnaryHandler) (any, error) {
	if err := s.authorize(ctx); err != nil {
		return nil, err
	}
	return next(ctx, req)
}

func (s *Server) authorizeStream(srv any, ss grpclib.ServerStream, _ *grpclib.StreamServerInfo, next grpclib.StreamHandler) error {
	if err := s.authorize(ss.Context()); err != nil {
		return err
	}
	return next(srv, ss)
}

// service is the Server as the CloudEventService.
type service struct {
	pbv1.UnimplementedCloudEventServiceServer
	s *Server
}

func (v service) Publish(ctx context.Context, req *pbv1.PublishRequest) (*emptypb.Empty, error) {
	s := v.s
	if req.GetEvent() == nil {
		return nil, status.Error(codes.InvalidArgument, "publish request without an event")
	}
	e, err := cegrpc.FromProto(req.GetEvent())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	s.mu.Lock()
	fn := s.onPublish
	s.mu.Unlock()
	if fn != nil {
		fn(e)
	}
	select {
	case s.published <- e:
	default:
		klog.FromContext(ctx).Info("gRPC test server: published events not read, dropping one", "type", e.Type())
	}
	return &emptypb.Empty{}, nil
}

// Subscribe writes with SendMsg: a message of SendRaw as it is, even when it
// is not a CloudEvent.
func (v service) Subscribe(req *pbv1.SubscriptionRequest, stream pbv1.CloudEventService_SubscribeServer) error {
	s := v.s
	if req.GetClusterName() == "" {
		return status.Error(codes.InvalidArgument, "subscription without a cluster name")
	}
	if err := stream.SendHeader(metadata.Pairs("subscription-id", newID())); err != nil {
		return err
	}
	ctx := stream.Context()
	sub := &subscriber{req: req, out: make(chan cegrpc.RawMessage, 64), done: ctx.Done()}
	s.mu.Lock()
	s.subs[sub] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, sub)
		s.mu.Unlock()
	}()

	var beat <-chan time.Time
	if s.heartbeat > 0 {
		ticker := time.NewTicker(s.heartbeat)
		defer ticker.Stop()
		beat = ticker.C
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case b := <-sub.out:
			if err := stream.SendMsg(&b); err != nil {
				return err
			}
		case <-beat:
			hb := &pbv1.CloudEvent{Id: newID(), SpecVersion: event.CloudEventsVersionV1, Type: cegrpc.HeartbeatType}
			if err := stream.Send(hb); err != nil {
				return err
			}
		}
	}
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
