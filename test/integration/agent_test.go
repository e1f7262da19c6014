package integration

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/manifestwork/work/pkg/agent"
	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const convergeTimeout = 30 * time.Second

// runAgent runs the agent in this process, with one API server as both hub and
// managed cluster, the way tests call the same Run as the binary; options
// change its options. stop stops it before the test ends; it is stopped at
// the end otherwise.
func runAgent(t *testing.T, s *framework.APIServer, options ...func(*agent.Options)) (stop func()) {
	t.Helper()
	logsapi.ReapplyHandling = logsapi.ReapplyHandlingIgnoreUnchanged
	o := agent.NewOptions()
	o.ClusterName = fixture.Cluster
	o.HubKubeconfig = s.KubeconfigPath
	o.Kubeconfig = s.KubeconfigPath
	o.DisableLeaderElection = true
	o.HealthProbeBindAddress, o.SecureBindAddress = "0", "0"
	for _, option := range options {
		option(o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- agent.Run(ctx, o) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			require.NoError(t, <-done)
		})
	}
	t.Cleanup(stop)
	return stop
}

// The agent applies a work's manifests, reports them, and removes them when
// the work is deleted.
func TestAgentAppliesAndCleansUp(t *testing.T) {
	s, ctx := setup(t)
	runAgent(t, s)
	// No Namespace in the work: envtest runs no namespace controller, so a
	// deleted namespace would stay Terminating.
	ns := "integration-agent"
	require.NoError(t, s.EnsureNamespaces(ctx, ns))
	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	_, err := works.Create(ctx, fixture.NewWork(fixture.Cluster, "agent").
		WithManifest(fixture.ConfigMap(ns, "a", map[string]string{"k": "v"}), fixture.ConfigMap(ns, "b", nil)).
		Build(), metav1.CreateOptions{})
	require.NoError(t, err)

	framework.Eventually(t, convergeTimeout, func() error {
		w, err := works.Get(ctx, "agent", metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, condType := range []string{workv1.WorkApplied, workv1.WorkAvailable} {
			if !apimeta.IsStatusConditionTrue(w.Status.Conditions, condType) {
				return fmt.Errorf("%s is not True: %v", condType, w.Status.Conditions)
			}
		}
		return nil
	}, "work Applied and Available")
	cm, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, "a", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "v", cm.Data["k"])

	require.NoError(t, works.Delete(ctx, "agent", metav1.DeleteOptions{}))
	framework.Eventually(t, convergeTimeout, func() error {
		if _, err := works.Get(ctx, "agent", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("work still there: %v", err)
		}
		// envtest runs no garbage collector: what is gone was deleted by the agent.
		if _, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("configmap still there: %v", err)
		}
		return nil
	}, "work and its objects deleted")
}

// manifestInSync is the InSync condition of the work's manifest of the
// object named name, nil until there is one.
func manifestInSync(ctx context.Context, s *framework.APIServer, work, name string) (*metav1.Condition, error) {
	w, err := s.Work.WorkV1().ManifestWorks(fixture.Cluster).Get(ctx, work, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	for _, m := range w.Status.ResourceStatus.Manifests {
		if m.ResourceMeta.Name == name {
			if c := apimeta.FindStatusCondition(m.Conditions, manifestwork.ConditionInSync); c != nil {
				return c, nil
			}
		}
	}
	return nil, fmt.Errorf("no InSync for %s yet: %v", name, w.Status.ResourceStatus.Manifests)
}

// driftEvents are the messages of the work's DriftRepaired Events about
// the object named object ("Deployment ns/web").
func driftEvents(ctx context.Context, s *framework.APIServer, work, object string) ([]string, error) {
	list, err := s.Kube.CoreV1().Events(fixture.Cluster).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range list.Items {
		if e.InvolvedObject.Name == work && e.Reason == manifestwork.EventDriftRepaired && strings.Contains(e.Message, object+",") {
			out = append(out, e.Message)
		}
	}
	return out, nil
}

// mergePatch patches an object on the managed cluster as another writer
// (manager) would.
func mergePatch(t *testing.T, ctx context.Context, s *framework.APIServer, gvr schema.GroupVersionResource, ns, name, patch, manager string) {
	t.Helper()
	_, err := s.Dynamic.Resource(gvr).Namespace(ns).
		Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{FieldManager: manager})
	require.NoError(t, err)
}

