package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/framework"
)

// hubNamespace is the namespace of deploy/hub, as agentNamespace is that
// of deploy/agent; the charts are compared in them.
const hubNamespace = framework.HubLeaseNamespace

// chartLabels are the labels every object of the charts carries, and that
// the kustomize bases do not (part-of is on their Deployments only).
var chartLabels = []string{
	"helm.sh/chart", "app.kubernetes.io/managed-by", "app.kubernetes.io/instance",
	"app.kubernetes.io/version", "app.kubernetes.io/part-of",
}

// helmFor returns a helm for a kubeconfig ("" for none), with folders of its
// own under the test's temporary folder.
func helmFor(t *testing.T, kubeconfig string) *framework.Helm {
	t.Helper()
	h, err := framework.NewHelm(kubeconfig, t.TempDir())
	require.NoError(t, err)
	return h
}

// renderChart renders a chart with helm template as release "work" in
// namespace, with the --set values, and decodes its objects.
func renderChart(t *testing.T, chart, namespace string, set ...string) []*unstructured.Unstructured {
	t.Helper()
	args := []string{"template", "work", framework.ChartDir(chart), "--namespace", namespace}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	res, err := helmFor(t, "").Run(t.Context(), args...)
	require.NoError(t, err)
	return decodeObjects(t, res.Stdout)
}

// decodeObjects decodes a stream of YAML documents, skipping empty ones.
func decodeObjects(t *testing.T, stream string) []*unstructured.Unstructured {
	t.Helper()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(stream)))
	var objs []*unstructured.Unstructured
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objs
		}
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, yaml.Unmarshal(doc, &m))
		if len(m) == 0 {
			continue
		}
		objs = append(objs, &unstructured.Unstructured{Object: m})
	}
}

// objectKey names an object by kind, namespace and name.
func objectKey(o *unstructured.Unstructured) string {
	return strings.Trim(o.GetKind()+"/"+o.GetNamespace()+"/"+o.GetName(), "/")
}

// findObject returns the object of kind and name, failing t without it.
func findObject(t *testing.T, objs []*unstructured.Unstructured, kind, name string) *unstructured.Unstructured {
	t.Helper()
	for _, o := range objs {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	t.Fatalf("no %s %s among %d objects", kind, name, len(objs))
	return nil
}

// `helm lint --strict` passes both charts, with their defaults and with the
// values that turn on their other templates, without a warning.
func TestHelmChartsLint(t *testing.T) {
	framework.SkipWithoutTestbed(t)
	for _, tc := range []struct {
		name, chart string
		set         []string
	}{
		{"hub", "work-hub", nil},
		{"hub with cert-manager and clusters", "work-hub", []string{"webhook.certManager.enabled=true", "managedClusters={cluster1,cluster2}"}},
		{"hub without webhook, one replica", "work-hub", []string{"webhook.enabled=false", "replicas=1"}},
		{"agent", "work-agent", []string{"clusterName=cluster1"}},
		{"agent with every value", "work-agent", []string{
			"clusterName=cluster1", "agentID=agent-1", "featureGates.RawFeedbackJsonString=true",
			"kubeAPI.qps=20", "kubeAPI.burst=40", "hubKubeAPI.qps=5", "hubKubeAPI.burst=10", "workers=4",
			"rbac.bindAdmin=false", "crds.install=false", "extraArgs={-v=4}",
		}},
		{"hub with monitoring", "work-hub", monitoringValues},
		{"agent with monitoring", "work-agent", append([]string{"clusterName=cluster1"}, monitoringValues...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"lint", "--strict", framework.ChartDir(tc.chart)}
			for _, s := range tc.set {
				args = append(args, "--set", s)
			}
			res, err := helmFor(t, "").Run(t.Context(), args...)
			require.NoError(t, err, res.Stdout)
			t.Log("\n" + res.Stdout)
			assert.Contains(t, res.Stdout, "1 chart(s) linted, 0 chart(s) failed")
			assert.NotContains(t, res.Stdout+res.Stderr, "[WARNING]")
		})
	}

	t.Run("agent without a cluster name", func(t *testing.T) {
		res, err := helmFor(t, "").Run(t.Context(), "template", "work", framework.ChartDir("work-agent"))
		require.Error(t, err)
		assert.Contains(t, res.Stderr, "clusterName is required")
	})
}

