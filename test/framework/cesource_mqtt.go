package framework

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/cloudevents/sdk-go/protocol/mqtt_paho/v2"
	"github.com/cloudevents/sdk-go/v2/binding"
	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"k8s.io/klog/v2"
)

// MQTTTopics are the topics of one source, in the shape Maestro uses:
// sources/<source>/consumers/<cluster>/{sourceevents,agentevents}.
func MQTTTopics(source string) (sourceEvents, agentEvents string) {
	return "sources/" + source + "/consumers/+/sourceevents", "sources/" + source + "/consumers/+/agentevents"
}

// WriteMQTTConfig writes the agent's config file for the broker at addr
// and the source's topics, and returns its path.
func WriteMQTTConfig(dir, addr, source string) (string, error) {
	sourceEvents, agentEvents := MQTTTopics(source)
	path := dir + "/mqtt.yaml"
	config := fmt.Sprintf("brokerHost: %s\nkeepAlive: 5\ndialTimeout: 5s\ntopics:\n  sourceEvents: %s\n  agentEvents: %s\n",
		addr, sourceEvents, agentEvents)
	return path, os.WriteFile(path, []byte(config), 0o600)
}

// MQTTSourceLink is a source's MQTT client: it publishes specs to each
// cluster's sourceevents topic and reads every cluster's agentevents.
type MQTTSourceLink struct {
	source string
	cm     *autopaho.ConnectionManager

	// events are handed from paho's reader to Run's loop, so that a
	// handler may publish (an answer waits for its PUBACK, which that
	// reader delivers).
	events chan cloudevents.Event
}

// NewMQTTSourceLink connects to the broker at addr as the source's client
// and keeps reconnecting until ctx ends.
func NewMQTTSourceLink(ctx context.Context, addr, source string) (*MQTTSourceLink, error) {
	u, err := url.Parse("mqtt://" + addr)
	if err != nil {
		return nil, err
	}
	l := &MQTTSourceLink{source: source, events: make(chan cloudevents.Event, 4096)}
	_, agentEvents := MQTTTopics(source)
	cfg := autopaho.ClientConfig{
		ServerUrls: []*url.URL{u}, KeepAlive: 5, CleanStartOnInitialConnection: true,
		ReconnectBackoff: func(int) time.Duration { return 200 * time.Millisecond },
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			go func() {
				if _, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: agentEvents, QoS: 1}}}); err != nil {
					klog.FromContext(ctx).Info("Source: subscribe failed", "err", err)
				}
			}()
		},
		ClientConfig: paho.ClientConfig{
			ClientID: source + "-source",
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(p paho.PublishReceived) (bool, error) {
				e, err := binding.ToEvent(ctx, mqtt_paho.NewMessage(p.Packet))
				if err != nil {
					return true, nil
				}
				select {
				case l.events <- *e:
				case <-ctx.Done():
				}
				return true, nil
			}},
		},
	}
	if l.cm, err = autopaho.NewConnection(ctx, cfg); err != nil {
		return nil, err
	}
	return l, nil
}

// Send publishes the event on the cluster's sourceevents topic, at QoS 1.
func (l *MQTTSourceLink) Send(ctx context.Context, cluster string, e cloudevents.Event) error {
	sourceEvents, _ := MQTTTopics(l.source)
	topic := strings.Replace(sourceEvents, "+", cluster, 1)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := l.cm.AwaitConnection(ctx); err != nil {
		return err
	}
	msg := &paho.Publish{Topic: topic, QoS: 1}
	if err := mqtt_paho.WritePubMessage(ctx, binding.ToMessage(&e), msg); err != nil {
		return err
	}
	_, err := l.cm.Publish(ctx, msg)
	return err
}

// Publish sends a message as given, valid or not: for tests of bad input.
func (l *MQTTSourceLink) Publish(ctx context.Context, msg *paho.Publish) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := l.cm.AwaitConnection(ctx); err != nil {
		return err
	}
	_, err := l.cm.Publish(ctx, msg)
	return err
}

// Run hands each event the agents publish to receive until ctx ends.
func (l *MQTTSourceLink) Run(ctx context.Context, receive func(cloudevents.Event)) {
	for {
		select {
		case e := <-l.events:
			receive(e)
		case <-ctx.Done():
			return
		}
	}
}