var (
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
)

// startWork runs the agent and has it apply a work named name in namespace
// ns of manifests, and waits until the manifests of the objects named
// inSync are applied and in sync.
func startWork(t *testing.T, ns, name string, manifests []runtime.Object, inSync ...string) (*framework.APIServer, context.Context) {
	t.Helper()
	s, ctx := setup(t)
	runAgent(t, s)
	require.NoError(t, s.EnsureNamespaces(ctx, ns))
	_, err := s.Work.WorkV1().ManifestWorks(fixture.Cluster).Create(ctx, fixture.NewWork(fixture.Cluster, name).
		WithManifest(manifests...).Build(), metav1.CreateOptions{})
	require.NoError(t, err)
	for _, object := range inSync {
		framework.Eventually(t, convergeTimeout, func() error {
			c, err := manifestInSync(ctx, s, name, object)
			if err == nil && c.Status != metav1.ConditionTrue {
				err = fmt.Errorf("InSync: %v", c)
			}
			return err
		}, "%s applied and in sync", object)
	}
	return s, ctx
}

// With the Update strategy the agent holds, as OCM's agent does, a
// ConfigMap's data and a Deployment's spec as a whole: a data key, an env
// var and a `kubectl rollout restart` annotation that others add are
// removed, while the labels others add stay and the API server's defaults
// are no drift (the repair's Event names only what was added).
func TestUpdateRemovesWhatOthersAdd(t *testing.T) {
	ns := "integration-enforce"
	s, ctx := startWork(t, ns, "enforce",
		[]runtime.Object{fixture.ConfigMap(ns, "settings", map[string]string{"a": "1"}), fixture.Deployment(ns, "web", 1)}, "settings", "web")
	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	deployments, configMaps := s.Kube.AppsV1().Deployments(ns), s.Kube.CoreV1().ConfigMaps(ns)

	mergePatch(t, ctx, s, configMapsGVR, ns, "settings", `{"metadata":{"labels":{"team":"x"}},"data":{"b":"2"}}`, "kubectl-patch")
	framework.Eventually(t, convergeTimeout, func() error {
		cm, err := configMaps.Get(ctx, "settings", metav1.GetOptions{})
		if err == nil && !assert.ObjectsAreEqual(map[string]string{"a": "1"}, cm.Data) {
			err = fmt.Errorf("data: %v", cm.Data)
		}
		return err
	}, "the key another writer added is removed")
	cm, err := configMaps.Get(ctx, "settings", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "x", cm.Labels["team"], "a label another writer added stays")

	mergePatch(t, ctx, s, deploymentsGVR, ns, "web", `{"metadata":{"labels":{"team":"x"}}}`, "kubectl-label")
	mergePatch(t, ctx, s, deploymentsGVR, ns, "web",
		`{"spec":{"template":{"spec":{"containers":[{"name":"main","image":"fake-image:1","env":[{"name":"FOO","value":"bar"}]}]}}}}`, "kubectl-set")
	framework.Eventually(t, convergeTimeout, func() error {
		d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
		if err == nil && len(d.Spec.Template.Spec.Containers[0].Env) > 0 {
			err = fmt.Errorf("env: %v", d.Spec.Template.Spec.Containers[0].Env)
		}
		return err
	}, "the env var another writer added is removed")
	d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "x", d.Labels["team"], "a label another writer added stays")
	assert.Equal(t, corev1.PullIfNotPresent, d.Spec.Template.Spec.Containers[0].ImagePullPolicy, "the server's defaults stay")
	framework.Eventually(t, convergeTimeout, func() error {
		messages, err := driftEvents(ctx, s, "enforce", "Deployment "+ns+"/web")
		if err != nil {
			return err
		}
		want := `Repaired Deployment ` + ns + `/web, changed by kubectl-set: .spec.template.spec.containers[0].env: found [{"name":"FOO","value":"bar"}], restored (absent)`
		if !assert.ObjectsAreEqual([]string{want}, messages) {
			return fmt.Errorf("DriftRepaired Events: %q", messages)
		}
		return nil
	}, "the repair names what was added, and no default")

	mergePatch(t, ctx, s, deploymentsGVR, ns, "web",
		`{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-28T17:00:00Z"}}}}}`, "kubectl-rollout")
	framework.Eventually(t, convergeTimeout, func() error {
		d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
		if err == nil && len(d.Spec.Template.Annotations) > 0 {
			err = fmt.Errorf("pod template annotations: %v", d.Spec.Template.Annotations)
		}
		return err
	}, "kubectl rollout restart is undone")
	c, err := manifestInSync(ctx, s, "enforce", "web")
	require.NoError(t, err)
	assert.Equal(t, metav1.ConditionTrue, c.Status, "repaired: in sync")
	require.NoError(t, works.Delete(ctx, "enforce", metav1.DeleteOptions{}))
}

