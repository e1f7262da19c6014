package framework

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"
)

// EnvMQTTBroker names the MQTT broker binary (mochi-mqtt's broker command,
// which hack/mqtt-broker.sh builds) of the CloudEvents tests and bench.
// `make test-e2e` and `make bench` set it.
const EnvMQTTBroker = "WORK_MQTT_BROKER"

// MQTTBrokerBinary returns the absolute path of the broker from
// WORK_MQTT_BROKER, or skips t when the variable is unset.
func MQTTBrokerBinary(t testing.TB) string {
	t.Helper()
	return binaryFromEnv(t, EnvMQTTBroker, "the MQTT broker", "hack/mqtt-broker.sh", "make test-e2e")
}

// MQTTBroker is a broker running as a process of its own, on the same
// address across restarts; a restarted broker is empty (no sessions, no
// subscriptions), as mochi keeps nothing on disk.
type MQTTBroker struct {
	*Process
	// Addr is host:port of its MQTT listener.
	Addr string
}

// StartMQTTBroker starts the broker binary on free loopback ports and waits
// until it accepts connections.
func (e *E2E) StartMQTTBroker(binary string) (*MQTTBroker, error) {
	ports := make([]string, 3)
	for i := range ports {
		port, err := FreePort()
		if err != nil {
			return nil, err
		}
		ports[i] = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	}
	p := e.newProcess("mqtt-broker", nil, []string{"-tcp", ports[0], "-ws", ports[1], "-info", ports[2]})
	p.binary, p.plain = binary, true
	b := &MQTTBroker{Process: p, Addr: ports[0]}
	if err := b.Start(); err != nil {
		return nil, err
	}
	return b, nil
}

// Start starts the broker again (after Stop or Kill) and waits until it
// accepts connections.
func (b *MQTTBroker) Start() error {
	if err := b.Process.Start(); err != nil {
		return err
	}
	return poll(context.Background(), 30*time.Second, func(context.Context) (bool, error) {
		conn, err := net.DialTimeout("tcp", b.Addr, time.Second)
		if err != nil {
			if !b.Running() {
				return false, fmt.Errorf("framework: the MQTT broker exited: %s", b.Tail(20))
			}
			return false, nil
		}
		_ = conn.Close()
		return true, nil
	})
}
