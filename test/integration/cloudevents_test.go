package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/manifestwork/work/pkg/agent"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/cloudevents/grpcserver"
	"github.com/manifestwork/work/test/cloudevents/mqtttest"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// ceCluster is the managed cluster of the CloudEvents tests: the source
// addresses its works to it; the API server only holds what is applied.
const ceCluster = "ce-cluster"

// ceNamespace holds the objects the works of these tests apply.
const ceNamespace = "integration-cloudevents"

// runSource starts a source on link and returns it; it stops with the test.
func runSource(t *testing.T, id string, link framework.SourceLink) *framework.Source {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	source := framework.NewSource(id, link)
	go source.Run(ctx)
	return source
}

// runCloudEventsAgent runs the agent with a CloudEvents driver and the
// given config file.
func runCloudEventsAgent(t *testing.T, s *framework.APIServer, driver, config string) (stop func()) {
	return runAgent(t, s, func(o *agent.Options) {
		o.ClusterName = ceCluster
		o.HubKubeconfig = ""
		o.WorkloadSourceDriver, o.WorkloadSourceConfig = driver, config
	})
}

// mqttSetup starts a broker, a source on it, and the agent.
func mqttSetup(t *testing.T, s *framework.APIServer, sourceID string) (*mqtttest.Broker, *framework.Source) {
	broker := mqtttest.Start(t)
	link, err := framework.NewMQTTSourceLink(t.Context(), broker.Addr(), sourceID)
	require.NoError(t, err)
	source := runSource(t, sourceID, link)
	config, err := framework.WriteMQTTConfig(t.TempDir(), broker.Addr(), sourceID)
	require.NoError(t, err)
	runCloudEventsAgent(t, s, "mqtt", config)
	return broker, source
}

// ceWork is a work of one ConfigMap with a feedback rule on its data.
func ceWork(name, value string) *workv1.ManifestWork {
	config := fixture.Config("", "configmaps", ceNamespace, name)
	config.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.JSONPathsType, JsonPaths: []workv1.JsonPath{{Name: "value", Path: ".data.key"}}}}
	return fixture.NewWork(ceCluster, name).WithUID(types.UID("rid-" + name)).
		WithManifest(fixture.ConfigMap(ceNamespace, name, map[string]string{"key": value})).WithConfig(config).Build()
}

// waitForStatus waits until the source holds a status of the work, for
// the given version, that passes check.
func waitForStatus(t *testing.T, source *framework.Source, resourceID string, version int64, check func(fixture.Status) error) fixture.Status {
	t.Helper()
	var got fixture.Status
	framework.Eventually(t, convergeTimeout, func() error {
		st, ok := source.Status(resourceID)
		if !ok {
			return errors.New("no status yet")
		}
		if st.Version != version {
			return fmt.Errorf("status of version %d, want %d", st.Version, version)
		}
		got = st
		return check(st)
	}, "status of %s", resourceID)
	return got
}

func appliedAndAvailable(st fixture.Status) error {
	for _, c := range []string{workv1.WorkApplied, workv1.WorkAvailable} {
		cond := apimeta.FindStatusCondition(st.Status.Conditions, c)
		if cond == nil || cond.Status != metav1.ConditionTrue || cond.ObservedGeneration != st.Version {
			return fmt.Errorf("%s is not True for generation %d: %v", c, st.Version, st.Status.Conditions)
		}
	}
	return nil
}

func feedbackIs(value string) func(fixture.Status) error {
	return func(st fixture.Status) error {
		if err := appliedAndAvailable(st); err != nil {
			return err
		}
		for _, m := range st.Status.ResourceStatus.Manifests {
			for _, v := range m.StatusFeedbacks.Values {
				if v.Name == "value" && v.Value.String != nil && *v.Value.String == value {
					return nil
				}
			}
		}
		return fmt.Errorf("no feedback value %q: %+v", value, st.Status.ResourceStatus.Manifests)
	}
}

func configMapValue(ctx context.Context, s *framework.APIServer, name string) (string, error) {
	cm, err := s.Kube.CoreV1().ConfigMaps(ceNamespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	return cm.Data["key"], nil
}

// A work from a source over MQTT is applied, reported with its status
// feedback, updated and deleted, as a work from a hub's API server.
func TestCloudEventsLifecycle(t *testing.T) {
	s, ctx := setup(t)
	require.NoError(t, s.EnsureNamespaces(ctx, ceNamespace))
	drivers := []struct {
		name  string
		setup func(t *testing.T) *framework.Source
	}{
		{"mqtt", func(t *testing.T) *framework.Source { _, source := mqttSetup(t, s, "maestro"); return source }},
		{"grpc", func(t *testing.T) *framework.Source { _, source := grpcSetup(t, s, "grpc-source"); return source }},
	}
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) {
			source := d.setup(t)
			name := "lifecycle-" + d.name
			work := ceWork(name, "one")
			version, err := source.Apply(ctx, work)
			require.NoError(t, err)
			st := waitForStatus(t, source, "rid-"+name, version, feedbackIs("one"))
			require.Equal(t, agentClientID, st.Source)
			require.Equal(t, ceCluster, st.Cluster)

			version, err = source.Apply(ctx, ceWork(name, "two"))
			require.NoError(t, err)
			waitForStatus(t, source, "rid-"+name, version, feedbackIs("two"))
			value, err := configMapValue(ctx, s, name)
			require.NoError(t, err)
			require.Equal(t, "two", value)

			require.NoError(t, source.Delete(ctx, ceCluster, "rid-"+name))
			framework.Eventually(t, convergeTimeout, func() error {
				if source.Has("rid-" + name) {
					return errors.New("the source has not had the last status")
				}
				_, err := configMapValue(ctx, s, name)
				if !apierrors.IsNotFound(err) {
					return fmt.Errorf("the ConfigMap is still there: %v", err)
				}
				return nil
			})
			last, _ := source.Status("rid-" + name)
			require.True(t, apimeta.IsStatusConditionTrue(last.Status.Conditions, "Deleted"), "last status: %v", last.Status.Conditions)
		})
	}
}

