package grpc_test

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	cegrpc "github.com/manifestwork/work/pkg/agent/cloudevents/grpc"
	"github.com/manifestwork/work/test/cloudevents/cetest"
	"github.com/manifestwork/work/test/cloudevents/grpcserver"
)

const (
	wait = 10 * time.Second
	tick = 10 * time.Millisecond
)

var fastBackoff = cegrpc.WithBackoff(func() time.Duration { return 20 * time.Millisecond })

// startServer runs a test server on 127.0.0.1:0 until the test ends.
func startServer(t *testing.T, opts ...grpcserver.Option) (*grpcserver.Server, string) {
	t.Helper()
	srv := grpcserver.New(opts...)
	addr, err := srv.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(srv.Stop)
	return srv, addr
}

// runTransport runs tr until the test ends, and waits until Run returned.
func runTransport(t *testing.T, tr *cegrpc.Transport, h cloudevents.Handler) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr.Run(ctx, h)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// workEvent is a work event of type sub.action with the extensions ext
// and JSON data.
func workEvent(id, source string, sub cloudevents.SubResource, action cloudevents.Action, ext map[string]any, data string) event.Event {
	e := event.New()
	e.SetID(id)
	e.SetSource(source)
	e.SetType(cloudevents.EventType{SubResource: sub, Action: action}.String())
	e.SetTime(time.Date(2026, 11, 27, 4, 30, 0, 123456789, time.UTC))
	for name, v := range ext {
		e.SetExtension(name, v)
	}
	_ = e.SetData("application/json", []byte(data))
	return e
}

// specEvent is a spec event as a source sends it, with every extension
// kind a work event carries.
func specEvent(id string, version int) event.Event {
	return workEvent(id, "maestro", cloudevents.SubResourceSpec, cloudevents.UpdateRequest, map[string]any{
		cloudevents.ExtResourceID:        "8f3c1a2e-work",
		cloudevents.ExtResourceVersion:   version,
		cloudevents.ExtClusterName:       "cluster1",
		cloudevents.ExtDeletionTimestamp: time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC),
	}, `{"manifests":[]}`)
}

// statusEvent is a status event as the agent sends it.
func statusEvent(id string) event.Event {
	return workEvent(id, "agent1", cloudevents.SubResourceStatus, cloudevents.UpdateRequest, map[string]any{
		cloudevents.ExtResourceID:      "8f3c1a2e-work",
		cloudevents.ExtResourceVersion: 3,
		cloudevents.ExtClusterName:     "cluster1",
		cloudevents.ExtOriginalSource:  "maestro",
		cloudevents.ExtSequenceID:      "1834",
		cloudevents.ExtStatusHash:      "ab12",
	}, `{"conditions":[]}`)
}

// requireSameEvent checks that got is want, attribute by attribute and
// extension by extension, with the extensions' types.
func requireSameEvent(t *testing.T, want, got event.Event) {
	t.Helper()
	require.Equal(t, want.ID(), got.ID())
	require.Equal(t, want.Source(), got.Source())
	require.Equal(t, want.Type(), got.Type())
	require.Equal(t, want.SpecVersion(), got.SpecVersion())
	require.True(t, want.Time().Equal(got.Time()), "time %s, want %s", got.Time(), want.Time())
	require.Equal(t, want.DataContentType(), got.DataContentType())
	require.Equal(t, string(want.Data()), string(got.Data()))
	require.Equal(t, want.Extensions(), got.Extensions())
}

// requireSubscriptions checks that srv has one subscription, of cluster for
// the manifestbundles data type.
func requireSubscriptions(t *testing.T, srv *grpcserver.Server, cluster string) {
	t.Helper()
	subs := srv.Subscriptions()
	require.Len(t, subs, 1)
	want := &pbv1.SubscriptionRequest{ClusterName: cluster, DataType: cloudevents.DataType}
	require.True(t, proto.Equal(want, subs[0]), "subscription %v, want %v", subs[0], want)
}

