package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/protocol/mqtt_paho/v2"
	"github.com/cloudevents/sdk-go/v2/binding"
	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	"github.com/eclipse/paho.golang/paho"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/controllers/finalize"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/cloudevents/grpcserver"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// The CloudEvents tests run on cluster2, with agents of their own started
// and stopped by each test; every work they create is deleted through the
// source before the test ends, so that no AppliedManifestWork of theirs is
// left for the kube driver's agents.
const ceCluster = "cluster2"

// ceSource is a source on a real MQTT broker process: the broker, the
// source's client in this process, and the agent's config file.
type ceSource struct {
	*framework.Source
	broker *framework.MQTTBroker
	config string
	link   *framework.MQTTSourceLink
}

func startMQTTSource(t *testing.T, e *framework.E2E, id string) *ceSource {
	t.Helper()
	broker, err := e.StartMQTTBroker(framework.MQTTBrokerBinary(t))
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = broker.Stop(convergeTimeout) })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	link, err := framework.NewMQTTSourceLink(ctx, broker.Addr, id)
	require.NoError(t, err)
	source := framework.NewSource(id, link)
	go source.Run(ctx)
	config, err := framework.WriteMQTTConfig(t.TempDir(), broker.Addr, id)
	require.NoError(t, err)
	return &ceSource{Source: source, broker: broker, config: config, link: link}
}

// ceAgentArgs are the arguments of an agent on a CloudEvents driver.
func ceAgentArgs(driver, config string) []string {
	return []string{"--workload-source-driver=" + driver, "--workload-source-config=" + config,
		"--cloudevents-client-id=" + ceCluster + "-work-agent"}
}

// ceWork is a work of a Deployment and a ConfigMap whose data is value,
// with feedback on both; the ConfigMap's is watched rather than polled.
func ceWork(ns, name, value string) *workv1.ManifestWork {
	cm := fixture.Config("", "configmaps", ns, name)
	cm.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.JSONPathsType, JsonPaths: []workv1.JsonPath{{Name: "value", Path: ".data.key"}}}}
	cm.FeedbackScrapeType = workv1.FeedbackWatchType // a field newer than OCM v1.0's api, carried by the event
	deploy := fixture.Config("apps", "deployments", ns, name)
	deploy.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	return fixture.NewWork(ceCluster, name).WithUID(types.UID("rid-"+name)).
		WithManifest(fixture.ConfigMap(ns, name, map[string]string{"key": value}), fixture.Deployment(ns, name, 1)).
		WithConfig(cm).WithConfig(deploy).Build()
}

// waitSourceStatus waits until the source holds a status of the work for
// the version that passes check.
func waitSourceStatus(t *testing.T, source *framework.Source, resourceID string, version int64, check func(fixture.Status) error) fixture.Status {
	t.Helper()
	var got fixture.Status
	framework.Eventually(t, convergeTimeout, func() error {
		st, ok := source.Status(resourceID)
		switch {
		case !ok:
			return errors.New("no status yet")
		case st.Version != version:
			return fmt.Errorf("status of version %d, want %d", st.Version, version)
		}
		got = st
		return check(st)
	}, "the source's status of %s", resourceID)
	return got
}

// ceRolledOut: Applied and Available for the version, with the ConfigMap's
// value and the Deployment's ready replicas in the feedback.
func ceRolledOut(value string) func(fixture.Status) error {
	return func(st fixture.Status) error {
		for _, c := range []string{workv1.WorkApplied, workv1.WorkAvailable} {
			cond := apimeta.FindStatusCondition(st.Status.Conditions, c)
			if cond == nil || cond.Status != metav1.ConditionTrue || cond.ObservedGeneration != st.Version {
				return fmt.Errorf("%s is not True for generation %d: %v", c, st.Version, st.Status.Conditions)
			}
		}
		values := map[string]string{}
		for _, m := range st.Status.ResourceStatus.Manifests {
			for _, v := range m.StatusFeedbacks.Values {
				switch {
				case v.Value.String != nil:
					values[m.ResourceMeta.Kind+"/"+v.Name] = *v.Value.String
				case v.Value.Integer != nil:
					values[m.ResourceMeta.Kind+"/"+v.Name] = fmt.Sprint(*v.Value.Integer)
				}
			}
		}
		if values["ConfigMap/value"] != value || values["Deployment/ReadyReplicas"] != "1" {
			return fmt.Errorf("feedback %v, want ConfigMap/value=%s and Deployment/ReadyReplicas=1", values, value)
		}
		return nil
	}
}

