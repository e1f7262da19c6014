package health

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// object parses an object as kubectl get -o yaml shows it.
func object(t *testing.T, doc string) *unstructured.Unstructured {
	t.Helper()
	data, err := yaml.YAMLToJSON([]byte(doc))
	require.NoError(t, err)
	obj := &unstructured.Unstructured{}
	require.NoError(t, obj.UnmarshalJSON(data), "numbers decode as int64, as from the API")
	return obj
}

type ruleCase struct {
	name    string
	doc     string
	status  metav1.ConditionStatus
	reason  string
	message string
}

// ofKind puts the apiVersion and kind at the head of each case's doc.
func ofKind(apiVersion, kind string, cases []ruleCase) []ruleCase {
	for i := range cases {
		cases[i].doc = "apiVersion: " + apiVersion + "\nkind: " + kind + cases[i].doc
	}
	return cases
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := object(t, tc.doc)
			got := Judge(obj.GroupVersionKind().GroupKind(), obj)
			assert.Equal(t, tc.status, got.Status, "status; message %q", got.Message)
			assert.Equal(t, tc.reason, got.Reason, "reason; message %q", got.Message)
			assert.Equal(t, tc.message, got.Message)
		})
	}
}

const (
	isTrue    = metav1.ConditionTrue
	isFalse   = metav1.ConditionFalse
	isUnknown = metav1.ConditionUnknown
	ok        = workv1.HealthyReasonHealthy
	moving    = workv1.HealthyReasonProgressing
	broken    = workv1.HealthyReasonDegraded
	unjudged  = workv1.HealthyReasonNoHealthCheck
)

func TestDeployment(t *testing.T) {
	runRuleCases(t, ofKind("apps/v1", "Deployment", []ruleCase{{
		name: "rolled out",
		doc: `
metadata: {name: hello, namespace: web, generation: 2}
spec: {replicas: 3}
status:
  observedGeneration: 2
  replicas: 3
  updatedReplicas: 3
  readyReplicas: 3
  availableReplicas: 3
  conditions:
  - {type: Available, status: "True", reason: MinimumReplicasAvailable, message: Deployment has minimum availability.}
  - {type: Progressing, status: "True", reason: NewReplicaSetAvailable, message: ReplicaSet "hello-7d9f" has successfully progressed.}
`,
		status: isTrue, reason: ok, message: "3 of 3 replicas updated and available",
	}, {
		name: "rolling out",
		doc: `
metadata: {name: hello, namespace: web, generation: 2}
spec: {replicas: 3}
status:
  observedGeneration: 2
  replicas: 3
  updatedReplicas: 3
  readyReplicas: 2
  availableReplicas: 2
  conditions:
  - {type: Progressing, status: "True", reason: ReplicaSetUpdated, message: ReplicaSet "hello-7d9f" is progressing.}
`,
		status: isFalse, reason: moving, message: "2 of 3 replicas available; rollout waiting on ReplicaSet hello-7d9f",
	}, {
		name: "old replicas still running",
		doc: `
metadata: {name: hello, namespace: web, generation: 3}
spec: {replicas: 2}
status: {observedGeneration: 3, replicas: 3, updatedReplicas: 2, readyReplicas: 3, availableReplicas: 3}
`,
		status: isFalse, reason: moving, message: "1 old replicas are pending termination",
	}, {
		name: "new generation not observed",
		doc: `
metadata: {name: hello, namespace: web, generation: 4}
spec: {replicas: 1}
status:
  observedGeneration: 3
  replicas: 1
  updatedReplicas: 1
  availableReplicas: 1
  conditions:
  - {type: Progressing, status: "False", reason: ProgressDeadlineExceeded, message: ReplicaSet "hello-1" has timed out progressing.}
`,
		status: isFalse, reason: moving, message: "Deployment is waiting for the controller to observe generation 4 (it has seen 3)",
	}, {
		name: "progress deadline exceeded",
		doc: `
metadata: {name: stuck, namespace: web, generation: 1}
spec: {replicas: 2}
status:
  observedGeneration: 1
  replicas: 2
  updatedReplicas: 2
  unavailableReplicas: 2
  conditions:
  - {type: Available, status: "False", reason: MinimumReplicasUnavailable, message: Deployment does not have minimum availability.}
  - {type: Progressing, status: "False", reason: ProgressDeadlineExceeded, message: ReplicaSet "stuck-5c8b" has timed out progressing.}
`,
		status: isFalse, reason: broken, message: `Rollout exceeded its progress deadline: ReplicaSet "stuck-5c8b" has timed out progressing.`,
	}, {
		name: "replica failure",
		doc: `
metadata: {name: quota, namespace: web, generation: 1}
spec: {replicas: 1}
status:
  observedGeneration: 1
  conditions:
  - {type: ReplicaFailure, status: "True", reason: FailedCreate, message: 'pods "quota-5c8b-x" is forbidden: exceeded quota: compute'}
`,
		status: isFalse, reason: broken, message: `Cannot create pods: FailedCreate: pods "quota-5c8b-x" is forbidden: exceeded quota: compute`,
	}, {
		name: "fresh, no status",
		doc: `
metadata: {name: hello, namespace: web, generation: 1}
spec: {replicas: 1}
`,
		status: isFalse, reason: moving, message: "Deployment is waiting for the controller to observe generation 1 (it has seen 0)",
	}, {
		name: "scaled to zero",
		doc: `
metadata: {name: hello, namespace: web, generation: 5}
spec: {replicas: 0}
status: {observedGeneration: 5}
`,
		status: isTrue, reason: ok, message: "0 of 0 replicas updated and available",
	}}))
}