func connect(t *testing.T, addr string, opts ...cegrpc.Option) (*cegrpc.Transport, *cetest.Handler) {
	t.Helper()
	tr, err := cegrpc.New(&cegrpc.Config{URL: addr}, "cluster1", "agent1", append([]cegrpc.Option{fastBackoff}, opts...)...)
	require.NoError(t, err)
	rec := &cetest.Handler{}
	runTransport(t, tr, rec)
	return tr, rec
}

func TestEventsBothWays(t *testing.T) {
	srv, addr := startServer(t)
	tr, rec := connect(t, addr)
	require.Equal(t, addr, tr.Address())

	require.Eventually(t, func() bool {
		return rec.Counts().Connected == 1 && srv.Subscribers("cluster1") == 1
	}, wait, tick)
	requireSubscriptions(t, srv, "cluster1")

	// Source to agent.
	spec := specEvent("spec-1", 3)
	require.NoError(t, srv.Send("cluster1", spec))
	got := rec.WaitReceived(t, 1)[0]
	requireSameEvent(t, spec, got)
	assert.IsType(t, int32(0), got.Extensions()[cloudevents.ExtResourceVersion])
	assert.IsType(t, "", got.Extensions()[cloudevents.ExtResourceID])

	// Agent to source.
	st := statusEvent("status-1")
	require.NoError(t, tr.Publish(context.Background(), st))
	select {
	case pub := <-srv.Published():
		requireSameEvent(t, st, pub)
	case <-time.After(wait):
		t.Fatal("the server got no published event")
	}
}

func TestBadInputKeepsTheStream(t *testing.T) {
	srv, addr := startServer(t)
	_, rec := connect(t, addr)
	require.Eventually(t, func() bool { return srv.Subscribers("cluster1") == 1 }, wait, tick)

	// Each goes to Malformed, or is skipped, and the stream goes on.
	require.NoError(t, srv.SendRaw("cluster1", []byte{0x0a, 0x05, 'a'}))                                    // truncated
	require.NoError(t, srv.SendRaw("cluster1", []byte{0x0a, 0x01, 0xff}))                                   // id not UTF-8
	require.NoError(t, srv.SendProto("cluster1", &pbv1.CloudEvent{Id: "1", SpecVersion: "1.0", Type: "t"})) // no source
	require.NoError(t, srv.SendProto("cluster1", &pbv1.CloudEvent{Id: "2", Source: "s", SpecVersion: "0.1", Type: "t"}))
	require.NoError(t, srv.SendProto("cluster1", &pbv1.CloudEvent{Id: "3", Source: "s", SpecVersion: "1.0", Type: "t",
		Attributes: map[string]*pbv1.CloudEventAttributeValue{"ce-x": {}}})) // attribute ce-x without a value
	require.NoError(t, srv.SendProto("cluster1", &pbv1.CloudEvent{Id: "hb", SpecVersion: "1.0", Type: cegrpc.HeartbeatType}))

	// An unknown type is still a CloudEvent: what it means is the Hub's call.
	unknown := workEvent("u1", "maestro", "other", "thing", nil, "{}")
	require.NoError(t, srv.Send("cluster1", unknown))
	good := specEvent("spec-2", 4)
	require.NoError(t, srv.Send("cluster1", good))

	events := rec.WaitReceived(t, 2)
	requireSameEvent(t, unknown, events[0])
	requireSameEvent(t, good, events[1])
	errs := rec.MalformedErrors()
	require.Len(t, errs, 5)
	for i, want := range []string{"not a CloudEvent", "invalid UTF-8", "source", `spec version "0.1"`, "ce-x"} {
		assert.ErrorContains(t, errs[i], want)
	}
	got := rec.Counts()
	require.Equal(t, 1, got.Connected)
	require.Equal(t, 0, got.Disconnected)
}

