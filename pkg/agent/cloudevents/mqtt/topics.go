package mqtt

import (
	"fmt"
	"regexp"
	"strings"
)

// AgentTopics are the concrete topics of one agent, resolved from the
// config file's patterns and the agent's cluster name.
type AgentTopics struct {
	// Spec is subscribed to: the source's specs and status resync
	// requests for this cluster.
	Spec string
	// Broadcast is subscribed to when set: status resync requests the
	// source sends to every cluster.
	Broadcast string
	// Status is published to: the agent's status events.
	Status string
	// Resync is published to: the agent's spec resync request.
	Resync string
}

// ResolveAgentTopics turns the config's topics into the agent's, as OCM's
// agent does for cluster clusterName:
//
//   - Spec: sourceEvents with its last "+" replaced by the cluster name;
//   - Broadcast: sourceBroadcast as written;
//   - Status: agentEvents with its last "+" replaced by the cluster name;
//   - Resync: agentBroadcast with its first "+" replaced by the cluster
//     name, or the Status topic when agentBroadcast is not set.
//
// A topic published to loses a "$share/<group>/" prefix, which only means
// something to a subscriber, and is refused if it still holds a wildcard.
func ResolveAgentTopics(t Topics, clusterName string) (AgentTopics, error) {
	if clusterName == "" {
		return AgentTopics{}, fmt.Errorf("cluster name: required to resolve the MQTT topics")
	}
	if strings.ContainsAny(clusterName, "/+#\x00") {
		return AgentTopics{}, fmt.Errorf("cluster name %q: holds a character MQTT topics reserve (/, +, # or NUL)", clusterName)
	}
	status, err := publishTopic("topics.agentEvents", replaceLast(t.AgentEvents, "+", clusterName))
	if err != nil {
		return AgentTopics{}, err
	}
	resync := status
	if t.AgentBroadcast != "" {
		if resync, err = publishTopic("topics.agentBroadcast", strings.Replace(t.AgentBroadcast, "+", clusterName, 1)); err != nil {
			return AgentTopics{}, err
		}
	}
	return AgentTopics{
		Spec:      replaceLast(t.SourceEvents, "+", clusterName),
		Broadcast: t.SourceBroadcast,
		Status:    status,
		Resync:    resync,
	}, nil
}

var sharedSubscription = regexp.MustCompile(`^\$share/[^/]+/`)

// publishTopic makes topic fit for a PUBLISH: without a shared-subscription
// prefix and without a wildcard. key names the config key it came from.
func publishTopic(key, topic string) (string, error) {
	topic = sharedSubscription.ReplaceAllString(topic, "")
	if topic == "" {
		return "", fmt.Errorf("%s: required", key)
	}
	if strings.ContainsAny(topic, "+#") {
		return "", fmt.Errorf("%s: the agent would publish to %q, which holds a wildcard", key, topic)
	}
	return topic, nil
}

func replaceLast(s, old, replacement string) string {
	i := strings.LastIndex(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + replacement + s[i+len(old):]
}
