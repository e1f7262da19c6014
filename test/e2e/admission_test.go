package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/manifestwork/work/pkg/admission"
	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// admissionTimeout bounds how long the API server may take to act on a new
// webhook configuration or RBAC rule, and the hub to become ready.
const admissionTimeout = 60 * time.Second

// admissionHub installs the webhook for a fresh labelled namespace and starts
// a hub serving it with a manifest limit of 4 KiB.
func admissionHub(t *testing.T, e *framework.E2E) (*framework.Webhook, *framework.Process) {
	t.Helper()
	wh := e.InstallWebhook(t)
	hub, err := e.StartHub(append(wh.Flags(), "--disable-leader-election", "--manifest-limit", "4096", "-v", "2")...)
	require.NoError(t, err, "hub with the webhook")
	t.Cleanup(func() { _, _ = hub.Stop(convergeTimeout) })
	wh.WaitServed(t, admissionTimeout)
	return wh, hub
}

// executorWork is a valid work run as ServiceAccount default/executor1.
func executorWork(namespace, name string) *workv1.ManifestWork {
	return fixture.NewWork(namespace, name).WithExecutor("default", "executor1").
		WithManifest(fixture.ConfigMap("default", name, map[string]string{"k": "v"})).Build()
}

// kubectlWork runs `kubectl <verb> -f <work>` on the hub with extra args
// (such as --as alice) and returns kubectl's error, which carries its stderr.
func kubectlWork(t *testing.T, w *workv1.ManifestWork, verb string, args ...string) error {
	t.Helper()
	data, err := json.Marshal(w)
	require.NoError(t, err)
	// Not in t.TempDir(): kubectl splits -f at the commas of subtest names.
	f, err := os.CreateTemp("", "manifestwork-*.json")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.Remove(f.Name()) })
	_, err = f.Write(data)
	require.NoError(t, errors.Join(err, f.Close()))
	_, err = env.Kubectl(framework.HubName, append([]string{verb, "-f", f.Name()}, args...)...)
	return err
}