func TestPublishWhileDisconnected(t *testing.T) {
	srv, addr := startServer(t)
	tr, err := cegrpc.New(&cegrpc.Config{URL: addr}, "cluster1", "agent1", fastBackoff)
	require.NoError(t, err)

	// Before Run.
	err = tr.Publish(context.Background(), statusEvent("s1"))
	require.ErrorIs(t, err, cloudevents.ErrDisconnected)

	rec := &cetest.Handler{}
	runTransport(t, tr, rec)
	require.Eventually(t, func() bool { return rec.Counts().Connected == 1 }, wait, tick)
	require.NoError(t, tr.Publish(context.Background(), statusEvent("s2")))

	// The server is gone: at once, no waiting for a timeout.
	srv.Stop()
	require.Eventually(t, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return errors.Is(tr.Publish(ctx, statusEvent("s3")), cloudevents.ErrDisconnected)
	}, wait, tick)
	require.Eventually(t, func() bool { return rec.Counts().Disconnected >= 1 }, wait, tick)
	require.ErrorIs(t, tr.Publish(context.Background(), statusEvent("s4")), cloudevents.ErrDisconnected)
}

func TestReconnectAfterServerRestart(t *testing.T) {
	srv, addr := startServer(t)
	tr, rec := connect(t, addr)
	require.Eventually(t, func() bool { return srv.Subscribers("cluster1") == 1 }, wait, tick)
	require.NoError(t, srv.Send("cluster1", specEvent("before", 1)))
	rec.WaitReceived(t, 1)

	srv.Stop()
	require.Eventually(t, func() bool { return rec.Counts().Disconnected == 1 }, wait, tick)

	// A new server on the same address, as a restarted process.
	srv2 := grpcserver.New()
	got, err := srv2.Start(addr)
	require.NoError(t, err)
	t.Cleanup(srv2.Stop)
	require.Equal(t, addr, got)

	require.Eventually(t, func() bool {
		return rec.Counts().Connected == 2 && srv2.Subscribers("cluster1") == 1
	}, wait, tick)
	after := specEvent("after", 2)
	require.NoError(t, srv2.Send("cluster1", after))
	requireSameEvent(t, after, rec.WaitReceived(t, 2)[1])

	require.NoError(t, tr.Publish(context.Background(), statusEvent("s-after")))
	select {
	case pub := <-srv2.Published():
		require.Equal(t, "s-after", pub.ID())
	case <-time.After(wait):
		t.Fatal("the restarted server got no published event")
	}
	require.Equal(t, 1, rec.Counts().Disconnected)
}

func TestHeartbeats(t *testing.T) {
	srv, addr := startServer(t)
	cfg := &cegrpc.Config{URL: addr, ServerHealthinessTimeout: 100 * time.Millisecond}
	tr, err := cegrpc.New(cfg, "cluster1", "agent1", fastBackoff)
	require.NoError(t, err)
	rec := &cetest.Handler{}
	runTransport(t, tr, rec)
	require.Eventually(t, func() bool { return srv.Subscribers("cluster1") == 1 }, wait, tick)

	// No heartbeat yet: a server without them is not taken for dead. One
	// heartbeat arms the check; none after it drops the subscription.
	heartbeat := &pbv1.CloudEvent{Id: "hb1", SpecVersion: "1.0", Type: cegrpc.HeartbeatType}
	require.NoError(t, srv.SendProto("cluster1", heartbeat))
	require.Eventually(t, func() bool {
		got := rec.Counts()
		return got.Disconnected >= 1 && got.Connected >= 2
	}, wait, tick)
	require.ErrorContains(t, rec.DisconnectErrors()[0], "no heartbeat from the server for 100ms")
	got := rec.Counts()
	require.Zero(t, got.Received)
	require.Zero(t, got.Malformed)
}