// The charts and the kustomize bases of deploy/ install the same objects:
// rendered with the values that match the bases, every object of a base is
// in its chart with the same content (image, RBAC rules, probes, security
// contexts, args, ports, volumes), apart from the labels every chart object
// carries. The hub chart with webhook.enabled=false matches
// deploy/hub-without-webhook.
// The charts' CRDs are those of manifests/, and the hub chart's webhook
// configuration is the one hack/webhook-certs.sh writes. The bases' own
// Namespace objects have no counterpart: helm installs into a namespace it
// does not own.
func TestHelmChartsMatchKustomizeBases(t *testing.T) {
	e := setup(t)
	for _, tc := range []struct {
		name, chart, namespace string
		set                    []string
		want                   func(t *testing.T) []*unstructured.Unstructured
		chartOnly              []string
	}{{
		name: "hub", chart: "work-hub", namespace: hubNamespace,
		set: []string{"managedClusters={cluster1}"},
		want: func(t *testing.T) []*unstructured.Unstructured {
			return slices.Concat(
				kustomizeObjects(t, e, "hub"), kustomizeObjects(t, e, "cluster-namespace"),
				crdObjects(t, framework.HubCRDDir()), scriptWebhookConfiguration(t))
		},
		// The generated serving certificate; the script's is made by hand.
		chartOnly: []string{"Secret/" + hubNamespace + "/work-webhook-tls"},
	}, {
		name: "hub without webhook", chart: "work-hub", namespace: hubNamespace,
		set: []string{"webhook.enabled=false"},
		want: func(t *testing.T) []*unstructured.Unstructured {
			return slices.Concat(kustomizeObjects(t, e, "hub-without-webhook"), crdObjects(t, framework.HubCRDDir()))
		},
	}, {
		name: "agent", chart: "work-agent", namespace: agentNamespace,
		set: []string{"clusterName=cluster1"},
		want: func(t *testing.T) []*unstructured.Unstructured {
			return slices.Concat(kustomizeObjects(t, e, "agent"), crdObjects(t, framework.ManagedCRDDir()))
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := indexObjects(t, renderChart(t, tc.chart, tc.namespace, tc.set...))
			want := indexObjects(t, tc.want(t))
			for _, key := range tc.chartOnly {
				require.Contains(t, got, key)
				delete(got, key)
			}
			for key, o := range want {
				if o.GetKind() == "Namespace" && (o.GetName() == hubNamespace || o.GetName() == agentNamespace) {
					delete(want, key)
				}
			}
			require.ElementsMatch(t, slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)), "objects of deploy/ and of the chart %s", tc.chart)
			for key, w := range want {
				assert.Equal(t, normalized(w), normalized(got[key]), "%s differs between deploy/ (first) and the chart %s (second)", key, tc.chart)
			}
		})
	}

	t.Run("the charts share their common and monitoring helpers", func(t *testing.T) {
		for _, file := range []string{"_common.tpl", "_monitoring.tpl"} {
			hub, err := os.ReadFile(filepath.Join(framework.ChartDir("work-hub"), "templates", file))
			require.NoError(t, err)
			agent, err := os.ReadFile(filepath.Join(framework.ChartDir("work-agent"), "templates", file))
			require.NoError(t, err)
			assert.Equal(t, string(hub), string(agent), "templates/%s must be the same in both charts", file)
		}
	})
}

// kustomizeObjects renders deploy/<base> with the test-bed kubectl.
func kustomizeObjects(t *testing.T, e *framework.E2E, base string) []*unstructured.Unstructured {
	t.Helper()
	out, err := e.Kubectl(framework.HubName, "kustomize", framework.DeployBase(base))
	require.NoError(t, err)
	return decodeObjects(t, out)
}

// crdObjects reads the CRDs of a folder of manifests/.
func crdObjects(t *testing.T, dir string) []*unstructured.Unstructured {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	var objs []*unstructured.Unstructured
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		objs = append(objs, decodeObjects(t, string(data))...)
	}
	return objs
}

