package mqtttest

import (
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testEvent(id string) event.Event {
	e := event.New()
	e.SetID(id)
	e.SetSource("test")
	e.SetType("io.open-cluster-management.works.v1alpha1.manifestbundles.spec.create_request")
	e.SetExtension("resourceid", "work-1")
	_ = e.SetData("application/json", map[string]any{"manifests": []any{}})
	return e
}

func TestBrokerAndClient(t *testing.T) {
	cases := []struct {
		name string
		opts []Option
	}{
		{name: "anyone"},
		{name: "one user", opts: []Option{WithUser("u", "p")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := Start(t, tc.opts...)
			require.Regexp(t, `^127\.0\.0\.1:\d+$`, b.Addr())
			if tc.opts != nil {
				// The broker refuses a client without the user's credentials.
				ft := &fatalRecorder{TB: t}
				func() {
					defer func() { _ = recover() }()
					Connect(ft, b.Addr(), "stranger")
				}()
				assert.True(t, ft.failed, "a client without credentials is refused")
				return
			}
			sub := Connect(t, b.Addr(), "sub")
			sub.Subscribe("a/+")
			pub := Connect(t, b.Addr(), "pub")
			require.Equal(t, []string{"pub", "sub"}, b.Clients())
			pub.PublishEvent("a/b", testEvent("e1"))
			got := sub.NextEvent()
			assert.Equal(t, "e1", got.ID())
			assert.Equal(t, "work-1", got.Extensions()["resourceid"])

			addr := b.Addr()
			b.Restart()
			assert.Equal(t, addr, b.Addr(), "the same address after a restart")
			require.Eventually(t, func() bool { return len(b.Clients()) == 0 }, Timeout, 10*time.Millisecond, "an empty broker")
			sub = Connect(t, b.Addr(), "sub2")
			sub.Subscribe("a/+")
			Connect(t, b.Addr(), "pub2").PublishEvent("a/c", testEvent("e2"))
			assert.Equal(t, "e2", sub.NextEvent().ID())

			b.Stop()
			b.Stop()
			assert.Empty(t, b.Clients())
		})
	}
}

func TestStartBroker(t *testing.T) {
	addr, stop := StartBroker(t)
	Connect(t, addr, "c")
	stop()
	stop()
}

// fatalRecorder notes a Fatalf instead of ending the test, and stops the
// helper the way Fatalf would.
type fatalRecorder struct {
	testing.TB
	failed bool
}

func (f *fatalRecorder) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