// deleteThroughSource deletes the work at the source and waits until the
// agent has cleaned up and sent its last status.
func deleteThroughSource(t *testing.T, source *framework.Source, ns, name string) {
	t.Helper()
	require.NoError(t, source.Delete(t.Context(), ceCluster, "rid-"+name))
	framework.Eventually(t, convergeTimeout, func() error {
		if source.Has("rid-" + name) {
			return errors.New("the source has not had the work's last status")
		}
		_, err := env.Cluster(ceCluster).Kube.CoreV1().ConfigMaps(ns).Get(t.Context(), name, metav1.GetOptions{})
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("the ConfigMap is still there: %v", err)
		}
		return nil
	}, "deletion of %s", name)
	last, _ := source.Status("rid-" + name)
	require.True(t, apimeta.IsStatusConditionTrue(last.Status.Conditions, "Deleted"), "last status: %v", last.Status.Conditions)
}

func ceNamespace(t *testing.T, ns string) {
	t.Helper()
	require.NoError(t, env.Cluster(ceCluster).EnsureNamespaces(t.Context(), ns))
}

func configMapValue(t *testing.T, ns, name string) (string, string, error) {
	cm, err := env.Cluster(ceCluster).Kube.CoreV1().ConfigMaps(ns).Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		return "", "", err
	}
	return cm.Data["key"], cm.ResourceVersion, nil
}

// Works from a source over a real MQTT broker: applied, reported with
// feedback, updated, kept through a broker restart and an agent killed
// while specs change, reported again to a source that forgot, deleted;
// bad input is refused and the agent goes on.
func TestCloudEventsOverMQTT(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	ns := "e2e-cloudevents-mqtt"
	ceNamespace(t, ns)
	source := startMQTTSource(t, e, "maestro")
	agent := startAgent(t, ceCluster, ceAgentArgs("mqtt", source.config)...)

	version, err := source.Apply(ctx, ceWork(ns, "web", "one"))
	require.NoError(t, err)
	st := waitSourceStatus(t, source.Source, "rid-web", version, ceRolledOut("one"))
	require.Equal(t, "maestro", st.Original)
	applied := appliedwork.Name(appliedwork.HubHash(source.broker.Addr), "web")
	_, err = e.Cluster(ceCluster).Work.WorkV1().AppliedManifestWorks().Get(ctx, applied, metav1.GetOptions{})
	require.NoError(t, err, "the AppliedManifestWork is named after the broker's address and the name in the event's metadata")

	version, err = source.Apply(ctx, ceWork(ns, "web", "two"))
	require.NoError(t, err)
	waitSourceStatus(t, source.Source, "rid-web", version, ceRolledOut("two"))

	t.Log("The broker restarts, empty, while a spec changes and a new work is created.")
	_, err = source.broker.Stop(convergeTimeout)
	require.NoError(t, err)
	down, cancel := context.WithTimeout(ctx, time.Second)
	version, err = source.Apply(down, ceWork(ns, "web", "three"))
	require.Error(t, err)
	newVersion, err := source.Apply(down, ceWork(ns, "api", "new"))
	require.Error(t, err)
	cancel()
	require.NoError(t, source.broker.Start())
	waitSourceStatus(t, source.Source, "rid-web", version, ceRolledOut("three"))
	waitSourceStatus(t, source.Source, "rid-api", newVersion, ceRolledOut("new"))

	t.Log("The agent is SIGKILLed; a spec changes while it is away.")
	_, err = agent.Kill()
	require.NoError(t, err)
	version, err = source.Apply(ctx, ceWork(ns, "web", "four"))
	require.NoError(t, err)
	require.NoError(t, agent.Start())
	waitSourceStatus(t, source.Source, "rid-web", version, ceRolledOut("four"))

	t.Log("The source restarts without the statuses, and asks for them.")
	source.Forget()
	require.NoError(t, source.RequestStatus(ctx, ceCluster, false))
	waitSourceStatus(t, source.Source, "rid-web", version, ceRolledOut("four"))
	waitSourceStatus(t, source.Source, "rid-api", newVersion, ceRolledOut("new"))

	t.Log("Bad input: a message that is no CloudEvent, an unknown type, a spec too large.")
	sourceEvents, _ := framework.MQTTTopics("maestro")
	topic := strings.Replace(sourceEvents, "+", ceCluster, 1)
	require.NoError(t, source.link.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: []byte("{not json")}))
	unknown := fixture.SpecEvent("maestro", fixture.SpecCreateType, ceWork(ns, "unknown", "x"), 1)
	unknown.SetType("io.open-cluster-management.works.v1alpha1.widgets.spec.create_request")
	msg := &paho.Publish{Topic: topic, QoS: 1}
	require.NoError(t, mqtt_paho.WritePubMessage(ctx, binding.ToMessage(&unknown), msg))
	require.NoError(t, source.link.Publish(ctx, msg))
	bigVersion, err := source.Apply(ctx, ceWork(ns, "big", strings.Repeat("x", 600*1024)))
	require.NoError(t, err)
	waitSourceStatus(t, source.Source, "rid-big", bigVersion, func(st fixture.Status) error {
		c := apimeta.FindStatusCondition(st.Status.Conditions, workv1.WorkStalled)
		if c == nil || c.Reason != "InvalidSpec" || !strings.Contains(c.Message, "exceeds the 512000 limit") {
			return fmt.Errorf("no InvalidSpec naming the limit: %v", st.Status.Conditions)
		}
		return nil
	})
	require.True(t, agent.Running(), "bad input never stops the agent")
	log, err := os.ReadFile(agent.LogPath)
	require.NoError(t, err)
	require.Contains(t, string(log), "Dropped a message that is not a CloudEvent")
	require.Contains(t, string(log), "Dropped an event of a type the agent does not know")
	_, _, err = configMapValue(t, ns, "unknown")
	require.True(t, apierrors.IsNotFound(err), "the unknown event applied nothing: %v", err)

	for _, name := range []string{"web", "api", "big"} {
		deleteThroughSource(t, source.Source, ns, name)
	}
	log, err = os.ReadFile(agent.LogPath)
	require.NoError(t, err)
	require.Contains(t, string(log), `"Event" work="web" type="Normal" reason="`+finalize.EventResourcesCleanedUp+`"`,
		"with no hub kube-apiserver, Events on works go to the agent's log")
	_, err = e.Cluster(ceCluster).Work.WorkV1().AppliedManifestWorks().Get(ctx, applied, metav1.GetOptions{})
	require.True(t, apierrors.IsNotFound(err), "the AppliedManifestWork is gone: %v", err)
}

