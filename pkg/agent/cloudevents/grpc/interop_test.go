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
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	"github.com/manifestwork/work/pkg/agent/cloudevents/cetest"
	cegrpc "github.com/manifestwork/work/pkg/agent/cloudevents/grpc"
)

// The peers in these tests use gRPC's own proto codec with messages of the
// protobuf runtime built from OCM's schema, as OCM's generated code does.

// str reads a string field of m by name.
func str(m protoreflect.Message, name string) string {
	return m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(name))).String()
}

// attribute is the attribute value of key in a dynamic CloudEvent.
func attribute(m protoreflect.Message, key string) protoreflect.Message {
	attrs := m.Get(m.Descriptor().Fields().ByName("attributes")).Map()
	v := attrs.Get(protoreflect.ValueOfString(key).MapKey())
	if !v.IsValid() {
		return nil
	}
	return v.Message()
}

func TestProtobufClientAgainstTestServer(t *testing.T) {
	fd := cegrpc.SchemaFile(t)
	srv, addr := startServer(t)
	conn, err := grpclib.NewClient(addr, grpclib.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)

	// Subscribe.
	sub := dynamicpb.NewMessage(fd.Messages().ByName("SubscriptionRequest"))
	sub.Set(sub.Descriptor().Fields().ByName("cluster_name"), protoreflect.ValueOfString("cluster2"))
	sub.Set(sub.Descriptor().Fields().ByName("data_type"), protoreflect.ValueOfString(cloudevents.DataType))
	stream, err := conn.NewStream(ctx, &grpclib.StreamDesc{ServerStreams: true}, cegrpc.SubscribeMethod)
	require.NoError(t, err)
	require.NoError(t, stream.SendMsg(sub))
	require.NoError(t, stream.CloseSend())
	md, err := stream.Header()
	require.NoError(t, err)
	require.Len(t, md.Get("subscription-id"), 1, "OCM v1.2's clients want a subscription-id header")
	require.Eventually(t, func() bool { return srv.Subscribers("cluster2") == 1 }, wait, tick)
	require.Equal(t, []cegrpc.SubscriptionRequest{{ClusterName: "cluster2", DataType: cloudevents.DataType}}, srv.Subscriptions())

	spec := specEvent("spec-9", 9)
	require.NoError(t, srv.Send("cluster2", spec))
	got := dynamicpb.NewMessage(fd.Messages().ByName("CloudEvent"))
	require.NoError(t, stream.RecvMsg(got))
	require.Equal(t, "spec-9", str(got, "id"))
	require.Equal(t, "maestro", str(got, "source"))
	require.Equal(t, "1.0", str(got, "spec_version"))
	require.Equal(t, spec.Type(), str(got, "type"))
	require.Equal(t, `{"manifests":[]}`, string(got.Get(got.Descriptor().Fields().ByName("binary_data")).Bytes()))
	require.Equal(t, int64(9), attribute(got, "ce-resourceversion").Get(fd.Messages().ByName("CloudEventAttributeValue").Fields().ByName("ce_integer")).Int())
	require.Equal(t, "application/json", str(attribute(got, "contenttype"), "ce_string"))
	require.Equal(t, "cluster1", str(attribute(got, "ce-clustername"), "ce_string"))
	ts := attribute(got, "ce-time").Get(fd.Messages().ByName("CloudEventAttributeValue").Fields().ByName("ce_timestamp")).Message()
	require.Equal(t, spec.Time().Unix(), ts.Get(ts.Descriptor().Fields().ByName("seconds")).Int())

	// Publish.
	status := statusEvent("status-9")
	m, err := cegrpc.ToProto(status)
	require.NoError(t, err)
	req := dynamicpb.NewMessage(fd.Messages().ByName("PublishRequest"))
	req.Set(req.Descriptor().Fields().ByName("event"), protoreflect.ValueOfMessage(cegrpc.DynamicEvent(fd, m)))
	require.NoError(t, conn.Invoke(ctx, cegrpc.PublishMethod, req, &emptypb.Empty{}))
	select {
	case pub := <-srv.Published():
		requireSameEvent(t, status, pub)
	case <-time.After(wait):
		t.Fatal("the server got no published event")
	}
}

// protobufServer is a CloudEventService written as OCM's v1.0 server
// behaves: gRPC's proto codec, no header before the first event.
type protobufServer struct {
	fd        protoreflect.FileDescriptor
	subs      chan proto.Message
	published chan proto.Message
	send      chan proto.Message

	contentTypes chan []string
}

func (p *protobufServer) register(s *grpclib.Server) {
	s.RegisterService(&grpclib.ServiceDesc{
		ServiceName: cegrpc.ServiceName,
		HandlerType: (*any)(nil),
		Methods: []grpclib.MethodDesc{{
			MethodName: "Publish",
			Handler: func(_ any, _ context.Context, dec func(any) error, _ grpclib.UnaryServerInterceptor) (any, error) {
				req := dynamicpb.NewMessage(p.fd.Messages().ByName("PublishRequest"))
				if err := dec(req); err != nil {
					return nil, err
				}
				p.published <- req
				return &emptypb.Empty{}, nil
			},
		}},
		Streams: []grpclib.StreamDesc{{
			StreamName:    "Subscribe",
			ServerStreams: true,
			Handler: func(_ any, stream grpclib.ServerStream) error {
				req := dynamicpb.NewMessage(p.fd.Messages().ByName("SubscriptionRequest"))
				if err := stream.RecvMsg(req); err != nil {
					return err
				}
				md, _ := metadata.FromIncomingContext(stream.Context())
				p.contentTypes <- md.Get("content-type")
				p.subs <- req
				for {
					select {
					case <-stream.Context().Done():
						return nil
					case m := <-p.send:
						if err := stream.SendMsg(m); err != nil {
							return err
						}
					}
				}
			},
		}},
	}, p)
}

func TestTransportAgainstProtobufServer(t *testing.T) {
	fd := cegrpc.SchemaFile(t)
	p := &protobufServer{fd: fd, subs: make(chan proto.Message, 4), published: make(chan proto.Message, 4), send: make(chan proto.Message),
		contentTypes: make(chan []string, 4)}
	s := grpclib.NewServer()
	p.register(s)
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
		m := sub.ProtoReflect()
		require.Equal(t, "cluster1", str(m, "cluster_name"))
		require.Equal(t, cloudevents.DataType, str(m, "data_type"))
		require.Equal(t, "", str(m, "source"))
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
	p.send <- cegrpc.DynamicEvent(fd, m)
	requireSameEvent(t, spec, rec.WaitReceived(t, 1)[0])

	status := statusEvent("status-7")
	require.NoError(t, tr.Publish(context.Background(), status))
	select {
	case req := <-p.published:
		r := req.ProtoReflect()
		ev := r.Get(r.Descriptor().Fields().ByName("event")).Message()
		require.Equal(t, "status-7", str(ev, "id"))
		require.Equal(t, "ab12", str(attribute(ev, "ce-statushash"), "ce_string"))
		require.Equal(t, "maestro", str(attribute(ev, "ce-originalsource"), "ce_string"))
		require.Equal(t, int64(3), attribute(ev, "ce-resourceversion").Get(fd.Messages().ByName("CloudEventAttributeValue").Fields().ByName("ce_integer")).Int())
	case <-time.After(wait):
		t.Fatal("nothing published")
	}
}