// A writer that changes a field back after each repair is reverted four
// times, then left alone: the manifest's InSync is False, reason Contested,
// naming the field and the writer, and its next change stays while a
// change of another object of the work is still repaired.
func TestFightOverAFieldIsReported(t *testing.T) {
	ns := "integration-fight"
	s, ctx := startWork(t, ns, "fight", []runtime.Object{
		fixture.ConfigMap(ns, "scaled", map[string]string{"replicas": "1"}), fixture.ConfigMap(ns, "other", map[string]string{"k": "1"})}, "scaled")
	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	configMaps := s.Kube.CoreV1().ConfigMaps(ns)
	value := func(name, key string) (string, error) {
		cm, err := configMaps.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		return cm.Data[key], nil
	}

	// The autoscaler sets replicas to 5 whenever the agent put 1 back.
	writes := 0
	framework.Eventually(t, convergeTimeout, func() error {
		c, err := manifestInSync(ctx, s, "fight", "scaled")
		if err == nil && c.Reason == manifestwork.InSyncReasonContested {
			return nil
		}
		if v, err := value("scaled", "replicas"); err != nil || v == "5" {
			return fmt.Errorf("not contested yet: %v", c)
		}
		writes++
		mergePatch(t, ctx, s, configMapsGVR, ns, "scaled", `{"data":{"replicas":"5"}}`, "autoscaler")
		return fmt.Errorf("not contested yet after %d writes: %v", writes, c)
	}, "the fight is detected")
	assert.Equal(t, 4, writes, "four reverts, then the agent stops")
	c, err := manifestInSync(ctx, s, "fight", "scaled")
	require.NoError(t, err)
	assert.Equal(t, metav1.ConditionFalse, c.Status)
	assert.Contains(t, c.Message, "autoscaler changed .data.replicas back after 4 repairs within 1m0s")
	assert.Contains(t, c.Message, "use the ServerSideApply update strategy")
	w, err := works.Get(ctx, "fight", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, manifestwork.InSyncReasonContested, apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkInSync).Reason)

	// The autoscaler's next write stays. The agent's informer brings the
	// changes of ConfigMaps in order, so once the later change of "other"
	// is repaired, the agent has seen this one.
	mergePatch(t, ctx, s, configMapsGVR, ns, "scaled", `{"data":{"replicas":"5"}}`, "autoscaler")
	mergePatch(t, ctx, s, configMapsGVR, ns, "other", `{"data":{"k":"edited"}}`, "someone")
	framework.Eventually(t, convergeTimeout, func() error {
		v, err := value("other", "k")
		if err == nil && v != "1" {
			err = fmt.Errorf("k is %q", v)
		}
		return err
	}, "another object of the work is still repaired")
	v, err := value("scaled", "replicas")
	require.NoError(t, err)
	assert.Equal(t, "5", v, "the contested object is left alone")
	require.NoError(t, works.Delete(ctx, "fight", metav1.DeleteOptions{}))
}
