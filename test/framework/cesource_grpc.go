package framework

import (
	"context"
	"errors"
	"time"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"

	"github.com/manifestwork/work/test/cloudevents/grpcserver"
)

// GRPCSourceLink is a source that is itself the gRPC server the agents
// subscribe to, as OCM's gRPC server and Maestro's are.
type GRPCSourceLink struct {
	Server *grpcserver.Server
}

// Send sends the event to the subscribers of the cluster, waiting up to ten
// seconds (or ctx) for one to subscribe.
func (l GRPCSourceLink) Send(ctx context.Context, cluster string, e cloudevents.Event) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return poll(ctx, 10*time.Second, func(context.Context) (bool, error) {
		err := l.Server.Send(cluster, e)
		if errors.Is(err, grpcserver.ErrNoSubscriber) {
			return false, nil
		}
		return err == nil, err
	})
}

// Run hands each event the agents publish to receive until ctx ends.
func (l GRPCSourceLink) Run(ctx context.Context, receive func(cloudevents.Event)) {
	for {
		select {
		case e := <-l.Server.Published():
			receive(e)
		case <-ctx.Done():
			return
		}
	}
}