// Works from a gRPC server, as OCM's gRPC server and Maestro's deliver them:
// applied and reported, kept through a server restart, deleted.
func TestCloudEventsOverGRPC(t *testing.T) {
	setup(t)
	ctx := t.Context()
	ns := "e2e-cloudevents-grpc"
	ceNamespace(t, ns)
	server := grpcserver.New()
	addr, err := server.Start("127.0.0.1:0")
	require.NoError(t, err)
	runCtx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	link := &restartableGRPCLink{}
	link.set(server)
	source := framework.NewSource("grpc-source", link)
	go source.Run(runCtx)
	config := filepath.Join(t.TempDir(), "grpc.yaml")
	require.NoError(t, os.WriteFile(config, []byte("url: "+addr+"\n"), 0o600))
	startAgent(t, ceCluster, ceAgentArgs("grpc", config)...)

	version, err := source.Apply(ctx, ceWork(ns, "web", "one"))
	require.NoError(t, err)
	waitSourceStatus(t, source, "rid-web", version, ceRolledOut("one"))

	t.Log("The server restarts; a spec changed meanwhile reaches the agent through its resync.")
	server.Stop()
	restarted := grpcserver.New()
	t.Cleanup(restarted.Stop)
	link.set(restarted)
	version, err = link.record(source, ceWork(ns, "web", "two"))
	require.NoError(t, err)
	_, err = restarted.Start(addr)
	require.NoError(t, err)
	waitSourceStatus(t, source, "rid-web", version, ceRolledOut("two"))

	deleteThroughSource(t, source, ns, "web")
}