// scriptWebhookConfiguration is the ValidatingWebhookConfiguration that
// hack/webhook-certs.sh writes for the Service of deploy/hub.
func scriptWebhookConfiguration(t *testing.T) []*unstructured.Unstructured {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, framework.RepoPath("hack", "webhook-certs.sh"), dir).CombinedOutput()
	require.NoError(t, err, string(out))
	data, err := os.ReadFile(filepath.Join(dir, "validatingwebhookconfiguration.yaml"))
	require.NoError(t, err)
	return decodeObjects(t, string(data))
}

// indexObjects keys objects by objectKey, failing t on a duplicate.
func indexObjects(t *testing.T, objs []*unstructured.Unstructured) map[string]*unstructured.Unstructured {
	t.Helper()
	index := map[string]*unstructured.Unstructured{}
	for _, o := range objs {
		key := objectKey(o)
		require.NotContains(t, index, key, "two objects %s", key)
		index[key] = o
	}
	return index
}

// normalized is a copy of an object without what the charts add on purpose:
// their common labels (on objects and pod templates), the resource policy
// keep, and a webhook's caBundle (a certificate of each installation).
func normalized(o *unstructured.Unstructured) map[string]any {
	c := o.DeepCopy()
	dropLabels := func(fields ...string) {
		labels, found, _ := unstructured.NestedStringMap(c.Object, fields...)
		if !found {
			return
		}
		for _, l := range chartLabels {
			delete(labels, l)
		}
		if len(labels) == 0 {
			unstructured.RemoveNestedField(c.Object, fields...)
			return
		}
		_ = unstructured.SetNestedStringMap(c.Object, labels, fields...)
	}
	dropLabels("metadata", "labels")
	dropLabels("spec", "template", "metadata", "labels")
	annotations := c.GetAnnotations()
	delete(annotations, "helm.sh/resource-policy")
	if len(annotations) == 0 {
		unstructured.RemoveNestedField(c.Object, "metadata", "annotations")
	} else {
		c.SetAnnotations(annotations)
	}
	if webhooks, found, _ := unstructured.NestedSlice(c.Object, "webhooks"); found {
		for _, w := range webhooks {
			unstructured.RemoveNestedField(w.(map[string]any), "clientConfig", "caBundle")
		}
		_ = unstructured.SetNestedSlice(c.Object, webhooks, "webhooks")
	}
	return c.Object
}