func TestStatefulSetDaemonSetReplicaSet(t *testing.T) {
	runRuleCases(t, ofKind("apps/v1", "StatefulSet", []ruleCase{{
		name: "statefulset ready",
		doc: `
metadata: {name: db, namespace: data, generation: 1}
spec: {replicas: 3, updateStrategy: {type: RollingUpdate}}
status: {observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3, currentRevision: db-6b8, updateRevision: db-6b8}
`,
		status: isTrue, reason: ok, message: "3 of 3 replicas ready and available",
	}, {
		name: "statefulset updating",
		doc: `
metadata: {name: db, namespace: data, generation: 2}
spec: {replicas: 3, updateStrategy: {type: RollingUpdate}}
status: {observedGeneration: 2, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 1, currentRevision: db-6b8, updateRevision: db-7f9}
`,
		status: isFalse, reason: moving, message: "1 of 3 replicas updated to revision db-7f9",
	}, {
		name: "statefulset partitioned update done",
		doc: `
metadata: {name: db, namespace: data, generation: 2}
spec: {replicas: 3, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}}
status: {observedGeneration: 2, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 1, currentRevision: db-6b8, updateRevision: db-7f9}
`,
		status: isTrue, reason: ok, message: "3 of 3 replicas ready and available",
	}, {
		name: "statefulset not ready",
		doc: `
metadata: {name: db, namespace: data, generation: 1}
spec: {replicas: 3, updateStrategy: {type: OnDelete}}
status: {observedGeneration: 1, replicas: 2, readyReplicas: 1, availableReplicas: 1}
`,
		status: isFalse, reason: moving, message: "1 of 3 replicas ready",
	}}))
	runRuleCases(t, ofKind("apps/v1", "DaemonSet", []ruleCase{{
		name: "daemonset available",
		doc: `
metadata: {name: agent, namespace: kube-system, generation: 1}
spec: {updateStrategy: {type: RollingUpdate}}
status: {observedGeneration: 1, desiredNumberScheduled: 4, currentNumberScheduled: 4, updatedNumberScheduled: 4, numberReady: 4, numberAvailable: 4}
`,
		status: isTrue, reason: ok, message: "4 of 4 pods available",
	}, {
		name: "daemonset updating",
		doc: `
metadata: {name: agent, namespace: kube-system, generation: 2}
spec: {updateStrategy: {type: RollingUpdate}}
status: {observedGeneration: 2, desiredNumberScheduled: 4, updatedNumberScheduled: 1, numberReady: 4, numberAvailable: 4}
`,
		status: isFalse, reason: moving, message: "1 of 4 pods updated",
	}}))
	runRuleCases(t, ofKind("apps/v1", "ReplicaSet", []ruleCase{{
		name: "replicaset available",
		doc: `
metadata: {name: rs, namespace: web, generation: 1}
spec: {replicas: 2}
status: {observedGeneration: 1, replicas: 2, readyReplicas: 2, availableReplicas: 2}
`,
		status: isTrue, reason: ok, message: "2 of 2 replicas available",
	}, {
		name: "replicaset cannot create pods",
		doc: `
metadata: {name: rs, namespace: web, generation: 1}
spec: {replicas: 2}
status:
  observedGeneration: 1
  replicas: 0
  conditions:
  - {type: ReplicaFailure, status: "True", reason: FailedCreate, message: 'pods "rs-x" is forbidden: error looking up service account web/missing: serviceaccount "missing" not found'}
`,
		status: isFalse, reason: broken, message: `Cannot create pods: FailedCreate: pods "rs-x" is forbidden: error looking up service account web/missing: serviceaccount "missing" not found`,
	}}))
}