// OCM's v1.0.0 agent and ours take turns on the same source, over MQTT and
// over gRPC: each takes over the other's AppliedManifestWork, reports the
// work, and writes nothing to the objects. Over gRPC this also shows that
// OCM's generated protobuf code and our hand-written messages read each
// other: OCM's agent reads our server's events and our server reads OCM's.
func TestCloudEventsSwapWithOCMAgent(t *testing.T) {
	e := setup(t)
	ocmBinary := framework.OCMAgentBinary(t)
	drivers := []struct {
		name  string
		start func(t *testing.T) (*framework.Source, []string, string)
	}{
		{"mqtt", func(t *testing.T) (*framework.Source, []string, string) {
			source := startMQTTSource(t, e, "maestro")
			return source.Source, ceAgentArgs("mqtt", source.config), source.broker.Addr
		}},
		{"grpc", func(t *testing.T) (*framework.Source, []string, string) {
			server := grpcserver.New()
			addr, err := server.Start("127.0.0.1:0")
			require.NoError(t, err)
			t.Cleanup(server.Stop)
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			source := framework.NewSource("grpc-source", framework.GRPCSourceLink{Server: server})
			go source.Run(ctx)
			config := filepath.Join(t.TempDir(), "grpc.yaml")
			require.NoError(t, os.WriteFile(config, []byte("url: "+addr+"\n"), 0o600))
			return source, ceAgentArgs("grpc", config), addr
		}},
	}
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) {
			ctx := t.Context()
			ns := "e2e-cloudevents-swap-" + d.name
			ceNamespace(t, ns)
			source, args, address := d.start(t)

			ocm, err := e.StartOCMAgent(ocmBinary, ceCluster, args...)
			require.NoError(t, err)
			t.Cleanup(func() { _, _ = ocm.Stop(convergeTimeout) })
			version, err := source.Apply(ctx, ceWork(ns, "swap", "one"))
			require.NoError(t, err)
			waitSourceStatus(t, source, "rid-swap", version, ceRolledOut("one"))
			_, before, err := configMapValue(t, ns, "swap")
			require.NoError(t, err)
			deploy, err := e.Cluster(ceCluster).Kube.AppsV1().Deployments(ns).Get(ctx, "swap", metav1.GetOptions{})
			require.NoError(t, err)
			applied := appliedwork.Name(appliedwork.HubHash(address), "rid-swap")
			_, err = e.Cluster(ceCluster).Work.WorkV1().AppliedManifestWorks().Get(ctx, applied, metav1.GetOptions{})
			require.NoError(t, err, "OCM v1.0.0's agent names the AppliedManifestWork after the resource id, and ours takes it over")

			sent := len(source.Received())
			_, err = ocm.Stop(convergeTimeout)
			require.NoError(t, err)
			ours := startAgent(t, ceCluster, args...)
			framework.Eventually(t, convergeTimeout, func() error {
				for _, st := range source.Received()[sent:] {
					if st.Source == ceCluster+"-work-agent" && ceRolledOut("one")(st) == nil {
						return nil
					}
				}
				return errors.New("no status from our agent yet")
			})
			source.Forget()
			require.NoError(t, source.RequestStatus(ctx, ceCluster, true))
			waitSourceStatus(t, source, "rid-swap", version, ceRolledOut("one"))

			_, after, err := configMapValue(t, ns, "swap")
			require.NoError(t, err)
			require.Equal(t, before, after, "our agent did not write the ConfigMap")
			deployAfter, err := e.Cluster(ceCluster).Kube.AppsV1().Deployments(ns).Get(ctx, "swap", metav1.GetOptions{})
			require.NoError(t, err)
			require.Equal(t, deploy.Generation, deployAfter.Generation, "our agent did not change the Deployment's spec")

			t.Log("And back to OCM's agent, which deletes the work.")
			_, err = ours.Stop(convergeTimeout)
			require.NoError(t, err)
			require.NoError(t, ocm.Start())
			require.NoError(t, ocm.WaitReady(convergeTimeout))
			// OCM's agent answers for the work once it has subscribed and
			// holds it again; a request sent before that is lost, so it is
			// sent again until the answer comes.
			source.Forget()
			framework.Eventually(t, convergeTimeout, func() error {
				if st, ok := source.Status("rid-swap"); ok && ceRolledOut("one")(st) == nil {
					return nil
				}
				_ = source.RequestStatus(ctx, ceCluster, true)
				return errors.New("OCM's agent has not answered a status resync yet")
			}, "OCM's agent reports the work again")
			deleteThroughSource(t, source, ns, "swap")
		})
	}
}

// restartableGRPCLink is a source link whose server can be replaced, as a
// source that restarts its gRPC server on the same address.
type restartableGRPCLink struct {
	mu      sync.Mutex
	server  *grpcserver.Server
	swapped chan struct{} // closed when the server is replaced
}

func (l *restartableGRPCLink) set(s *grpcserver.Server) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.server = s
	if l.swapped != nil {
		close(l.swapped)
	}
	l.swapped = make(chan struct{})
}

func (l *restartableGRPCLink) current() (*grpcserver.Server, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.server, l.swapped
}

func (l *restartableGRPCLink) Send(ctx context.Context, cluster string, e cloudevents.Event) error {
	server, _ := l.current()
	return framework.GRPCSourceLink{Server: server}.Send(ctx, cluster, e)
}

func (l *restartableGRPCLink) Run(ctx context.Context, receive func(cloudevents.Event)) {
	for {
		server, swapped := l.current()
		select {
		case e := <-server.Published():
			receive(e)
		case <-swapped:
		case <-ctx.Done():
			return
		}
	}
}

// record changes the work at the source without sending it: the agent
// gets it only by asking.
func (l *restartableGRPCLink) record(source *framework.Source, work *workv1.ManifestWork) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	version, err := source.Apply(ctx, work)
	if err == nil {
		return version, errors.New("the spec reached an agent while the server was down")
	}
	return version, nil
}