// agentClientID is the agent's --cloudevents-client-id by default.
const agentClientID = ceCluster + "-work-agent"

// A broker that restarts empty loses nothing: the agent keeps repairing
// drift while it is away, asks for the specs it missed once it is back, and
// sends its latest status.
func TestCloudEventsBrokerRestart(t *testing.T) {
	s, ctx := setup(t)
	require.NoError(t, s.EnsureNamespaces(ctx, ceNamespace))
	broker, source := mqttSetup(t, s, "maestro")
	version, err := source.Apply(ctx, ceWork("restart", "one"))
	require.NoError(t, err)
	waitForStatus(t, source, "rid-restart", version, feedbackIs("one"))
	resyncs := source.Resyncs()

	broker.Stop()
	// Drift while the broker is away is repaired.
	cm, err := s.Kube.CoreV1().ConfigMaps(ceNamespace).Get(ctx, "restart", metav1.GetOptions{})
	require.NoError(t, err)
	cm.Data["key"] = "drifted"
	_, err = s.Kube.CoreV1().ConfigMaps(ceNamespace).Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	framework.Eventually(t, convergeTimeout, func() error {
		value, err := configMapValue(ctx, s, "restart")
		if err == nil && value != "one" {
			err = fmt.Errorf("value %q", value)
		}
		return err
	}, "drift repaired while the broker is down")
	// A spec change the agent cannot hear now.
	sendCtx, cancel := context.WithTimeout(ctx, time.Second)
	version, err = source.Apply(sendCtx, ceWork("restart", "two"))
	cancel()
	require.Error(t, err, "the broker is down")

	broker.Restart()
	waitForStatus(t, source, "rid-restart", version, feedbackIs("two"))
	require.Greater(t, source.Resyncs(), resyncs, "the agent asked for the specs it missed")
}

// A source that restarted without its statuses asks for them and gets each
// work's status again.
func TestCloudEventsStatusResync(t *testing.T) {
	s, ctx := setup(t)
	require.NoError(t, s.EnsureNamespaces(ctx, ceNamespace))
	_, source := mqttSetup(t, s, "maestro")
	version, err := source.Apply(ctx, ceWork("resync", "one"))
	require.NoError(t, err)
	waitForStatus(t, source, "rid-resync", version, feedbackIs("one"))

	source.Forget()
	require.NoError(t, source.RequestStatus(ctx, ceCluster, false))
	waitForStatus(t, source, "rid-resync", version, feedbackIs("one"))
}

// Bad input never stops the agent: a message that is no CloudEvent, an
// event of an unknown type and a spec too large for the hub's webhook are
// dropped or refused with a condition, and the next good work is applied.
func TestCloudEventsBadInput(t *testing.T) {
	s, ctx := setup(t)
	require.NoError(t, s.EnsureNamespaces(ctx, ceNamespace))
	server, source := grpcSetup(t, s, "grpc-source")
	framework.Eventually(t, convergeTimeout, func() error {
		if server.Subscribers(ceCluster) == 0 {
			return errors.New("the agent has not subscribed")
		}
		return nil
	})

	require.NoError(t, server.SendRaw(ceCluster, []byte{0xff, 0x01, 0x02}))
	unknown := fixture.SpecEvent("grpc-source", fixture.SpecCreateType, ceWork("unknown", "x"), 1)
	unknown.SetType("io.open-cluster-management.works.v1alpha1.widgets.spec.create_request")
	require.NoError(t, server.Send(ceCluster, unknown))

	big := ceWork("big", strings.Repeat("x", 600*1024))
	version, err := source.Apply(ctx, big)
	require.NoError(t, err)
	st := waitForStatus(t, source, "rid-big", version, func(st fixture.Status) error {
		c := apimeta.FindStatusCondition(st.Status.Conditions, workv1.WorkStalled)
		if c == nil || c.Reason != "InvalidSpec" {
			return fmt.Errorf("no InvalidSpec: %v", st.Status.Conditions)
		}
		return nil
	})
	t.Log(apimeta.FindStatusCondition(st.Status.Conditions, workv1.WorkStalled).Message)

	version, err = source.Apply(ctx, ceWork("after-bad-input", "ok"))
	require.NoError(t, err)
	waitForStatus(t, source, "rid-after-bad-input", version, feedbackIs("ok"))
	for _, name := range []string{"big", "unknown"} {
		_, err = s.Kube.CoreV1().ConfigMaps(ceNamespace).Get(ctx, name, metav1.GetOptions{})
		require.True(t, apierrors.IsNotFound(err), "nothing of the refused work %s is applied: %v", name, err)
	}
}

// grpcSetup starts a gRPC server playing the source, and the agent.
func grpcSetup(t *testing.T, s *framework.APIServer, sourceID string) (*grpcserver.Server, *framework.Source) {
	server := grpcserver.New()
	addr, err := server.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(server.Stop)
	source := runSource(t, sourceID, framework.GRPCSourceLink{Server: server})
	config := filepath.Join(t.TempDir(), "grpc.yaml")
	require.NoError(t, os.WriteFile(config, []byte("url: "+addr+"\n"), 0o600))
	runCloudEventsAgent(t, s, "grpc", config)
	return server, source
}
