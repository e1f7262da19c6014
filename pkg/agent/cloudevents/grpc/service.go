package grpc

import (
	"context"

	grpclib "google.golang.org/grpc"
)

// subscribeStream describes Subscribe on the client side: one request, a
// stream of answers.
var subscribeStream = grpclib.StreamDesc{StreamName: "Subscribe", ServerStreams: true}

// CloudEventServiceServer is the server side of the service, without the
// protobuf plumbing: RegisterCloudEventService wires it into a grpc.Server
// whose codec is Codec (grpc.ForceServerCodec(Codec{})).
type CloudEventServiceServer interface {
	// Publish takes one event from a client.
	Publish(ctx context.Context, req *PublishRequest) error
	// Subscribe serves one subscription until it ends; it writes
	// *CloudEvent or *RawMessage values with stream.SendMsg.
	Subscribe(req *SubscriptionRequest, stream grpclib.ServerStream) error
}

// RegisterCloudEventService serves impl as io.cloudevents.v1.CloudEventService
// on s.
func RegisterCloudEventService(s grpclib.ServiceRegistrar, impl CloudEventServiceServer) {
	s.RegisterService(&grpclib.ServiceDesc{
		ServiceName: ServiceName,
		HandlerType: (*CloudEventServiceServer)(nil),
		Methods: []grpclib.MethodDesc{{
			MethodName: "Publish",
			Handler:    publishHandler,
		}},
		Streams: []grpclib.StreamDesc{{
			StreamName:    "Subscribe",
			Handler:       subscribeHandler,
			ServerStreams: true,
		}},
		Metadata: "cloudevent.proto",
	}, impl)
}

func publishHandler(srv any, ctx context.Context, dec func(any) error, interceptor grpclib.UnaryServerInterceptor) (any, error) {
	req := &PublishRequest{}
	if err := dec(req); err != nil {
		return nil, err
	}
	call := func(ctx context.Context, req any) (any, error) {
		if err := srv.(CloudEventServiceServer).Publish(ctx, req.(*PublishRequest)); err != nil {
			return nil, err
		}
		return &Empty{}, nil
	}
	if interceptor == nil {
		return call(ctx, req)
	}
	return interceptor(ctx, req, &grpclib.UnaryServerInfo{Server: srv, FullMethod: PublishMethod}, call)
}

func subscribeHandler(srv any, stream grpclib.ServerStream) error {
	req := &SubscriptionRequest{}
	if err := stream.RecvMsg(req); err != nil {
		return err
	}
	return srv.(CloudEventServiceServer).Subscribe(req, stream)
}