func TestHeartbeatsKeepTheSubscription(t *testing.T) {
	srv, addr := startServer(t, grpcserver.WithHeartbeat(10*time.Millisecond))
	cfg := &cegrpc.Config{URL: addr, ServerHealthinessTimeout: 5 * time.Second}
	tr, err := cegrpc.New(cfg, "cluster1", "agent1", fastBackoff)
	require.NoError(t, err)
	rec := &cetest.Handler{}
	runTransport(t, tr, rec)
	require.Eventually(t, func() bool { return srv.Subscribers("cluster1") == 1 }, wait, tick)

	// Heartbeats flow (10 ms apart) and never reach the Handler; the event
	// sent after them is the first the Handler gets.
	marker := specEvent("after-heartbeats", 1)
	require.Eventually(t, func() bool { return srv.Send("cluster1", marker) == nil }, wait, tick)
	require.Eventually(t, func() bool { return len(rec.Received()) >= 1 }, wait, tick)
	require.Equal(t, "after-heartbeats", rec.Received()[0].ID())
	got := rec.Counts()
	require.Equal(t, 1, got.Connected)
	require.Zero(t, got.Disconnected)
	require.Zero(t, got.Malformed)
}

func TestTLSAndToken(t *testing.T) {
	ca := cetest.NewCA(t)
	clientCert, clientKey := ca.Issue(t, "agent1", x509.ExtKeyUsageClientAuth)
	otherCA := cetest.NewCA(t)

	tests := []struct {
		name       string
		server     []grpcserver.Option
		cfg        cegrpc.Config
		wantReject bool

		wantHandshakeFailure bool
	}{
		{
			name:   "right token",
			server: []grpcserver.Option{grpcserver.WithTLS(ca.ServerTLS(t, false)), grpcserver.WithToken("s3cret")},
			cfg:    cegrpc.Config{CAData: ca.PEM, Token: "s3cret"},
		},
		{
			name:       "wrong token",
			server:     []grpcserver.Option{grpcserver.WithTLS(ca.ServerTLS(t, false)), grpcserver.WithToken("s3cret")},
			cfg:        cegrpc.Config{CAData: ca.PEM, Token: "guess"},
			wantReject: true,
		},
		{
			name:   "client certificate",
			server: []grpcserver.Option{grpcserver.WithTLS(ca.ServerTLS(t, true))},
			cfg:    cegrpc.Config{CAData: ca.PEM, ClientCertData: clientCert, ClientKeyData: clientKey},
		},
		{
			name:   "client certificate and token",
			server: []grpcserver.Option{grpcserver.WithTLS(ca.ServerTLS(t, true)), grpcserver.WithToken("s3cret")},
			cfg:    cegrpc.Config{CAData: ca.PEM, ClientCertData: clientCert, ClientKeyData: clientKey, Token: "s3cret"},
		},
		{
			name:       "client certificate without the token",
			server:     []grpcserver.Option{grpcserver.WithTLS(ca.ServerTLS(t, true)), grpcserver.WithToken("s3cret")},
			cfg:        cegrpc.Config{CAData: ca.PEM, ClientCertData: clientCert, ClientKeyData: clientKey},
			wantReject: true,
		},
		{
			name:                 "server of an unknown CA",
			server:               []grpcserver.Option{grpcserver.WithTLS(otherCA.ServerTLS(t, false))},
			cfg:                  cegrpc.Config{CAData: ca.PEM, Token: "s3cret"},
			wantHandshakeFailure: true,
		},
		{
			name:                 "client certificate of an unknown CA",
			server:               []grpcserver.Option{grpcserver.WithTLS(otherCA.ServerTLS(t, true))},
			cfg:                  cegrpc.Config{CAData: otherCA.PEM, ClientCertData: clientCert, ClientKeyData: clientKey},
			wantHandshakeFailure: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := grpcserver.New(tt.server...)
			l, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			lis := &countingListener{Listener: l}
			go func() { _ = srv.Serve(lis) }()
			t.Cleanup(srv.Stop)
			cfg := tt.cfg
			cfg.URL = l.Addr().String()
			require.True(t, cfg.UseTLS())
			tr, err := cegrpc.New(&cfg, "cluster1", "agent1", fastBackoff)
			require.NoError(t, err)
			rec := &cetest.Handler{}
			runTransport(t, tr, rec)

			if tt.wantReject {
				require.Eventually(t, func() bool { return srv.Rejected() >= 2 }, wait, tick)
				require.Zero(t, rec.Counts().Connected, "connected with a refused token")
				require.Zero(t, srv.Subscribers("cluster1"))
				return
			}
			if tt.wantHandshakeFailure {
				// The client tried again and again, and never subscribed.
				require.Eventually(t, func() bool { return lis.accepted.Load() >= 3 }, wait, tick)
				require.Zero(t, rec.Counts().Connected, "connected to a server of an unknown CA")
				require.ErrorIs(t, tr.Publish(context.Background(), statusEvent("s")), cloudevents.ErrDisconnected)
				return
			}
			require.Eventually(t, func() bool {
				return rec.Counts().Connected == 1 && srv.Subscribers("cluster1") == 1
			}, wait, tick)
			require.NoError(t, tr.Publish(context.Background(), statusEvent("s1")))
			select {
			case pub := <-srv.Published():
				require.Equal(t, "s1", pub.ID())
			case <-time.After(wait):
				t.Fatal("the server got no published event")
			}
			require.Zero(t, srv.Rejected())
		})
	}
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	accepted atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