func TestJobAndPod(t *testing.T) {
	runRuleCases(t, ofKind("batch/v1", "Job", []ruleCase{{
		name: "job complete",
		doc: `
metadata: {name: once, namespace: jobs}
spec: {completions: 1}
status:
  succeeded: 1
  conditions:
  - {type: SuccessCriteriaMet, status: "True", reason: CompletionsReached, message: Reached expected number of succeeded pods}
  - {type: Complete, status: "True", reason: CompletionsReached, message: Reached expected number of succeeded pods}
`,
		status: isTrue, reason: ok, message: "Job completed (1 succeeded)",
	}, {
		name: "job failed",
		doc: `
metadata: {name: once, namespace: jobs}
spec: {backoffLimit: 1}
status:
  failed: 2
  conditions:
  - {type: FailureTarget, status: "True", reason: BackoffLimitExceeded, message: Job has reached the specified backoff limit}
  - {type: Failed, status: "True", reason: BackoffLimitExceeded, message: Job has reached the specified backoff limit}
`,
		status: isFalse, reason: broken, message: "Job failed: BackoffLimitExceeded (Job has reached the specified backoff limit)",
	}, {
		name: "job past its deadline",
		doc: `
metadata: {name: once, namespace: jobs}
status:
  conditions:
  - {type: Failed, status: "True", reason: DeadlineExceeded, message: Job was active longer than specified deadline}
`,
		status: isFalse, reason: broken, message: "Job failed: DeadlineExceeded (Job was active longer than specified deadline)",
	}, {
		name: "job suspended",
		doc: `
metadata: {name: later, namespace: jobs}
spec: {suspend: true}
status:
  conditions:
  - {type: Suspended, status: "True", reason: JobSuspended, message: Job suspended}
`,
		status: isTrue, reason: ok, message: "Job is suspended",
	}, {
		name: "job running",
		doc: `
metadata: {name: many, namespace: jobs}
spec: {completions: 5, parallelism: 2}
status: {active: 2, succeeded: 1, failed: 1}
`,
		status: isFalse, reason: moving, message: "Job is running: 2 active, 1 of 5 succeeded, 1 failed",
	}}))
	runRuleCases(t, ofKind("v1", "Pod", []ruleCase{{
		name: "pod running and ready",
		doc: `
metadata: {name: web-0, namespace: web}
status:
  phase: Running
  conditions:
  - {type: Ready, status: "True"}
  containerStatuses:
  - {name: web, ready: true, state: {running: {startedAt: "2024-01-01T00:00:00Z"}}}
`,
		status: isTrue, reason: ok, message: "Pod is running and ready",
	}, {
		name: "pod crash looping",
		doc: `
metadata: {name: web-0, namespace: web}
status:
  phase: Running
  conditions:
  - {type: Ready, status: "False", reason: ContainersNotReady}
  containerStatuses:
  - name: web
    ready: false
    restartCount: 5
    state: {waiting: {reason: CrashLoopBackOff, message: back-off 2m40s restarting failed container=web pod=web-0_web(1)}}
`,
		status: isFalse, reason: broken, message: "Container web is waiting: CrashLoopBackOff (back-off 2m40s restarting failed container=web pod=web-0_web(1))",
	}, {
		name: "pod image cannot be pulled",
		doc: `
metadata: {name: web-0, namespace: web}
status:
  phase: Pending
  containerStatuses:
  - name: web
    ready: false
    state: {waiting: {reason: ImagePullBackOff, message: Back-off pulling image "nginx:nope"}}
`,
		status: isFalse, reason: broken, message: `Container web is waiting: ImagePullBackOff (Back-off pulling image "nginx:nope")`,
	}, {
		name: "pod unschedulable",
		doc: `
metadata: {name: web-0, namespace: web}
status:
  phase: Pending
  conditions:
  - {type: PodScheduled, status: "False", reason: Unschedulable, message: "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."}
`,
		status: isFalse, reason: moving, message: "Pod is Pending: Unschedulable: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector",
	}, {
		name: "pod starting",
		doc: `
metadata: {name: web-0, namespace: web}
status:
  phase: Running
  conditions:
  - {type: Ready, status: "False"}
  containerStatuses:
  - {name: web, ready: false, state: {running: {}}}
  - {name: sidecar, ready: true, state: {running: {}}}
`,
		status: isFalse, reason: moving, message: "Pod is running; 1 of 2 containers ready",
	}, {
		name: "pod failed",
		doc: `
metadata: {name: web-0, namespace: web}
status: {phase: Failed, reason: Evicted, message: "The node was low on resource: memory."}
`,
		status: isFalse, reason: broken, message: "Pod failed: Evicted (The node was low on resource: memory)",
	}, {
		name: "pod succeeded",
		doc: `
metadata: {name: once, namespace: web}
status: {phase: Succeeded}
`,
		status: isTrue, reason: ok, message: "Pod succeeded",
	}}))
}

