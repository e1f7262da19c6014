package apply

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

var (
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

	ownerA = workOwner("hubhash-work-a", "uid-a")
	ownerB = workOwner("hubhash-work-b", "uid-b")
)

func workOwner(name, uid string) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: "work.open-cluster-management.io/v1",
		Kind:       "AppliedManifestWork",
		Name:       name,
		UID:        types.UID(uid),
	}
}

// decode reads JSON the way the agent decodes manifests: whole numbers
// become int64, as they do with the API server's decoder.
func decode(t *testing.T, text string) *unstructured.Unstructured {
	t.Helper()
	content := map[string]any{}
	require.NoError(t, utiljson.Unmarshal([]byte(text), &content))
	return &unstructured.Unstructured{Object: content}
}

const deploymentManifest = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "hello", "namespace": "default", "labels": {"app": "hello"}},
  "spec": {
    "replicas": 3,
    "selector": {"matchLabels": {"app": "hello"}},
    "template": {
      "metadata": {"labels": {"app": "hello"}, "creationTimestamp": null},
      "spec": {"containers": [{
        "name": "hello", "image": "nginx:1.25",
        "resources": {"requests": {"cpu": "0.1", "memory": "1024Mi"}, "limits": {"cpu": 0.5}}
      }]}
    }
  }
}`

// deploymentAsServed is deploymentManifest as the API server returns it
// after the agent created it: server-set metadata, defaults inside list
// items, quantities in canonical form, replicas decoded as a float, a
// status, and a label, an annotation and a finalizer from other actors.
const deploymentAsServed = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {
    "name": "hello", "namespace": "default",
    "uid": "9f1c", "resourceVersion": "42", "generation": 1,
    "creationTimestamp": "2024-01-01T00:00:00Z",
    "managedFields": [{"manager": "work-agent", "operation": "Update"}],
    "labels": {"app": "hello", "team": "platform"},
    "annotations": {"deployment.kubernetes.io/revision": "1"},
    "finalizers": ["example.com/protect"]
  },
  "spec": {
    "replicas": 3.0,
    "progressDeadlineSeconds": 600, "revisionHistoryLimit": 10,
    "selector": {"matchLabels": {"app": "hello"}},
    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
    "template": {
      "metadata": {"labels": {"app": "hello"}},
      "spec": {
        "containers": [{
          "name": "hello", "image": "nginx:1.25", "imagePullPolicy": "IfNotPresent",
          "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
          "resources": {"requests": {"cpu": "100m", "memory": "1Gi"}, "limits": {"cpu": "500m"}}
        }],
        "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler",
        "terminationGracePeriodSeconds": 30, "securityContext": {}
      }
    }
  },
  "status": {"replicas": 3, "readyReplicas": 3, "observedGeneration": 1}
}`

func desiredDeployment(t *testing.T) *unstructured.Unstructured {
	return decode(t, deploymentManifest)
}

// servedDeployment is the live Deployment as written by the Update strategy
// for the given owners.
func servedDeployment(t *testing.T, owners ...metav1.OwnerReference) *unstructured.Unstructured {
	t.Helper()
	live := decode(t, deploymentAsServed)
	live.SetOwnerReferences(owners)
	return live
}

func configMap(t *testing.T, data map[string]any) *unstructured.Unstructured {
	t.Helper()
	obj := decode(t, `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "default"}}`)
	if data != nil {
		require.NoError(t, unstructured.SetNestedField(obj.Object, data, "data"))
	}
	return obj
}

// specOf stands for the caller's hash of a desired state (Request.Spec).
func specOf(t *testing.T, desired *unstructured.Unstructured, config *workv1.ManifestConfigOption) uint64 {
	t.Helper()
	data, err := json.Marshal([]any{desired.Object, config})
	require.NoError(t, err)
	return HashBytes(data)
}