func TestLargeEvents(t *testing.T) {
	srv, addr := startServer(t)
	tr, rec := connect(t, addr)
	require.Eventually(t, func() bool { return srv.Subscribers("cluster1") == 1 }, wait, tick)

	// Over gRPC's default limit of 4 MiB, both ways.
	big := `{"manifests":"` + strings.Repeat("x", 5<<20) + `"}`
	spec := workEvent("big-spec", "maestro", cloudevents.SubResourceSpec, cloudevents.CreateRequest, nil, big)
	require.NoError(t, srv.Send("cluster1", spec))
	require.Len(t, rec.WaitReceived(t, 1)[0].Data(), len(big))

	status := workEvent("big-status", "agent1", cloudevents.SubResourceStatus, cloudevents.UpdateRequest, nil, big)
	require.NoError(t, tr.Publish(context.Background(), status))
	select {
	case pub := <-srv.Published():
		require.Len(t, pub.Data(), len(big))
	case <-time.After(wait):
		t.Fatal("the server got no published event")
	}
	got := rec.Counts()
	require.Zero(t, got.Disconnected)
	require.Zero(t, got.Malformed)
}

func TestClientCertificateRenewed(t *testing.T) {
	ca := cetest.NewCA(t)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	writePair := func(name string) {
		certPEM, keyPEM := ca.Issue(t, name, x509.ExtKeyUsageClientAuth)
		require.NoError(t, os.WriteFile(certFile, certPEM, 0o600))
		require.NoError(t, os.WriteFile(keyFile, keyPEM, 0o600))
	}
	writePair("agent1")

	srv, addr := startServer(t, grpcserver.WithTLS(ca.ServerTLS(t, true)))
	cfg := &cegrpc.Config{URL: addr, CAData: ca.PEM, ClientCertFile: certFile, ClientKeyFile: keyFile}
	tr, err := cegrpc.New(cfg, "cluster1", "agent1", fastBackoff)
	require.NoError(t, err)
	rec := &cetest.Handler{}
	runTransport(t, tr, rec)
	require.Eventually(t, func() bool { return srv.Subscribers("cluster1") == 1 }, wait, tick)

	// A renewed certificate in the same files: the transport connects again
	// with it.
	writePair("agent1-renewed")
	require.Eventually(t, func() bool { return rec.Counts().Connected == 2 }, wait, tick)
	require.ErrorContains(t, rec.DisconnectErrors()[0], "the client certificate changed")
	require.Eventually(t, func() bool { return srv.Subscribers("cluster1") == 1 }, wait, tick)
	require.NoError(t, tr.Publish(context.Background(), statusEvent("after-renewal")))
}
