package mqtttest

import (
	"context"
	"net"
	"testing"
	"time"

	mqttbinding "github.com/cloudevents/sdk-go/protocol/mqtt_paho/v2"
	"github.com/cloudevents/sdk-go/v2/binding"
	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/eclipse/paho.golang/paho"
)

// Timeout bounds each wait of a Client: to connect, for an
// acknowledgement, for the next message.
const Timeout = 20 * time.Second

// Client is a plain MQTT 5 client for tests, to play the source's part:
// it publishes what it is given and keeps what it receives, in order.
type Client struct {
	tb  testing.TB
	cli *paho.Client
	got chan *paho.Publish
}

// Connect connects a client with a clean start to the broker at addr; it
// disconnects at the end of the test. clientID must be unique on the
// broker, or the broker drops the older client.
func Connect(tb testing.TB, addr, clientID string) *Client {
	tb.Helper()
	conn, err := net.DialTimeout("tcp", addr, Timeout)
	if err != nil {
		tb.Fatalf("connecting to the MQTT broker at %s: %v", addr, err)
	}
	c := &Client{tb: tb, got: make(chan *paho.Publish, 4096)}
	c.cli = paho.NewClient(paho.ClientConfig{
		Conn: conn,
		OnPublishReceived: []func(paho.PublishReceived) (bool, error){
			func(pr paho.PublishReceived) (bool, error) {
				c.got <- pr.Packet
				return true, nil
			},
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if _, err := c.cli.Connect(ctx, &paho.Connect{ClientID: clientID, CleanStart: true, KeepAlive: 30}); err != nil {
		tb.Fatalf("connecting to the MQTT broker at %s: %v", addr, err)
	}
	tb.Cleanup(func() { _ = c.cli.Disconnect(&paho.Disconnect{}) })
	return c
}

// Subscribe subscribes to topics with QoS 1 and waits for the SUBACK.
func (c *Client) Subscribe(topics ...string) {
	c.tb.Helper()
	sub := &paho.Subscribe{}
	for _, topic := range topics {
		sub.Subscriptions = append(sub.Subscriptions, paho.SubscribeOptions{Topic: topic, QoS: 1})
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if _, err := c.cli.Subscribe(ctx, sub); err != nil {
		c.tb.Fatalf("subscribing to %v: %v", topics, err)
	}
}

// Publish publishes p and waits for its acknowledgement (at QoS 1 or 2).
func (c *Client) Publish(p *paho.Publish) {
	c.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if _, err := c.cli.Publish(ctx, p); err != nil {
		c.tb.Fatalf("publishing to %s: %v", p.Topic, err)
	}
}

// PublishEvent publishes e to topic at QoS 1 with the CloudEvents MQTT
// binding in binary mode, as OCM's sources do.
func (c *Client) PublishEvent(topic string, e event.Event) {
	c.tb.Helper()
	p := &paho.Publish{Topic: topic, QoS: 1}
	if err := mqttbinding.WritePubMessage(context.Background(), binding.ToMessage(&e), p); err != nil {
		c.tb.Fatalf("encoding event %s: %v", e.ID(), err)
	}
	c.Publish(p)
}

// Next returns the next message the client received, waiting for it.
func (c *Client) Next() *paho.Publish {
	c.tb.Helper()
	select {
	case p := <-c.got:
		return p
	case <-time.After(Timeout):
		c.tb.Fatalf("no MQTT message within %s", Timeout)
		return nil
	}
}

// NextEvent returns the next message the client received as a CloudEvent.
func (c *Client) NextEvent() event.Event {
	c.tb.Helper()
	p := c.Next()
	e, err := binding.ToEvent(context.Background(), mqttbinding.NewMessage(p))
	if err != nil {
		c.tb.Fatalf("the message on %s is not a CloudEvent: %v", p.Topic, err)
	}
	return *e
}
