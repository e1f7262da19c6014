package grpc_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	grpclib "google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/emptypb"
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	cegrpc "github.com/manifestwork/work/pkg/agent/cloudevents/grpc"
	"github.com/manifestwork/work/test/cloudevents/cetest"
)

// The peers in these tests are OCM's generated client and server, with
// gRPC's own proto codec, as OCM's agents and servers use them.

func TestProtobufClientAgainstTestServer(t *testing.T) {
	srv, addr := startServer(t)
	conn, err := grpclib.NewClient(addr, grpclib.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	client := pbv1.NewCloudEventServiceClient(conn)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)

	// Subscribe.
	stream, err := client.Subscribe(ctx, &pbv1.SubscriptionRequest{ClusterName: "cluster2", DataType: cloudevents.DataType})
	require.NoError(t, err)
	md, err := stream.Header()
	require.NoError(t, err)
	require.Len(t, md.Get("subscription-id"), 1, "OCM v1.2's clients want a subscription-id header")
	require.Eventually(t, func() bool { return srv.Subscribers("cluster2") == 1 }, wait, tick)
	requireSubscriptions(t, srv, "cluster2")

	spec := specEvent("spec-9", 9)
	require.NoError(t, srv.Send("cluster2", spec))
	got, err := stream.Recv()
	require.NoError(t, err)
	require.Equal(t, "spec-9", got.GetId())
	require.Equal(t, "maestro", got.GetSource())
	require.Equal(t, "1.0", got.GetSpecVersion())
	require.Equal(t, spec.Type(), got.GetType())
	require.Equal(t, `{"manifests":[]}`, string(got.GetBinaryData()))
	attrs := got.GetAttributes()
	require.Equal(t, int32(9), attrs["ce-resourceversion"].GetCeInteger())
	require.Equal(t, "application/json", attrs["contenttype"].GetCeString())
	require.Equal(t, "cluster1", attrs["ce-clustername"].GetCeString())
	require.Equal(t, spec.Time().Unix(), attrs["ce-time"].GetCeTimestamp().GetSeconds())

	// Publish.
	status := statusEvent("status-9")
	m, err := cegrpc.ToProto(status)
	require.NoError(t, err)
	_, err = client.Publish(ctx, &pbv1.PublishRequest{Event: m})
	require.NoError(t, err)
	select {
	case pub := <-srv.Published():
		requireSameEvent(t, status, pub)
	case <-time.After(wait):
		t.Fatal("the server got no published event")
	}
}

// protobufServer is a CloudEventService written as OCM's v1.0 server
// behaves: OCM's generated code, gRPC's proto codec, no header before the
// first event.
type protobufServer struct {
	pbv1.UnimplementedCloudEventServiceServer
	subs      chan *pbv1.SubscriptionRequest
	published chan *pbv1.PublishRequest
	send      chan *pbv1.CloudEvent

	contentTypes chan []string
}

func (p *protobufServer) Publish(_ context.Context, req *pbv1.PublishRequest) (*emptypb.Empty, error) {
	p.published <- req
	return &emptypb.Empty{}, nil
}

func (p *protobufServer) Subscribe(req *pbv1.SubscriptionRequest, stream pbv1.CloudEventService_SubscribeServer) error {
	md, _ := metadata.FromIncomingContext(stream.Context())
	p.contentTypes <- md.Get("content-type")
	p.subs <- req
	for {
		select {
		case <-stream.Context().Done():
			return nil
		case m := <-p.send:
			if err := stream.Send(m); err != nil {
				return err
			}
		}
	}
}

func TestTransportAgainstProtobufServer(t *testing.T) {
	p := &protobufServer{subs: make(chan *pbv1.SubscriptionRequest, 4), published: make(chan *pbv1.PublishRequest, 4),
		send: make(chan *pbv1.CloudEvent), contentTypes: make(chan []string, 4)}
	s := grpclib.NewServer()
	pbv1.RegisterCloudEventServiceServer(s, p)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)

	tr, err := cegrpc.New(&cegrpc.Config{URL: lis.Addr().String()}, "cluster1", "agent1", fastBackoff, cegrpc.WithHeaderWait(50*time.Millisecond))
	require.NoError(t, err)
	rec := &cetest.Handler{}
	runTransport(t, tr, rec)

	select {
	case sub := <-p.subs:
		require.Equal(t, "cluster1", sub.GetClusterName())
		require.Equal(t, cloudevents.DataType, sub.GetDataType())
		require.Equal(t, "", sub.GetSource())
		require.Equal(t, []string{"application/grpc+proto"}, <-p.contentTypes)
	case <-time.After(wait):
		t.Fatal("no subscription")
	}
	// No header comes before the first event: the subscription counts as up
	// once the wait is over.
	require.Eventually(t, func() bool { return rec.Counts().Connected == 1 }, wait, tick)

	spec := specEvent("spec-7", 7)
	m, err := cegrpc.ToProto(spec)
	require.NoError(t, err)
	p.send <- m
	requireSameEvent(t, spec, rec.WaitReceived(t, 1)[0])

	status := statusEvent("status-7")
	require.NoError(t, tr.Publish(context.Background(), status))
	select {
	case req := <-p.published:
		attrs := req.GetEvent().GetAttributes()
		require.Equal(t, "status-7", req.GetEvent().GetId())
		require.Equal(t, "ab12", attrs["ce-statushash"].GetCeString())
		require.Equal(t, "maestro", attrs["ce-originalsource"].GetCeString())
		require.Equal(t, int32(3), attrs["ce-resourceversion"].GetCeInteger())
	case <-time.After(wait):
		t.Fatal("nothing published")
	}
}