func TestCoreKinds(t *testing.T) {
	runRuleCases(t, []ruleCase{{
		name:   "pvc bound",
		doc:    `{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data, namespace: db}, status: {phase: Bound}}`,
		status: isTrue, reason: ok, message: "PersistentVolumeClaim data is Bound",
	}, {
		name:   "pvc pending",
		doc:    `{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data, namespace: db}, status: {phase: Pending}}`,
		status: isFalse, reason: moving, message: "PersistentVolumeClaim data is Pending",
	}, {
		name:   "pvc lost",
		doc:    `{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data, namespace: db}, status: {phase: Lost}}`,
		status: isFalse, reason: broken, message: "PersistentVolumeClaim data is Lost: its PersistentVolume no longer exists",
	}, {
		name:   "cluster IP service",
		doc:    `{apiVersion: v1, kind: Service, metadata: {name: web, namespace: web}, spec: {type: ClusterIP}, status: {loadBalancer: {}}}`,
		status: isTrue, reason: ok, message: "Service of type ClusterIP has no address to wait for",
	}, {
		name:   "load balancer waiting",
		doc:    `{apiVersion: v1, kind: Service, metadata: {name: web, namespace: web}, spec: {type: LoadBalancer}, status: {loadBalancer: {}}}`,
		status: isFalse, reason: moving, message: "Service web is waiting for a load balancer address",
	}, {
		name:   "load balancer assigned",
		doc:    `{apiVersion: v1, kind: Service, metadata: {name: web, namespace: web}, spec: {type: LoadBalancer}, status: {loadBalancer: {ingress: [{ip: 203.0.113.7}, {hostname: lb.example.com}]}}}`,
		status: isTrue, reason: ok, message: "Load balancer address: 203.0.113.7, lb.example.com",
	}, {
		name:   "ingress without address",
		doc:    `{apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: web, namespace: web}, status: {loadBalancer: {}}}`,
		status: isFalse, reason: moving, message: "Ingress web has no address yet",
	}, {
		name:   "ingress with address",
		doc:    `{apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: web, namespace: web}, status: {loadBalancer: {ingress: [{ip: 10.0.0.9}]}}}`,
		status: isTrue, reason: ok, message: "Ingress address: 10.0.0.9",
	}, {
		name:   "namespace active",
		doc:    `{apiVersion: v1, kind: Namespace, metadata: {name: web}, status: {phase: Active}}`,
		status: isTrue, reason: ok, message: "Namespace is Active",
	}, {
		name:   "namespace terminating",
		doc:    `{apiVersion: v1, kind: Namespace, metadata: {name: web}, status: {phase: Terminating}}`,
		status: isFalse, reason: moving, message: "Namespace is Terminating",
	}, {
		name: "namespace stuck terminating",
		doc: `
apiVersion: v1
kind: Namespace
metadata: {name: web}
status:
  phase: Terminating
  conditions:
  - {type: NamespaceFinalizersRemaining, status: "True", reason: SomeFinalizersRemain, message: "Some content in the namespace has finalizers remaining: example.com/keep in 1 resource instances"}
`,
		status: isFalse, reason: broken, message: "Namespace is Terminating: SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/keep in 1 resource instances",
	}, {
		name:   "configmap",
		doc:    `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: web}, data: {a: b}}`,
		status: isTrue, reason: unjudged, message: "ConfigMap exists; its kind has no health check",
	}})
}

