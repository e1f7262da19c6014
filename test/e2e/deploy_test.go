package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/manifestwork/work/test/framework"
)

// The framework has applied deploy/ to the clusters (through overlays) and
// runs every hub and agent of this suite under it. Here the bases themselves,
// as a user applies them, must be accepted by the API server of the cluster
// each belongs on, without a warning.
func TestDeployBasesApply(t *testing.T) {
	e := setup(t)
	for _, tc := range []struct{ cluster, base string }{
		{framework.HubName, "hub"},
		{framework.HubName, "hub-without-webhook"},
		{framework.HubName, "ocm-hub"},
		{framework.HubName, "cluster-namespace"},
		{"cluster1", "agent"},
	} {
		t.Run(tc.base, func(t *testing.T) {
			res, err := e.KubectlResult(tc.cluster, "apply", "--dry-run=server", "-k", framework.DeployBase(tc.base))
			require.NoError(t, err)
			t.Log("\n" + res.Stdout)
			assert.Contains(t, res.Stdout, "(server dry run)")
			assert.NotContains(t, res.Stderr, "Warning", "the API server warned about deploy/%s", tc.base)
		})
	}
}

// The pods of the Deployments of deploy/ are admitted in their namespaces,
// which enforce the restricted Pod Security Standard; a pod without the
// restricted security context is refused there.
func TestDeployPodsAreRestricted(t *testing.T) {
	e := setup(t)
	for _, tc := range []struct{ cluster, base, deployment string }{
		{framework.HubName, "hub", "work-hub"},
		{framework.HubName, "hub-without-webhook", "work-hub"},
		{"cluster1", "agent", "work-agent"},
	} {
		t.Run(tc.base, func(t *testing.T) {
			ctx := t.Context()
			kube := e.Cluster(tc.cluster).Kube
			d := renderedDeployment(t, tc.cluster, tc.base, tc.deployment)
			ns, err := kube.CoreV1().Namespaces().Get(ctx, d.Namespace, metav1.GetOptions{})
			require.NoError(t, err)
			require.Equal(t, "restricted", ns.Labels["pod-security.kubernetes.io/enforce"])

			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{GenerateName: tc.deployment + "-", Namespace: d.Namespace, Labels: d.Spec.Template.Labels},
				Spec:       d.Spec.Template.Spec,
			}
			dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
			_, err = kube.CoreV1().Pods(d.Namespace).Create(ctx, pod, dryRun)
			require.NoError(t, err, "the pod of deploy/%s is admitted", tc.base)

			// The same pod without its container security context: proof
			// that the namespace's enforcement is what admitted it.
			pod.Spec.Containers[0].SecurityContext = nil
			_, err = kube.CoreV1().Pods(d.Namespace).Create(ctx, pod, dryRun)
			require.Error(t, err)
			assert.Contains(t, err.Error(), `violates PodSecurity "restricted:latest"`)
		})
	}
}

// renderedDeployment is the named Deployment of deploy/<base> as kustomize
// renders it.
func renderedDeployment(t *testing.T, cluster, base, name string) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	o := findObject(t, renderedBase(t, cluster, base), "Deployment", name)
	require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, &d))
	return &d
}

// renderedBase is deploy/<base> as kustomize renders it.
func renderedBase(t *testing.T, cluster, base string) []*unstructured.Unstructured {
	t.Helper()
	out, err := env.Kubectl(cluster, "kustomize", framework.DeployBase(base))
	require.NoError(t, err)
	return decodeObjects(t, out)
}