// Both charts, rendered into a fresh namespace that enforces the restricted
// Pod Security Standard, are accepted by the API server of the cluster each
// belongs on (a server-side dry run), without a warning: so the pods meet
// the standard, and every object is valid for the server's schemas.
func TestHelmChartsApplyServerSide(t *testing.T) {
	e := setup(t)
	namespace := "work-helm-" + e.Run.ID
	for _, tc := range []struct {
		name, chart, cluster string
		set                  []string
	}{
		{"hub", "work-hub", framework.HubName, []string{"managedClusters={helm-" + e.Run.ID + "}"}},
		{"hub without webhook", "work-hub", framework.HubName, []string{"webhook.enabled=false", "replicas=1", "crds.install=false"}},
		{"agent", "work-agent", "cluster1", []string{
			"clusterName=cluster1", "featureGates.RawFeedbackJsonString=true", "kubeAPI.qps=20", "workers=4",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			restrictedNamespace(t, e.Cluster(tc.cluster), namespace)
			objs := renderChart(t, tc.chart, namespace, tc.set...)
			// A dry run creates no namespace for the objects in a managed
			// cluster's namespace.
			for _, o := range objs {
				if o.GetKind() == "Namespace" {
					restrictedNamespace(t, e.Cluster(tc.cluster), o.GetName())
				}
			}
			applyDryRun(t, e, tc.cluster, objs)
		})
	}

	// The cert-manager kinds are not served by the kwok clusters: the rest
	// is applied, and the chart's wiring of them checked.
	t.Run("hub with cert-manager", func(t *testing.T) {
		restrictedNamespace(t, e.Hub, namespace)
		objs := renderChart(t, "work-hub", namespace, "webhook.certManager.enabled=true")
		var served []*unstructured.Unstructured
		for _, o := range objs {
			if o.GroupVersionKind().Group != "cert-manager.io" {
				served = append(served, o)
			}
		}
		applyDryRun(t, e, framework.HubName, served)

		cert := findObject(t, objs, "Certificate", "work-webhook")
		issuer := findObject(t, objs, "Issuer", "work-webhook-selfsigned")
		_, hasSecret := indexObjects(t, objs)["Secret/"+namespace+"/work-webhook-tls"]
		assert.False(t, hasSecret, "cert-manager writes the Secret, not the chart")
		secretName, _, _ := unstructured.NestedString(cert.Object, "spec", "secretName")
		issuerName, _, _ := unstructured.NestedString(cert.Object, "spec", "issuerRef", "name")
		dnsNames, _, _ := unstructured.NestedStringSlice(cert.Object, "spec", "dnsNames")
		assert.Equal(t, issuer.GetName(), issuerName)
		assert.Contains(t, dnsNames, "work-webhook."+namespace+".svc")

		var d appsv1.Deployment
		require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(findObject(t, objs, "Deployment", "work-hub").Object, &d))
		assert.Equal(t, secretName, d.Spec.Template.Spec.Volumes[0].Secret.SecretName, "the hub mounts the Certificate's Secret")
		config := findObject(t, objs, "ValidatingWebhookConfiguration", "manifestwork.work.open-cluster-management.io")
		assert.Equal(t, namespace+"/"+cert.GetName(), config.GetAnnotations()["cert-manager.io/inject-ca-from"])
		webhooks, _, _ := unstructured.NestedSlice(config.Object, "webhooks")
		_, hasBundle, _ := unstructured.NestedString(webhooks[0].(map[string]any), "clientConfig", "caBundle")
		assert.False(t, hasBundle, "cert-manager's CA injector fills in caBundle")
	})
}

// restrictedNamespace creates a namespace on c that enforces (and warns
// about) the restricted Pod Security Standard, as the bases of deploy/ make
// theirs, unless it exists; a namespace it creates is deleted when the test
// ends, and gone before the next test (or subtest) may create it again.
func restrictedNamespace(t *testing.T, c *framework.Cluster, name string) {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
		"pod-security.kubernetes.io/enforce": "restricted",
		"pod-security.kubernetes.io/warn":    "restricted",
	}}}
	_, err := c.Kube.CoreV1().Namespaces().Create(t.Context(), ns, metav1.CreateOptions{})
	if err == nil {
		t.Cleanup(func() {
			namespaces := c.Kube.CoreV1().Namespaces()
			framework.Eventually(t, convergeTimeout, func() error {
				err := namespaces.Delete(context.Background(), name, metav1.DeleteOptions{})
				if apierrors.IsNotFound(err) {
					return nil
				}
				return fmt.Errorf("namespace %s is still there (%v)", name, err)
			}, "the test's namespace %s is deleted", name)
		})
		return
	}
	require.True(t, apierrors.IsAlreadyExists(err), "create namespace %s: %v", name, err)
}

// applyDryRun applies objects to a cluster in a server-side dry run, and
// requires every one accepted without a warning.
func applyDryRun(t *testing.T, e *framework.E2E, cluster string, objs []*unstructured.Unstructured) {
	t.Helper()
	var stream bytes.Buffer
	for _, o := range objs {
		data, err := yaml.Marshal(o.Object)
		require.NoError(t, err)
		stream.WriteString("---\n")
		stream.Write(data)
	}
	file := filepath.Join(t.TempDir(), "rendered.yaml")
	require.NoError(t, os.WriteFile(file, stream.Bytes(), 0o600))
	// Server-side apply, as the objects of deploy/ that the framework
	// applied already exist with other owners; forced, as it is a dry run.
	res, err := e.KubectlResult(cluster, "apply", "--server-side", "--force-conflicts",
		"--field-manager=helm", "--dry-run=server", "-f", file)
	require.NoError(t, err)
	t.Log("\n" + res.Stdout)
	assert.Equal(t, len(objs), strings.Count(res.Stdout, "(server dry run)"), "every object is applied")
	assert.NotContains(t, res.Stderr, "Warning", "the API server warned about the chart")
}