func TestAPIKinds(t *testing.T) {
	runRuleCases(t, ofKind("apiextensions.k8s.io/v1", "CustomResourceDefinition", []ruleCase{{
		name: "crd established",
		doc: `
metadata: {name: widgets.example.com}
status:
  conditions:
  - {type: NamesAccepted, status: "True", reason: NoConflicts, message: no conflicts found}
  - {type: Established, status: "True", reason: InitialNamesAccepted, message: the initial names have been accepted}
`,
		status: isTrue, reason: ok, message: "Established",
	}, {
		name: "crd names conflict",
		doc: `
metadata: {name: gadgets.example.com}
status:
  conditions:
  - {type: NamesAccepted, status: "False", reason: MultipleConflicts, message: '"widgets" is already in use'}
  - {type: Established, status: "False", reason: NotAccepted, message: not all names are accepted}
`,
		status: isFalse, reason: broken, message: `Names not accepted: MultipleConflicts: "widgets" is already in use`,
	}, {
		name: "crd new",
		doc: `
metadata: {name: widgets.example.com}
`,
		status: isFalse, reason: moving, message: "Not established yet",
	}}))
	runRuleCases(t, ofKind("apiregistration.k8s.io/v1", "APIService", []ruleCase{{
		name: "apiservice available",
		doc: `
metadata: {name: v1beta1.metrics.k8s.io}
status:
  conditions:
  - {type: Available, status: "True", reason: Passed, message: all checks passed}
`,
		status: isTrue, reason: ok, message: "APIService is available",
	}, {
		name: "apiservice missing endpoints",
		doc: `
metadata: {name: v1beta1.metrics.k8s.io}
status:
  conditions:
  - {type: Available, status: "False", reason: MissingEndpoints, message: endpoints for service/metrics-server in "kube-system" have no addresses with port name "https"}
`,
		status: isFalse, reason: broken, message: `APIService is not available: MissingEndpoints: endpoints for service/metrics-server in "kube-system" have no addresses with port name "https"`,
	}}))
}