// grant creates a Role with one rule in namespace and binds it to user.
func grant(t *testing.T, namespace, name, user string, rule rbacv1.PolicyRule) {
	t.Helper()
	rbac := env.Hub.Kube.RbacV1()
	_, err := rbac.Roles(namespace).Create(t.Context(), &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: []rbacv1.PolicyRule{rule},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = rbac.RoleBindings(namespace).Create(t.Context(), &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
}

var writeWorks = rbacv1.PolicyRule{
	APIGroups: []string{workv1.GroupName}, Resources: []string{"manifestworks"},
	Verbs: []string{"get", "list", "create", "update", "patch", "delete"},
}

// sizeOfRaw is the size OCM's limit counts for a manifest whose raw JSON,
// as the API server sends it, has n bytes.
func sizeOfRaw(n int) int {
	return admission.Size(workv1.Manifest{RawExtension: runtime.RawExtension{Raw: make([]byte, n)}})
}

// deniedExecutor is OCM's refusal of executor default/executor1.
func deniedExecutor(user, namespace string) string {
	return admission.ExecutorNotAllowed(user, "default", "executor1", namespace)
}

// admitsAndRefuses checks, in namespace ns served by a running webhook with
// a manifest limit of limit bytes, that executors the user may not execute as
// and works the agent could not apply are refused, and that metadata writes
// need no execute-as.
func admitsAndRefuses(t *testing.T, e *framework.E2E, ns string, limit int) {
	t.Helper()
	grant(t, ns, "write-works", "alice", writeWorks)
	grant(t, ns, "write-works-bob", "bob", writeWorks)

	t.Run("an executor without execute-as is refused", func(t *testing.T) {
		err := kubectlWork(t, executorWork(ns, "as-executor1"), "create", "--as", "alice")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "Error from server (BadRequest)")
		assert.Contains(t, err.Error(), framework.WebhookDenied+deniedExecutor("alice", ns))
		_, err = getWork(t.Context(), ns, "as-executor1")
		assert.True(t, apierrors.IsNotFound(err), "nothing was stored: %v", err)
	})

	t.Run("execute-as on the executor admits it", func(t *testing.T) {
		grant(t, ns, "execute-as-executor1", "alice", rbacv1.PolicyRule{
			APIGroups: []string{workv1.GroupName}, Resources: []string{"manifestworks"},
			Verbs: []string{"execute-as"}, ResourceNames: []string{"system:serviceaccount:default:executor1"},
		})
		framework.Eventually(t, admissionTimeout, func() error {
			return kubectlWork(t, executorWork(ns, "as-executor1"), "create", "--as", "alice")
		}, "alice creates a work run as executor1")
	})

	t.Run("a label update needs no execute-as, a spec update does", func(t *testing.T) {
		_, err := e.Kubectl(framework.HubName, "label", "manifestwork", "-n", ns, "as-executor1", "team=a", "--as", "bob")
		require.NoError(t, err)
		w, err := getWork(t.Context(), ns, "as-executor1")
		require.NoError(t, err)
		assert.Equal(t, "a", w.Labels["team"])

		w.APIVersion, w.Kind = workv1.SchemeGroupVersion.String(), "ManifestWork" // typed clients drop them
		w.Spec.Workload.Manifests = fixture.NewWork(ns, "x").WithManifest(fixture.ConfigMap("default", "other", nil)).Build().Spec.Workload.Manifests
		err = kubectlWork(t, w, "replace", "--as", "bob")
		require.Error(t, err)
		assert.Contains(t, err.Error(), framework.WebhookDenied+deniedExecutor("bob", ns))
	})

	t.Run("works the agent could not apply are refused", func(t *testing.T) {
		cm := fixture.ConfigMap("default", "a", nil)
		tests := []struct {
			name string
			work *workv1.ManifestWork
			want string
		}{
			{"no manifests", fixture.NewWork(ns, "empty").Build(), framework.WebhookDenied + admission.MessageNoManifests},
			{"duplicate", fixture.NewWork(ns, "dup").WithManifest(cm, cm).Build(),
				`The ManifestWork "dup" is invalid: spec.workload.manifests[1]: Duplicate value: ConfigMap "a" in namespace "default" is already in spec.workload.manifests[0]; each object may appear only once in a ManifestWork`},
			{"no name", fixture.NewWork(ns, "noname").WithRawManifest(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"default"}}`).Build(),
				framework.WebhookDenied + admission.MessageNoName},
			{"over the limit", fixture.NewWork(ns, "big").WithManifest(fixture.ConfigMap("default", "big", map[string]string{"k": strings.Repeat("x", limit+904)})).Build(),
				fmt.Sprintf(framework.WebhookDenied+"the size of manifests is %d bytes which exceeds the %d limit", sizeOfRaw(limit+1006), limit)},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := kubectlWork(t, tt.work, "create")
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
				_, err = getWork(t.Context(), ns, tt.work.Name)
				assert.True(t, apierrors.IsNotFound(err), "nothing was stored: %v", err)
			})
		}
	})
}

// On the kwok hub with its real RBAC, the webhook of a running hub refuses
// executors the user may not execute as and works the agent could not apply,
// lets metadata writes through without execute-as, and while the hub is down
// refuses spec writes but not finalizer writes or deletions.
func TestAdmission(t *testing.T) {
	e := setup(t)
	wh, hub := admissionHub(t, e)
	ns := wh.Namespace
	admitsAndRefuses(t, e, ns, 4096)

	t.Run("overrides whose rules cannot render are refused", func(t *testing.T) {
		overrides := e.Hub.Work.FleetV1alpha1().WorkOverrides(ns)
		override := func(name, value string) *fleetv1alpha1.WorkOverride {
			return &fleetv1alpha1.WorkOverride{
				ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: fleetv1alpha1.WorkOverrideSpec{ReplicaSet: "web", Rules: []fleetv1alpha1.WorkOverrideRule{{
					Clusters:  fleetv1alpha1.ClusterSelector{ClusterNames: []string{"cluster1"}},
					Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap"}},
					Patches: []fleetv1alpha1.Patch{{Op: fleetv1alpha1.PatchAdd, Path: "/data/cluster",
						Value: &apiextensionsv1.JSON{Raw: []byte(value)}}},
				}}},
			}
		}
		_, err := overrides.Create(t.Context(), override("bad-variable", `"${cluster.region}"`), metav1.CreateOptions{})
		require.Error(t, err)
		assert.True(t, apierrors.IsInvalid(err), "%v", err)
		assert.Contains(t, err.Error(), `admission webhook "workoverride.fleet.manifestwork.io" denied the request: `+
			`WorkOverride.fleet.manifestwork.io "bad-variable" is invalid: spec.rules[0].patches[0].value: Invalid value: `)
		assert.Contains(t, err.Error(), "${cluster.region} is not a variable")
		_, err = overrides.Create(t.Context(), override("cluster-name", `"${cluster.name}"`), metav1.CreateOptions{})
		require.NoError(t, err)
	})

	t.Run("while the hub is down spec writes fail closed, metadata writes and deletion pass", func(t *testing.T) {
		_, err := hub.Stop(convergeTimeout)
		require.NoError(t, err)

		err = kubectlWork(t, fixture.NewWork(ns, "during-outage").WithManifest(fixture.ConfigMap("default", "o", nil)).Build(), "create")
		require.Error(t, err, "a spec write is refused while nobody can review it")
		assert.Contains(t, err.Error(), `failed calling webhook "manifestwork.work.open-cluster-management.io"`)

		patch := `{"metadata":{"finalizers":["e2e.example.com/hold"]}}`
		_, err = e.Kubectl(framework.HubName, "patch", "manifestwork", "-n", ns, "as-executor1", "--type", "merge", "-p", patch, "--as", "bob")
		require.NoError(t, err, "bob adds a finalizer without the webhook and without execute-as")
		_, err = e.Kubectl(framework.HubName, "delete", "manifestwork", "-n", ns, "as-executor1", "--wait=false", "--as", "bob")
		require.NoError(t, err)
		w, err := getWork(t.Context(), ns, "as-executor1")
		require.NoError(t, err)
		require.NotNil(t, w.DeletionTimestamp, "the work is being deleted")
		_, err = e.Kubectl(framework.HubName, "patch", "manifestwork", "-n", ns, "as-executor1", "--type", "merge",
			"-p", `{"metadata":{"finalizers":null}}`, "--as", "bob")
		require.NoError(t, err, "bob removes the finalizer")
		framework.Eventually(t, admissionTimeout, func() error {
			_, err := getWork(t.Context(), ns, "as-executor1")
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("still there: %v", err)
		}, "the work is gone")
	})

	t.Run("after a restart the webhook validates again", func(t *testing.T) {
		require.NoError(t, hub.Start())
		require.NoError(t, hub.WaitReady(admissionTimeout))
		wh.WaitServed(t, admissionTimeout)
		err := kubectlWork(t, executorWork(ns, "after-restart"), "create", "--as", "bob")
		require.Error(t, err)
		assert.Contains(t, err.Error(), framework.WebhookDenied+deniedExecutor("bob", ns))
		require.NoError(t, kubectlWork(t, executorWork(ns, "after-restart"), "create", "--as", "alice"))
	})
}

// Re-running hack/webhook-certs.sh over the files a running hub serves (a new
// CA, certificate and key) and updating the caBundle is enough: the hub
// serves the new pair without a restart and the API server reaches it again.
func TestAdmissionCertificateRotation(t *testing.T) {
	e := setup(t)
	wh, hub := admissionHub(t, e)
	pid := hub.Pid()
	before := servedCertificate(t, wh)

	wh.Rotate(t)
	caPEM, err := os.ReadFile(filepath.Join(wh.Dir, "ca.crt"))
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(caPEM))
	framework.Eventually(t, admissionTimeout, func() error {
		conn, err := tls.Dial("tcp", wh.Addr, &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
		if err != nil {
			return err
		}
		return conn.Close()
	}, "the hub serves a certificate of the new CA")
	after := servedCertificate(t, wh)
	assert.NotEqual(t, before.SerialNumber, after.SerialNumber)

	// The API server trusts only the new CA now: its calls succeed again.
	wh.WaitServed(t, admissionTimeout)
	assert.Equal(t, pid, hub.Pid(), "the hub was not restarted")
	assert.True(t, hub.Running())
	assert.Contains(t, hub.Tail(200), "Loaded a new serving certificate")
}

// servedCertificate is the leaf certificate the hub presents on its webhook address.
func servedCertificate(t *testing.T, wh *framework.Webhook) *x509.Certificate {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	dialer := &tls.Dialer{Config: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec // only reads the certificate
	conn, err := dialer.DialContext(ctx, "tcp", wh.Addr)
	require.NoError(t, err)
	defer conn.Close()
	certs := conn.(*tls.Conn).ConnectionState().PeerCertificates
	require.NotEmpty(t, certs)
	return certs[0]
}