// The agent starts from the arguments of the chart's own Deployment, as its
// pod would run them: the hub kubeconfig read from where the Secret is
// mounted, POD_NAME set from the pod's name, and leader election on. Only
// the in-cluster configuration of the pod is stood in for by --kubeconfig
// (the token of klusterlet-work-sa, whose RBAC the chart makes as deploy/agent
// does). It applies the tutorial's work and reports it available.
func TestHelmAgentRunsFromItsRenderedDeployment(t *testing.T) {
	e := setup(t)
	const cluster = "cluster1"
	stopSharedAgent(t, cluster)
	c := e.Cluster(cluster)
	objs := renderChart(t, "work-agent", agentNamespace, "clusterName="+cluster,
		"featureGates.RawFeedbackJsonString=true", "hubKubeAPI.qps=20", "kubeAPI.burst=200", "workers=4")
	var d appsv1.Deployment
	require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(findObject(t, objs, "Deployment", "work-agent").Object, &d))
	secrets := map[string]map[string]string{
		"hub-kubeconfig": {"kubeconfig": c.AgentHubKubeconfig},
	}
	env, args := podProcess(t, d.Spec.Template.Spec, "work-agent-helm-0", agentNamespace, secrets)
	require.Equal(t, "agent", args[0])
	args = append(args, "--kubeconfig="+c.WorkKubeconfig)

	agent, err := e.StartWork("agent-"+cluster+"-helm", env, args...)
	require.NoError(t, err)
	t.Cleanup(func() { stopAgent(t, agent) })

	work := tutorialWork(t)
	createWork(t, work)
	waitWorkCondition(t, work.Namespace, work.Name, workv1.WorkApplied, metav1.ConditionTrue)
	waitWorkCondition(t, work.Namespace, work.Name, workv1.WorkAvailable, metav1.ConditionTrue)
	deployments := c.Kube.AppsV1().Deployments("default")
	_, err = deployments.Get(t.Context(), "nginx-deployment", metav1.GetOptions{})
	require.NoError(t, err)

	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks(work.Namespace).Delete(t.Context(), work.Name, metav1.DeleteOptions{}))
	waitGone(t, "the tutorial's Deployment", func(ctx context.Context) error {
		_, err := deployments.Get(ctx, "nginx-deployment", metav1.GetOptions{})
		return err
	})
}

// podProcess turns a pod's only container into the environment and
// arguments of a local process: each Secret volume becomes a folder holding
// the files given for it, each emptyDir an empty folder, in which the
// container's mount path is rewritten,
// and the pod's name and namespace come from podName and podNamespace.
func podProcess(t *testing.T, pod corev1.PodSpec, podName, podNamespace string, secrets map[string]map[string]string) (env, args []string) {
	t.Helper()
	require.Len(t, pod.Containers, 1)
	container := pod.Containers[0]
	require.Empty(t, container.Command, "the image's entrypoint runs the args")
	volumes := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = v
	}
	mounts := map[string]string{}
	for _, m := range container.VolumeMounts {
		v := volumes[m.Name]
		if v.EmptyDir != nil {
			mounts[m.MountPath] = t.TempDir()
			continue
		}
		require.NotNil(t, v.Secret, "volume %s is neither a Secret nor an emptyDir", m.Name)
		files, ok := secrets[v.Secret.SecretName]
		require.True(t, ok, "no files for the Secret %s", v.Secret.SecretName)
		dir := t.TempDir()
		for key, from := range files {
			require.NoError(t, os.Symlink(from, filepath.Join(dir, key)))
		}
		mounts[m.MountPath] = dir
	}
	// Longest mount path first, and one rewrite per argument: a folder
	// made for /spoke/hub-kubeconfig lies under /tmp, a mount path too.
	paths := slices.SortedFunc(maps.Keys(mounts), func(a, b string) int { return len(b) - len(a) })
	for _, arg := range container.Args {
		for _, path := range paths {
			if strings.Contains(arg, path+"/") {
				arg = strings.ReplaceAll(arg, path+"/", mounts[path]+"/")
				break
			}
		}
		args = append(args, arg)
	}
	for _, v := range container.Env {
		switch {
		case v.ValueFrom == nil:
			env = append(env, v.Name+"="+v.Value)
		case v.ValueFrom.FieldRef != nil && v.ValueFrom.FieldRef.FieldPath == "metadata.name":
			env = append(env, v.Name+"="+podName)
		case v.ValueFrom.FieldRef != nil && v.ValueFrom.FieldRef.FieldPath == "metadata.namespace":
			env = append(env, v.Name+"="+podNamespace)
		default:
			t.Fatalf("env %s: only values and the pod's name and namespace are supported", v.Name)
		}
	}
	return env, args
}

