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
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"
)

// dial is OCM's generated client of s, with gRPC's own proto codec.
func dial(t *testing.T, s *Server) pbv1.CloudEventServiceClient {
	t.Helper()
	addr, err := s.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(s.Stop)
	conn, err := grpclib.NewClient(addr, grpclib.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return pbv1.NewCloudEventServiceClient(conn)
}

func TestPublish(t *testing.T) {
	s := New()
	var seen []string
	s.OnPublish(func(e event.Event) { seen = append(seen, e.ID()) })
	client := dial(t, s)
	ctx := context.Background()

	tests := []struct {
		name     string
		req      *pbv1.PublishRequest
		wantCode codes.Code
	}{
		{name: "an event", req: &pbv1.PublishRequest{Event: &pbv1.CloudEvent{Id: "1", Source: "agent1", SpecVersion: "1.0", Type: "t"}}},
		{name: "no event", req: &pbv1.PublishRequest{}, wantCode: codes.InvalidArgument},
		{name: "not a valid event", req: &pbv1.PublishRequest{Event: &pbv1.CloudEvent{Id: "2", SpecVersion: "1.0"}}, wantCode: codes.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client.Publish(ctx, tt.req)
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
	client := dial(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	require.ErrorIs(t, s.SendRaw("cluster1", []byte{}), ErrNoSubscriber)

	open := func(req *pbv1.SubscriptionRequest) pbv1.CloudEventService_SubscribeClient {
		stream, err := client.Subscribe(ctx, req)
		require.NoError(t, err)
		return stream
	}

	// Without a cluster name: refused.
	_, err := open(&pbv1.SubscriptionRequest{}).Recv()
	require.Equal(t, codes.InvalidArgument, status.Code(err))

	// Two subscribers of cluster1 both get what is sent to cluster1; the
	// one of cluster2 gets only its own.
	a := open(&pbv1.SubscriptionRequest{ClusterName: "cluster1"})
	b := open(&pbv1.SubscriptionRequest{ClusterName: "cluster1"})
	c := open(&pbv1.SubscriptionRequest{ClusterName: "cluster2"})
	require.Eventually(t, func() bool { return s.Subscribers("cluster1") == 2 && s.Subscribers("cluster2") == 1 }, 10*time.Second, 10*time.Millisecond)

	e := event.New()
	e.SetID("e1")
	e.SetSource("maestro")
	e.SetType("t")
	require.NoError(t, s.Send("cluster1", e))
	e.SetID("e2")
	require.NoError(t, s.Send("cluster2", e))
	for _, tc := range []struct {
		stream pbv1.CloudEventService_SubscribeClient
		want   string
	}{{a, "e1"}, {b, "e1"}, {c, "e2"}} {
		got, err := tc.stream.Recv()
		require.NoError(t, err)
		require.Equal(t, tc.want, got.GetId())
	}

	// A subscriber that leaves is forgotten.
	cancel()
	require.Eventually(t, func() bool { return s.Subscribers("cluster1") == 0 }, 10*time.Second, 10*time.Millisecond)
}