// remembered is what the agent remembers after applying desired with config.
func remembered(t *testing.T, desired *unstructured.Unstructured, config *workv1.ManifestConfigOption) *LastApplied {
	t.Helper()
	last, err := Remember(Request{Desired: desired, Config: config, Spec: specOf(t, desired, config)})
	require.NoError(t, err)
	return &last
}

// newClient is a fake client holding objects, which answers dry runs of
// updates as the API server does (answerDryRuns).
func newClient(objects ...*unstructured.Unstructured) *fake.FakeDynamicClient {
	runtimeObjects := make([]runtime.Object, 0, len(objects))
	for _, obj := range objects {
		runtimeObjects = append(runtimeObjects, obj.DeepCopy())
	}
	client := fake.NewSimpleDynamicClient(runtime.NewScheme(), runtimeObjects...)
	answerDryRuns(client)
	return client
}

// answerDryRuns stands in for the API server's dry run of an update, with
// the defaults it fills in (serverDefaults).
func answerDryRuns(client *fake.FakeDynamicClient) {
	fixture.AnswerDryRuns(client, serverDefaults)
}

// serverDefaults fills in what the API server adds to a Deployment that
// deploymentAsServed shows (decoded as JSON: numbers are int64), and writes
// quantities in canonical form.
func serverDefaults(obj *unstructured.Unstructured) {
	if obj.GetKind() != "Deployment" {
		return
	}
	spec, _, _ := unstructured.NestedMap(obj.Object, "spec")
	setDefaults(spec, map[string]any{
		"replicas": int64(1), "progressDeadlineSeconds": int64(600), "revisionHistoryLimit": int64(10),
		"strategy": map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxSurge": "25%", "maxUnavailable": "25%"}},
	})
	podSpec, _, _ := unstructured.NestedMap(spec, "template", "spec")
	setDefaults(podSpec, map[string]any{
		"restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler",
		"terminationGracePeriodSeconds": int64(30), "securityContext": map[string]any{},
	})
	containers, _, _ := unstructured.NestedSlice(podSpec, "containers")
	for _, c := range containers {
		container := c.(map[string]any)
		setDefaults(container, map[string]any{
			"imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
		})
		resources, _ := container["resources"].(map[string]any)
		for _, list := range resources {
			for name, q := range list.(map[string]any) {
				list.(map[string]any)[name] = canonicalQuantity(q)
			}
		}
	}
	_ = unstructured.SetNestedSlice(podSpec, containers, "containers")
	_ = unstructured.SetNestedMap(spec, podSpec, "template", "spec")
	unstructured.RemoveNestedField(spec, "template", "metadata", "creationTimestamp")
	_ = unstructured.SetNestedMap(obj.Object, spec, "spec")
}

func setDefaults(m, defaults map[string]any) {
	for k, v := range defaults {
		if _, found := m[k]; !found {
			m[k] = v
		}
	}
}

func canonicalQuantity(v any) any {
	var q resource.Quantity
	switch x := v.(type) {
	case string:
		q = resource.MustParse(x)
	case int64:
		q = *resource.NewQuantity(x, resource.DecimalSI)
	case float64:
		q = resource.MustParse(strconv.FormatFloat(x, 'f', -1, 64))
	default:
		return v
	}
	return q.String()
}

// tableClient is the client of one table case: holding live when it is set,
// with the case's reactors installed.
func tableClient(live *unstructured.Unstructured, reactors []func(*fake.FakeDynamicClient)) *fake.FakeDynamicClient {
	var existing []*unstructured.Unstructured
	if live != nil {
		existing = append(existing, live)
	}
	client := newClient(existing...)
	for _, react := range reactors {
		react(client)
	}
	return client
}

// dryRun is how verbs lists a dry run of an update.
const dryRun = "update (dry run)"

// verbs lists the verbs the client received, in order; a dry run of an
// update is dryRun.
func verbs(client *fake.FakeDynamicClient) []string {
	var out []string
	for _, action := range client.Actions() {
		if update, ok := action.(clienttesting.UpdateActionImpl); ok && len(update.UpdateOptions.DryRun) > 0 {
			out = append(out, dryRun)
			continue
		}
		out = append(out, action.GetVerb())
	}
	return out
}