// tutorialWork is the work of deploy/examples, for cluster1.
func tutorialWork(t *testing.T) *workv1.ManifestWork {
	t.Helper()
	data, err := os.ReadFile(framework.RepoPath("deploy", "examples", "example-manifestwork.yaml"))
	require.NoError(t, err)
	w := &workv1.ManifestWork{}
	require.NoError(t, yaml.UnmarshalStrict(data, w))
	return w
}

// A release of each chart on an API server of its own, through the life a
// user gives it: installed from an older chart, upgraded, uninstalled and
// installed again. An upgrade updates the CRD and keeps the generated
// webhook certificate (and the caBundle that trusts it) as they were;
// uninstalling keeps the CRD and so every ManifestWork.
func TestHelmReleaseLifecycle(t *testing.T) {
	framework.SkipWithoutTestbed(t)
	server, err := framework.StartAPIServer()
	require.NoError(t, err)
	t.Cleanup(server.Stop)
	h := helmFor(t, server.KubeconfigPath)
	helm := func(args ...string) string {
		t.Helper()
		res, err := h.Run(t.Context(), args...)
		require.NoError(t, err)
		return res.Stdout
	}
	ctx := t.Context()
	crds := server.APIExtensions.ApiextensionsV1().CustomResourceDefinitions()
	secrets := server.Kube.CoreV1().Secrets(hubNamespace)
	configs := server.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	const configName = "manifestwork.work.open-cluster-management.io"
	// Nothing serves the webhook here: it reviews labelled namespaces only.
	hubValues := []string{"--set", "webhook.namespaceSelector.matchLabels.reviewed=yes"}

	helm(append([]string{"install", "work", olderChart(t, "work-hub"), "-n", hubNamespace, "--create-namespace"}, hubValues...)...)
	crd, err := crds.Get(ctx, manifestWorkCRD, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Empty(t, crd.Spec.Versions[0].AdditionalPrinterColumns, "the older chart's CRD")
	assert.Equal(t, "keep", crd.Annotations["helm.sh/resource-policy"])
	installed, err := secrets.Get(ctx, "work-webhook-tls", metav1.GetOptions{})
	require.NoError(t, err)
	config, err := configs.Get(ctx, configName, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, installed.Data["ca.crt"], config.Webhooks[0].ClientConfig.CABundle, "the configuration trusts the generated CA")

	require.NoError(t, server.EnsureNamespaces(ctx, "cluster1"))
	work := tutorialWork(t)
	_, err = server.Work.WorkV1().ManifestWorks(work.Namespace).Create(ctx, work, metav1.CreateOptions{})
	require.NoError(t, err)

	t.Run("upgrade updates the CRD and keeps the certificate", func(t *testing.T) {
		helm("upgrade", "work", framework.ChartDir("work-hub"), "-n", hubNamespace, "--reuse-values", "--set", "replicas=3")
		crd, err := crds.Get(ctx, manifestWorkCRD, metav1.GetOptions{})
		require.NoError(t, err)
		want := findObject(t, crdObjects(t, framework.HubCRDDir()), "CustomResourceDefinition", manifestWorkCRD)
		columns, _, _ := unstructured.NestedSlice(want.Object, "spec", "versions")
		assert.Len(t, crd.Spec.Versions[0].AdditionalPrinterColumns, len(columns[0].(map[string]any)["additionalPrinterColumns"].([]any)))
		upgraded, err := secrets.Get(ctx, "work-webhook-tls", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, installed.Data, upgraded.Data, "the certificate and key")
		assert.Equal(t, installed.ResourceVersion, upgraded.ResourceVersion, "the Secret was not written")
		config, err := configs.Get(ctx, configName, metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, installed.Data["ca.crt"], config.Webhooks[0].ClientConfig.CABundle)
		d, err := server.Kube.AppsV1().Deployments(hubNamespace).Get(ctx, "work-hub", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, int32(3), *d.Spec.Replicas)
	})

	t.Run("uninstall keeps the CRD and the works", func(t *testing.T) {
		out := helm("uninstall", "work", "-n", hubNamespace)
		assert.Contains(t, out, "kept due to the resource policy")
		_, err := crds.Get(ctx, manifestWorkCRD, metav1.GetOptions{})
		require.NoError(t, err)
		_, err = server.Work.WorkV1().ManifestWorks(work.Namespace).Get(ctx, work.Name, metav1.GetOptions{})
		require.NoError(t, err, "the work outlives the release")
		_, err = secrets.Get(ctx, "work-webhook-tls", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "the Secret goes with the release: %v", err)
		_, err = configs.Get(ctx, configName, metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "the configuration goes with the release: %v", err)
	})

	t.Run("install again adopts the kept CRD", func(t *testing.T) {
		helm(append([]string{"install", "work", framework.ChartDir("work-hub"), "-n", hubNamespace}, hubValues...)...)
		_, err := server.Work.WorkV1().ManifestWorks(work.Namespace).Get(ctx, work.Name, metav1.GetOptions{})
		require.NoError(t, err)
	})

	// The CRD was installed from manifests/ and marked as the release's, as
	// docs/install-with-helm.md tells users of the kustomize bases to.
	t.Run("the agent chart adopts and keeps its CRD", func(t *testing.T) {
		_, err := server.InstallCRDs(framework.ManagedCRDDir())
		require.NoError(t, err)
		crd, err := crds.Get(ctx, appliedManifestWorkCRD, metav1.GetOptions{})
		require.NoError(t, err)
		crd.Annotations["meta.helm.sh/release-name"] = "agent"
		crd.Annotations["meta.helm.sh/release-namespace"] = agentNamespace
		crd.Labels = map[string]string{"app.kubernetes.io/managed-by": "Helm"}
		_, err = crds.Update(ctx, crd, metav1.UpdateOptions{})
		require.NoError(t, err)

		helm("install", "agent", framework.ChartDir("work-agent"), "-n", agentNamespace, "--create-namespace", "--set", "clusterName=cluster1")
		adopted, err := crds.Get(ctx, appliedManifestWorkCRD, metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, "keep", adopted.Annotations["helm.sh/resource-policy"])
		out := helm("uninstall", "agent", "-n", agentNamespace)
		assert.Contains(t, out, "kept due to the resource policy")
		_, err = crds.Get(ctx, appliedManifestWorkCRD, metav1.GetOptions{})
		require.NoError(t, err)
		_, err = server.Kube.AppsV1().Deployments(agentNamespace).Get(ctx, "work-agent", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "the Deployment goes with the release: %v", err)
	})
}

// olderChart copies a chart into a temporary folder with the printer
// columns taken out of its CRDs, as a chart of an older API would have them.
func olderChart(t *testing.T, chart string) string {
	t.Helper()
	from := framework.ChartDir(chart)
	to := filepath.Join(t.TempDir(), chart)
	require.NoError(t, os.CopyFS(to, os.DirFS(from)))
	files, err := filepath.Glob(filepath.Join(to, "files", "crds", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var crd map[string]any
		require.NoError(t, yaml.Unmarshal(data, &crd))
		versions, _, _ := unstructured.NestedSlice(crd, "spec", "versions")
		for _, v := range versions {
			delete(v.(map[string]any), "additionalPrinterColumns")
		}
		require.NoError(t, unstructured.SetNestedSlice(crd, versions, "spec", "versions"))
		data, err = yaml.Marshal(crd)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(f, data, 0o644))
	}
	return to
}