func TestGenericConditions(t *testing.T) {
	runRuleCases(t, ofKind("cert-manager.io/v1", "Certificate", []ruleCase{{
		name: "certificate ready",
		doc: `
metadata: {name: web, namespace: web, generation: 1}
status:
  conditions:
  - {type: Ready, status: "True", reason: Ready, message: Certificate is up to date and has not expired, observedGeneration: 1}
`,
		status: isTrue, reason: ok, message: "Ready: Certificate is up to date and has not expired",
	}, {
		name: "certificate not ready",
		doc: `
metadata: {name: web, namespace: web, generation: 1}
status:
  conditions:
  - {type: Ready, status: "False", reason: DoesNotExist, message: Issuing certificate as Secret does not exist, observedGeneration: 1}
`,
		status: isFalse, reason: broken, message: "Ready is False: DoesNotExist: Issuing certificate as Secret does not exist",
	}}))
	runRuleCases(t, ofKind("kustomize.toolkit.fluxcd.io/v1", "Kustomization", []ruleCase{{
		name: "flux reconciling",
		doc: `
metadata: {name: apps, namespace: flux-system, generation: 3}
status:
  observedGeneration: 3
  conditions:
  - {type: Reconciling, status: "True", reason: Progressing, message: Reconciliation in progress}
  - {type: Ready, status: Unknown, reason: Progressing, message: Reconciliation in progress}
`,
		status: isFalse, reason: moving, message: "Reconciling: Progressing: Reconciliation in progress",
	}, {
		name: "flux stalled",
		doc: `
metadata: {name: apps, namespace: flux-system, generation: 3}
status:
  observedGeneration: 3
  conditions:
  - {type: Stalled, status: "True", reason: BuildFailed, message: kustomize build failed}
  - {type: Ready, status: "False", reason: BuildFailed, message: kustomize build failed}
`,
		status: isFalse, reason: broken, message: "Stalled: BuildFailed: kustomize build failed",
	}, {
		name: "status generation behind",
		doc: `
metadata: {name: apps, namespace: flux-system, generation: 4}
status:
  observedGeneration: 3
  conditions:
  - {type: Ready, status: "True", reason: ReconciliationSucceeded}
`,
		status: isFalse, reason: moving, message: "Kustomization is waiting for the controller to observe generation 4 (it has seen 3)",
	}}))
	runRuleCases(t, ofKind("example.com/v1", "Widget", []ruleCase{{
		name: "condition generation behind",
		doc: `
metadata: {name: w, namespace: web, generation: 2}
status:
  conditions:
  - {type: Ready, status: "True", reason: Done, observedGeneration: 1}
`,
		status: isFalse, reason: moving, message: "Widget is waiting for the controller to observe generation 2 (Ready is of generation 1)",
	}, {
		name: "available only",
		doc: `
metadata: {name: w, namespace: web, generation: 1}
status:
  conditions:
  - {type: Available, status: Unknown}
`,
		status: isFalse, reason: moving, message: "Available is Unknown: no reason given",
	}, {
		name: "no conditions",
		doc: `
metadata: {name: w, namespace: web, generation: 1}
spec: {size: 1}
`,
		status: isTrue, reason: unjudged, message: "Widget exists; its kind has no health check",
	}}))
}

func TestFieldsKeepWhatRulesRead(t *testing.T) {
	assert.Nil(t, Fields(schema.GroupResource{Resource: "configmaps"}), "ConfigMaps keep the metadata-only watch")
	assert.Nil(t, Fields(schema.GroupResource{Group: "rbac.authorization.k8s.io", Resource: "roles"}))
	assert.Contains(t, Fields(schema.GroupResource{Group: "apps", Resource: "deployments"}), []string{"status", "availableReplicas"})
	assert.Equal(t, genericRule.Fields, Fields(schema.GroupResource{Group: "example.com", Resource: "widgets"}))
	assert.False(t, Judged(schema.GroupKind{Kind: "Secret"}))
	assert.True(t, Judged(schema.GroupKind{Group: "example.com", Kind: "Widget"}))
}

