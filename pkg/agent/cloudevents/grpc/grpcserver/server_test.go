package grpcserver

import (
	"context"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/require"
	grpclib "google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	cegrpc "github.com/manifestwork/work/pkg/agent/cloudevents/grpc"
)

func dial(t *testing.T, s *Server) *grpclib.ClientConn {
	t.Helper()
	addr, err := s.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(s.Stop)
	conn, err := grpclib.NewClient(addr, grpclib.WithTransportCredentials(insecure.NewCredentials()),
		grpclib.WithDefaultCallOptions(grpclib.ForceCodec(cegrpc.Codec{})))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestPublish(t *testing.T) {
	s := New()
	var seen []string
	s.OnPublish(func(e event.Event) { seen = append(seen, e.ID()) })
	conn := dial(t, s)
	ctx := context.Background()

	tests := []struct {
		name     string
		req      *cegrpc.PublishRequest
		wantCode codes.Code
	}{
		{name: "an event", req: &cegrpc.PublishRequest{Event: &cegrpc.CloudEvent{ID: "1", Source: "agent1", SpecVersion: "1.0", Type: "t"}}},
		{name: "no event", req: &cegrpc.PublishRequest{}, wantCode: codes.InvalidArgument},
		{name: "not a valid event", req: &cegrpc.PublishRequest{Event: &cegrpc.CloudEvent{ID: "2", SpecVersion: "1.0"}}, wantCode: codes.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := conn.Invoke(ctx, cegrpc.PublishMethod, tt.req, &cegrpc.Empty{})
			require.Equal(t, tt.wantCode, status.Code(err), "%v", err)
		})
	}
	require.Equal(t, []string{"1"}, seen)
	select {
	case e := <-s.Published():
		require.Equal(t, "1", e.ID())
	default:
		t.Fatal("nothing in Published")
	}
}

func TestSubscribe(t *testing.T) {
	s := New()
	conn := dial(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	require.ErrorIs(t, s.SendRaw("cluster1", []byte{}), ErrNoSubscriber)

	open := func(req *cegrpc.SubscriptionRequest) grpclib.ClientStream {
		stream, err := conn.NewStream(ctx, &grpclib.StreamDesc{ServerStreams: true}, cegrpc.SubscribeMethod)
		require.NoError(t, err)
		require.NoError(t, stream.SendMsg(req))
		require.NoError(t, stream.CloseSend())
		return stream
	}

	// Without a cluster name: refused.
	bad := open(&cegrpc.SubscriptionRequest{})
	require.Equal(t, codes.InvalidArgument, status.Code(bad.RecvMsg(&cegrpc.CloudEvent{})))

	// Two subscribers of cluster1 both get what is sent to cluster1; the
	// one of cluster2 gets only its own.
	a := open(&cegrpc.SubscriptionRequest{ClusterName: "cluster1"})
	b := open(&cegrpc.SubscriptionRequest{ClusterName: "cluster1"})
	c := open(&cegrpc.SubscriptionRequest{ClusterName: "cluster2"})
	require.Eventually(t, func() bool { return s.Subscribers("cluster1") == 2 && s.Subscribers("cluster2") == 1 }, 10*time.Second, 10*time.Millisecond)

	e := event.New()
	e.SetID("e1")
	e.SetSource("maestro")
	e.SetType("t")
	require.NoError(t, s.Send("cluster1", e))
	e.SetID("e2")
	require.NoError(t, s.Send("cluster2", e))
	for _, tc := range []struct {
		stream grpclib.ClientStream
		want   string
	}{{a, "e1"}, {b, "e1"}, {c, "e2"}} {
		got := &cegrpc.CloudEvent{}
		require.NoError(t, tc.stream.RecvMsg(got))
		require.Equal(t, tc.want, got.ID)
	}

	// A subscriber that leaves is forgotten.
	cancel()
	require.Eventually(t, func() bool { return s.Subscribers("cluster1") == 0 }, 10*time.Second, 10*time.Millisecond)
}