// deploy/hub-without-webhook runs work hub with nothing of the webhook: its
// pods mount no Secret (so none is missing on a fresh hub), pass no --tls-*
// flag, expose no webhook port, and no Service points at them; deploy/hub
// does all of these. kwok's fake nodes run a pod whatever its volumes, so
// the hub is run here as a process from the rendered Deployment's own
// arguments and environment, with no certificate anywhere: it becomes ready
// and takes the lease that runs the controllers.
func TestDeployHubWithoutWebhook(t *testing.T) {
	e := setup(t)
	hub := renderedDeployment(t, framework.HubName, "hub", "work-hub")
	require.NotEmpty(t, secretVolumes(hub.Spec.Template.Spec), "deploy/hub mounts the webhook's Secret")

	objs := renderedBase(t, framework.HubName, "hub-without-webhook")
	for _, o := range objs {
		assert.NotEqual(t, "Service", o.GetKind(), "Service %s", o.GetName())
	}
	d := renderedDeployment(t, framework.HubName, "hub-without-webhook", "work-hub")
	pod := d.Spec.Template.Spec
	require.Len(t, pod.Containers, 1)
	container := pod.Containers[0]
	assert.Equal(t, hub.Spec.Template.Spec.Containers[0].Image, container.Image, "the image of deploy/hub")
	assert.Empty(t, secretVolumes(pod), "Secret volumes")
	assert.Empty(t, container.VolumeMounts)
	for _, arg := range container.Args {
		assert.False(t, strings.HasPrefix(arg, "--tls-"), "argument %s", arg)
	}
	for _, port := range container.Ports {
		assert.NotEqual(t, "webhook", port.Name)
	}

	const podName = "work-hub-without-webhook-0"
	podEnv, args := podProcess(t, pod, podName, d.Namespace, nil)
	require.Equal(t, []string{"hub"}, args)
	p, err := e.StartWork("hub-without-webhook", podEnv, append(args, "--kubeconfig="+e.Hub.WorkKubeconfig)...)
	require.NoError(t, err, "work hub from deploy/hub-without-webhook is ready")
	t.Cleanup(func() { stopAgent(t, p) })
	framework.Eventually(t, hubLeaseTimeout, func() error {
		lease, err := e.Hub.Kube.CoordinationV1().Leases(d.Namespace).Get(t.Context(), "work-hub", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if h := lease.Spec.HolderIdentity; h == nil || *h != podName {
			return fmt.Errorf("the lease is held by %v", h)
		}
		return nil
	}, "the hub of deploy/hub-without-webhook leads")
}

// hubLeaseTimeout is longer than a lease left behind by a killed hub lasts
// (the default lease duration, 137s), plus a retry period.
const hubLeaseTimeout = 3 * time.Minute

// secretVolumes are the names of the Secrets a pod mounts.
func secretVolumes(pod corev1.PodSpec) []string {
	var names []string
	for _, v := range pod.Volumes {
		if v.Secret != nil {
			names = append(names, v.Secret.SecretName)
		}
	}
	return names
}

// Every identity of deploy/ may do what its process needs (the rest of the
// suite runs them under it) and no more than that: in particular, an agent
// reaches only its own cluster's namespace on the hub.
func TestDeployedRBACIsLeastPrivilege(t *testing.T) {
	e := setup(t)
	const works, replicaSets = "manifestworks", "manifestworkreplicasets"
	hub := "system:serviceaccount:" + framework.HubLeaseNamespace + ":" + framework.HubServiceAccount
	agentOnHub := "system:serviceaccount:cluster1:" + framework.AgentHubServiceAccount
	agent := "system:serviceaccount:" + framework.AgentLeaseNamespace + ":" + framework.AgentServiceAccount
	work := func(ns, verb, resource, sub string) authorizationv1.ResourceAttributes {
		return authorizationv1.ResourceAttributes{Namespace: ns, Verb: verb, Group: "work.open-cluster-management.io", Resource: resource, Subresource: sub}
	}
	placement := func(ns, verb, resource string) authorizationv1.ResourceAttributes {
		resource, sub, _ := strings.Cut(resource, "/")
		return authorizationv1.ResourceAttributes{Namespace: ns, Verb: verb, Group: "cluster.open-cluster-management.io", Resource: resource, Subresource: sub}
	}
	fleet := func(ns, verb, resource string) authorizationv1.ResourceAttributes {
		resource, sub, _ := strings.Cut(resource, "/")
		return authorizationv1.ResourceAttributes{Namespace: ns, Verb: verb, Group: "fleet.manifestwork.io", Resource: resource, Subresource: sub}
	}
	core := func(ns, verb, resource string) authorizationv1.ResourceAttributes {
		return authorizationv1.ResourceAttributes{Namespace: ns, Verb: verb, Resource: resource}
	}
	for _, tc := range []struct {
		name, cluster, user string
		attrs               authorizationv1.ResourceAttributes
		allowed             bool
	}{
		{"hub watches works everywhere", framework.HubName, hub, work("", "watch", works, ""), true},
		{"hub deletes expired works", framework.HubName, hub, work("cluster1", "delete", works, ""), true},
		{"hub reviews execute-as", framework.HubName, hub, authorizationv1.ResourceAttributes{Verb: "create", Group: "authorization.k8s.io", Resource: "subjectaccessreviews"}, true},
		{"hub records events", framework.HubName, hub, core("cluster1", "create", "events"), true},
		{"hub holds its lease", framework.HubName, hub, authorizationv1.ResourceAttributes{Namespace: framework.HubLeaseNamespace, Verb: "update", Group: "coordination.k8s.io", Resource: "leases"}, true},
		{"hub creates replica sets' works", framework.HubName, hub, work("cluster1", "create", works, ""), true},
		{"hub keeps replica sets' works to their template", framework.HubName, hub, work("cluster1", "update", works, ""), true},
		{"hub does not write works' status", framework.HubName, hub, work("cluster1", "patch", works, "status"), false},
		{"hub watches replica sets", framework.HubName, hub, work("", "watch", replicaSets, ""), true},
		{"hub holds replica sets' finalizer", framework.HubName, hub, work("default", "update", replicaSets, ""), true},
		{"hub writes replica sets' status", framework.HubName, hub, work("default", "patch", replicaSets, "status"), true},
		{"hub sets no owner references to replica sets", framework.HubName, hub, work("default", "update", replicaSets, "finalizers"), false},
		{"hub does not create replica sets", framework.HubName, hub, work("default", "create", replicaSets, ""), false},
		{"hub does not delete replica sets", framework.HubName, hub, work("default", "delete", replicaSets, ""), false},
		{"hub watches placements", framework.HubName, hub, placement("", "watch", "placements"), true},
		{"hub watches placement decisions", framework.HubName, hub, placement("", "watch", "placementdecisions"), true},
		{"hub does not write placements", framework.HubName, hub, placement("default", "update", "placements"), false},
		{"hub does not write decisions", framework.HubName, hub, placement("default", "patch", "placementdecisions"), false},
		{"hub does not write decisions' status", framework.HubName, hub, placement("default", "update", "placementdecisions/status"), false},
		{"hub creates approvals", framework.HubName, hub, fleet("default", "create", "rolloutapprovals"), true},
		{"hub watches approvals", framework.HubName, hub, fleet("", "watch", "rolloutapprovals"), true},
		{"hub does not approve", framework.HubName, hub, fleet("default", "patch", "rolloutapprovals/status"), false},
		{"hub watches overrides", framework.HubName, hub, fleet("", "watch", "workoverrides"), true},
		{"hub writes overrides' status", framework.HubName, hub, fleet("default", "patch", "workoverrides/status"), true},
		{"hub does not write overrides", framework.HubName, hub, fleet("default", "update", "workoverrides"), false},
		{"hub does not create overrides", framework.HubName, hub, fleet("default", "create", "workoverrides"), false},
		{"hub watches managed clusters", framework.HubName, hub, placement("", "watch", "managedclusters"), true},
		{"hub does not write managed clusters", framework.HubName, hub, placement("", "update", "managedclusters"), false},
		{"hub watches namespaces", framework.HubName, hub, core("", "watch", "namespaces"), true},
		{"hub does not create namespaces", framework.HubName, hub, core("", "create", "namespaces"), false},
		{"hub reads no secrets", framework.HubName, hub, core("cluster1", "get", "secrets"), false},
		{"hub has no lease elsewhere", framework.HubName, hub, authorizationv1.ResourceAttributes{Namespace: "cluster1", Verb: "update", Group: "coordination.k8s.io", Resource: "leases"}, false},

		{"agent watches its works", framework.HubName, agentOnHub, work("cluster1", "watch", works, ""), true},
		{"agent patches their status", framework.HubName, agentOnHub, work("cluster1", "patch", works, "status"), true},
		{"agent patches their finalizers", framework.HubName, agentOnHub, work("cluster1", "patch", works, ""), true},
		{"agent records events", framework.HubName, agentOnHub, core("cluster1", "patch", "events"), true},
		{"agent does not create works", framework.HubName, agentOnHub, work("cluster1", "create", works, ""), false},
		{"agent does not delete works", framework.HubName, agentOnHub, work("cluster1", "delete", works, ""), false},
		{"agent sees no other cluster", framework.HubName, agentOnHub, work("cluster2", "list", works, ""), false},
		{"agent sees no works cluster-wide", framework.HubName, agentOnHub, work("", "list", works, ""), false},
		{"agent reads no hub secrets", framework.HubName, agentOnHub, core("cluster1", "get", "secrets"), false},

		{"agent records applied works", "cluster1", agent, work("", "create", "appliedmanifestworks", ""), true},
		{"agent checks executors", "cluster1", agent, authorizationv1.ResourceAttributes{Verb: "create", Group: "authorization.k8s.io", Resource: "subjectaccessreviews"}, true},
		{"agent dry-runs RBAC objects as executors", "cluster1", agent, authorizationv1.ResourceAttributes{Namespace: "team", Verb: "impersonate", Resource: "serviceaccounts", Name: "executor1"}, true},
		{"agent watches RBAC for the executor cache", "cluster1", agent, authorizationv1.ResourceAttributes{Verb: "watch", Group: "rbac.authorization.k8s.io", Resource: "clusterrolebindings"}, true},
		{"agent delivers roles", "cluster1", agent, authorizationv1.ResourceAttributes{Verb: "escalate", Group: "rbac.authorization.k8s.io", Resource: "clusterroles"}, true},
		{"agent holds its lease", "cluster1", agent, authorizationv1.ResourceAttributes{Namespace: framework.AgentLeaseNamespace, Verb: "update", Group: "coordination.k8s.io", Resource: "leases"}, true},
		// Cluster-scoped kinds beyond its base role need an aggregated grant.
		{"agent registers no webhooks", "cluster1", agent, authorizationv1.ResourceAttributes{Verb: "create", Group: "admissionregistration.k8s.io", Resource: "validatingwebhookconfigurations"}, false},
		{"agent does not touch nodes", "cluster1", agent, core("", "update", "nodes"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			attrs := tc.attrs
			review, err := e.Cluster(tc.cluster).Kube.AuthorizationV1().SubjectAccessReviews().Create(t.Context(),
				&authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
					User: tc.user, Groups: serviceAccountGroups(tc.user), ResourceAttributes: &attrs,
				}},
				metav1.CreateOptions{})
			require.NoError(t, err)
			assert.Equal(t, tc.allowed, review.Status.Allowed, "%s %+v on %s: %s", tc.user, attrs, tc.cluster, review.Status.Reason)
		})
	}
}

// serviceAccountGroups are the groups the API server gives a
// ServiceAccount's token, which RBAC may grant to as well.
func serviceAccountGroups(user string) []string {
	namespace := strings.Split(user, ":")[2]
	return []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"}
}
