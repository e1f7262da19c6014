package framework

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// WebhookNamespaceLabel marks the namespaces a test's ManifestWork webhook
// reviews; its value is unique per webhook. Other namespaces (cluster1,
// cluster2, where other tests create invalid works on purpose) are left alone.
const WebhookNamespaceLabel = "work-e2e-admission"

// WebhookDenied starts the API server's message for a write the webhook refused.
const WebhookDenied = `admission webhook "manifestwork.work.open-cluster-management.io" denied the request: `

// Webhook is a serving certificate made by hack/webhook-certs.sh and the
// ValidatingWebhookConfiguration that sends the ManifestWork writes of one
// labelled hub namespace to a work hub on this machine.
type Webhook struct {
	// Dir holds ca.crt, tls.crt, tls.key and validatingwebhookconfiguration.yaml.
	Dir string
	// Addr is the 127.0.0.1:port the hub is to serve on.
	Addr string
	// Name is the name of the ValidatingWebhookConfiguration.
	Name string
	// Namespace is the hub namespace the webhook reviews, created with it.
	Namespace string
	// Path is the path the API server calls.
	Path string

	e *E2E
}

// Paths of the webhook: ours, and the one OCM's configuration calls.
const (
	WebhookPath    = "/validate-manifestwork"
	OCMWebhookPath = "/validate-work-open-cluster-management-io-v1-manifestwork"
)

// InstallWebhook makes certificates into the run folder, creates a labelled
// namespace on the hub and a uniquely named ValidatingWebhookConfiguration
// that calls https://Addr/validate-manifestwork for that namespace only. When
// t ends both are deleted. Start a hub with Flags, then WaitServed.
func (e *E2E) InstallWebhook(t testing.TB) *Webhook {
	t.Helper()
	return e.installWebhook(t, false)
}

// InstallOCMWebhook is InstallWebhook with the configuration OCM's
// ClusterManager writes: OCM's path, AdmissionReview v1beta1 then v1, no
// match conditions (every UPDATE of a work reaches the webhook, finalizer
// writes included), a 10s timeout. Start a work webhook-server with
// TempDir as its TMPDIR and the port of Addr.
func (e *E2E) InstallOCMWebhook(t testing.TB) *Webhook {
	t.Helper()
	return e.installWebhook(t, true)
}

func (e *E2E) installWebhook(t testing.TB, ocm bool) *Webhook {
	t.Helper()
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	e.names["webhook"]++
	id := fmt.Sprintf("%s-%d", e.Run.ID, e.names["webhook"])
	e.mu.Unlock()
	dir, err := e.Run.Mkdir("webhook-" + id)
	if err != nil {
		t.Fatal(err)
	}
	w := &Webhook{
		Dir: dir, Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		Name: "manifestwork-e2e-" + id, Namespace: "admission-" + id, Path: WebhookPath, e: e,
	}
	if ocm {
		w.Path = OCMWebhookPath
	}
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: w.Namespace, Labels: map[string]string{WebhookNamespaceLabel: id}}}
	if _, err := e.Hub.Kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("framework: webhook namespace: %v", err)
	}
	t.Cleanup(func() { _ = e.Hub.Kube.CoreV1().Namespaces().Delete(ctx, w.Namespace, metav1.DeleteOptions{}) })

	config, err := w.generate()
	if err != nil {
		t.Fatal(err)
	}
	config.Name = w.Name
	for i := range config.Webhooks {
		config.Webhooks[i].NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{WebhookNamespaceLabel: id}}
		if ocm {
			timeout := int32(10)
			config.Webhooks[i].MatchConditions = nil
			config.Webhooks[i].AdmissionReviewVersions = []string{"v1beta1", "v1"}
			config.Webhooks[i].TimeoutSeconds = &timeout
		}
	}
	configs := e.Hub.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	if _, err := configs.Create(ctx, config, metav1.CreateOptions{}); err != nil {
		t.Fatalf("framework: ValidatingWebhookConfiguration: %v", err)
	}
	t.Cleanup(func() { _ = configs.Delete(ctx, w.Name, metav1.DeleteOptions{}) })
	return w
}

// Flags are the `work hub` flags that serve this webhook.
func (w *Webhook) Flags() []string {
	return []string{
		"--webhook-bind-address", w.Addr,
		"--tls-cert-file", filepath.Join(w.Dir, "tls.crt"),
		"--tls-private-key-file", filepath.Join(w.Dir, "tls.key"),
	}
}

// TempDir returns a folder to be a webhook server's TMPDIR: its
// k8s-webhook-server/serving-certs, where work webhook-server reads tls.crt
// and tls.key by default (as OCM mounts them at /tmp/...), is Dir.
func (w *Webhook) TempDir(t testing.TB) string {
	t.Helper()
	tmp, err := w.e.Run.Mkdir("webhook-tmp-" + filepath.Base(w.Dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(tmp, "k8s-webhook-server"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(w.Dir, filepath.Join(tmp, "k8s-webhook-server", "serving-certs")); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	return tmp
}

// Rotate runs hack/webhook-certs.sh again over Dir, which replaces the CA,
// the certificate and the key, and updates the configuration's caBundle.
func (w *Webhook) Rotate(t testing.TB) {
	t.Helper()
	fresh, err := w.generate()
	if err != nil {
		t.Fatal(err)
	}
	configs := w.e.Hub.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	config, err := configs.Get(context.Background(), w.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range config.Webhooks {
		config.Webhooks[i].ClientConfig.CABundle = fresh.Webhooks[0].ClientConfig.CABundle
	}
	if _, err := configs.Update(context.Background(), config, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("framework: update caBundle: %v", err)
	}
}

// generate runs the script into Dir and reads the configuration it wrote.
func (w *Webhook) generate() (*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	url := "https://" + w.Addr + w.Path
	if _, err := (command{name: RepoPath("hack", "webhook-certs.sh"), args: []string{w.Dir, url}, timeout: time.Minute}).run(w.e.ctx); err != nil {
		return nil, fmt.Errorf("framework: %w", err)
	}
	data, err := os.ReadFile(filepath.Join(w.Dir, "validatingwebhookconfiguration.yaml"))
	if err != nil {
		return nil, err
	}
	config := &admissionregistrationv1.ValidatingWebhookConfiguration{}
	if err := yaml.UnmarshalStrict(data, config); err != nil {
		return nil, fmt.Errorf("framework: %s: %w", filepath.Join(w.Dir, "validatingwebhookconfiguration.yaml"), err)
	}
	if len(config.Webhooks) == 0 {
		return nil, fmt.Errorf("framework: the generated configuration has no webhook")
	}
	return config, nil
}

// WaitServed waits until the API server sends this namespace's ManifestWork
// writes to the running hub and gets its answers: a server-side dry run of an
// empty work is refused with the webhook's own message.
func (w *Webhook) WaitServed(t testing.TB, timeout time.Duration) {
	t.Helper()
	empty := &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: "webhook-probe"}}
	works := w.e.Hub.Work.WorkV1().ManifestWorks(w.Namespace)
	Eventually(t, timeout, func() error {
		_, err := works.Create(context.Background(), empty, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil {
			return fmt.Errorf("an empty work was admitted")
		}
		if !strings.Contains(err.Error(), WebhookDenied) || !strings.Contains(err.Error(), "manifests should not be empty") {
			return err
		}
		return nil
	}, "the webhook %s answers for namespace %s", w.Name, w.Namespace)
}