// wroteAny tells whether the client received any write.
func wroteAny(client *fake.FakeDynamicClient) bool {
	for _, verb := range verbs(client) {
		if verb != "get" && verb != dryRun {
			return true
		}
	}
	return false
}

// stored reads an object from the fake's tracker without recording an action.
func stored(t *testing.T, client *fake.FakeDynamicClient, gvr schema.GroupVersionResource, namespace, name string) *unstructured.Unstructured {
	t.Helper()
	obj, err := client.Tracker().Get(gvr, namespace, name)
	require.NoError(t, err)
	u, ok := obj.(*unstructured.Unstructured)
	require.True(t, ok, "tracker holds %T", obj)
	return u
}

// sentObject is the object of the first action with the verb (create or update).
func sentObject(t *testing.T, client *fake.FakeDynamicClient, verb string) *unstructured.Unstructured {
	t.Helper()
	for _, action := range client.Actions() {
		if action.GetVerb() != verb {
			continue
		}
		withObject, ok := action.(interface{ GetObject() runtime.Object })
		require.True(t, ok)
		u, ok := withObject.GetObject().(*unstructured.Unstructured)
		require.True(t, ok)
		return u
	}
	t.Fatalf("no %s action in %v", verb, verbs(client))
	return nil
}

// applyRecorder stands in for the API server's server-side apply, which the
// fake tracker does not implement: it records each apply patch and answers
// with the patch body as the resulting object, with the owner references the
// stored object had. Other patches go to the tracker.
type applyRecorder struct {
	patches []clienttesting.PatchActionImpl
}

func recordApplies(client *fake.FakeDynamicClient) *applyRecorder {
	rec := &applyRecorder{}
	client.PrependReactor("patch", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		patch := action.(clienttesting.PatchActionImpl)
		if patch.GetPatchType() != types.ApplyPatchType {
			return false, nil, nil
		}
		rec.patches = append(rec.patches, patch)
		obj := &unstructured.Unstructured{}
		if err := json.Unmarshal(patch.GetPatch(), &obj.Object); err != nil {
			return true, nil, err
		}
		obj.SetUID("applied-uid")
		obj.SetResourceVersion("43")
		if existing, err := client.Tracker().Get(patch.GetResource(), patch.GetNamespace(), patch.GetName()); err == nil {
			// Fields no apply body sets, such as the owner references, stay.
			obj.SetOwnerReferences(existing.(*unstructured.Unstructured).GetOwnerReferences())
			if err := client.Tracker().Delete(patch.GetResource(), patch.GetNamespace(), patch.GetName()); err != nil {
				return true, nil, err
			}
		}
		if err := client.Tracker().Add(obj.DeepCopy()); err != nil {
			return true, nil, err
		}
		return true, obj, nil
	})
	return rec
}

// body is the last applied object.
func (r *applyRecorder) body(t *testing.T) *unstructured.Unstructured {
	t.Helper()
	require.NotEmpty(t, r.patches, "no apply patch was sent")
	return decode(t, string(r.patches[len(r.patches)-1].GetPatch()))
}

// checkApply checks what a table case's apply did: the verbs sent, then
// either the error (checkErr set) or a result holding an object (check).
func checkApply(t *testing.T, client *fake.FakeDynamicClient, res Result, err error, wantVerbs []string,
	checkErr func(*testing.T, error), check func(*testing.T, *fake.FakeDynamicClient, Result)) {
	t.Helper()
	assert.Equal(t, wantVerbs, verbs(client))
	if checkErr != nil {
		require.Error(t, err)
		checkErr(t, err)
		return
	}
	require.NoError(t, err)
	require.NotNil(t, res.Object)
	if check != nil {
		check(t, client, res)
	}
}