func TestAggregate(t *testing.T) {
	cond := func(status metav1.ConditionStatus, reason, message string) *metav1.Condition {
		return &metav1.Condition{Type: workv1.ManifestHealthy, Status: status, Reason: reason, Message: message}
	}
	for _, tc := range []struct {
		name      string
		manifests []Manifest
		ok        bool
		status    metav1.ConditionStatus
		reason    string
		message   string
	}{{
		name: "all healthy",
		manifests: []Manifest{
			{Ref: "Namespace web", Condition: cond(isTrue, ok, "Namespace is Active")},
			{Ref: "ConfigMap web/c", Condition: cond(isTrue, unjudged, "")},
		},
		ok: true, status: isTrue, reason: ok, message: "All 2 resources are healthy",
	}, {
		name: "degraded before progressing before unknown",
		manifests: []Manifest{
			{Ref: "Job web/j", Condition: cond(isUnknown, workv1.HealthyReasonUnknown, "forbidden")},
			{Ref: "Deployment web/a", Condition: cond(isFalse, moving, "1 of 2 replicas available")},
			{Ref: "Deployment web/b", Condition: cond(isFalse, broken, "Rollout exceeded its progress deadline")},
			{Ref: "ConfigMap web/c", Condition: cond(isTrue, unjudged, "")},
		},
		ok: true, status: isFalse, reason: broken,
		message: "3 of 4 resources are not healthy: Deployment web/b is Degraded (Rollout exceeded its progress deadline); " +
			"Deployment web/a is Progressing (1 of 2 replicas available); Job web/j is HealthUnknown (forbidden)",
	}, {
		name: "a rule's False counts as progressing",
		manifests: []Manifest{
			{Ref: "Widget web/w", Condition: cond(isFalse, workv1.ConditionRuleEvaluated, "not yet")},
		},
		ok: true, status: isFalse, reason: moving, message: "1 of 1 resources are not healthy: Widget web/w is Progressing (not yet)",
	}, {
		name: "unknown only",
		manifests: []Manifest{
			{Ref: "Widget web/w", Condition: cond(isUnknown, workv1.HealthyReasonUnknown, "cannot read")},
		},
		ok: true, status: isUnknown, reason: workv1.HealthyReasonUnknown, message: "1 of 1 resources are not healthy: Widget web/w is HealthUnknown (cannot read)",
	}, {
		name: "many named, the rest counted",
		manifests: []Manifest{
			{Ref: "Pod p/1", Condition: cond(isFalse, moving, "a")}, {Ref: "Pod p/2", Condition: cond(isFalse, moving, "b")},
			{Ref: "Pod p/3", Condition: cond(isFalse, moving, "c")}, {Ref: "Pod p/4", Condition: cond(isFalse, moving, "d")},
			{Ref: "Pod p/5", Condition: cond(isFalse, moving, "e")},
		},
		ok: true, status: isFalse, reason: moving,
		message: "5 of 5 resources are not healthy: Pod p/1 is Progressing (a); Pod p/2 is Progressing (b); Pod p/3 is Progressing (c); and 2 more",
	}, {
		name:      "not judged yet",
		manifests: []Manifest{{Ref: "Deployment web/a"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Aggregate(tc.manifests, 7)
			require.Equal(t, tc.ok, ok)
			if !ok {
				return
			}
			assert.Equal(t, tc.status, got.Status)
			assert.Equal(t, tc.reason, got.Reason)
			assert.Equal(t, tc.message, got.Message)
			assert.Equal(t, int64(7), got.ObservedGeneration)
			assert.Equal(t, workv1.WorkHealthy, got.Type)
		})
	}
}
