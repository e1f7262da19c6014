package kubeconn

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// ProbeTimeout bounds the startup probe of one cluster.
const ProbeTimeout = 10 * time.Second

// API is a resource the process needs a cluster to serve.
type API struct {
	GroupVersion string // e.g. "work.open-cluster-management.io/v1"
	Resource     string // plural, e.g. "manifestworks"
	Kind         string // e.g. "ManifestWork", for messages
	// CRD says the resource comes from a CustomResourceDefinition, which
	// changes the hint given when it is missing.
	CRD bool
}

// Probe asks the cluster once, within ProbeTimeout, whether it serves api.
// The timeout applies to this request only; cfg itself is not changed.
func Probe(ctx context.Context, c Cluster, cfg *rest.Config, api API) error {
	probeCfg := rest.CopyConfig(cfg)
	probeCfg.Timeout = ProbeTimeout
	client, err := discovery.NewDiscoveryClientForConfig(probeCfg)
	if err != nil {
		return fmt.Errorf("%s: %s", c, OneLine(err.Error()))
	}

	type result struct {
		list *metav1.APIResourceList
		err  error
	}
	// Discovery takes no context; run it aside so that a shutdown signal
	// does not wait for the timeout.
	done := make(chan result, 1)
	go func() {
		list, err := client.ServerResourcesForGroupVersion(api.GroupVersion)
		done <- result{list, err}
	}()
	select {
	case <-ctx.Done():
		return fmt.Errorf("%s: probe interrupted: %w", c, ctx.Err())
	case r := <-done:
		if r.err != nil {
			return fmt.Errorf("%s: %w", c, explain(r.err, cfg.Host, c.Role, api))
		}
		if !serves(r.list, api.Resource) {
			return fmt.Errorf("%s: %s", c, missing(c.Role, api))
		}
		return nil
	}
}

func serves(list *metav1.APIResourceList, resource string) bool {
	for _, r := range list.APIResources {
		if r.Name == resource {
			return true
		}
	}
	return false
}

func missing(role string, api API) string {
	if api.CRD {
		return fmt.Sprintf("the %s CRD is not installed on the %s", api.Kind, role)
	}
	return fmt.Sprintf("the %s API (%s) is not served by the %s", api.Kind, api.GroupVersion, role)
}

// explain turns a failed discovery request into the one cause that matters.
func explain(err error, host, role string, api API) error {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return explainStatus(err, host, role, api)
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
		return fmt.Errorf("cannot reach %s: no answer within %s", host, ProbeTimeout)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Errorf("cannot reach %s: cannot resolve %s: %s", host, dnsErr.Name, dnsErr.Err)
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return fmt.Errorf("cannot reach %s: %w", host, errno)
	}
	var tlsErr *tls.CertificateVerificationError
	if errors.As(err, &tlsErr) {
		return fmt.Errorf("cannot reach %s: the server certificate is not trusted: %w", host, tlsErr.Err)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err // drop the repeated `Get "https://...":` prefix
	}
	return fmt.Errorf("cannot reach %s: %s", host, OneLine(err.Error()))
}

func explainStatus(err error, host, role string, api API) error {
	switch {
	case apierrors.IsNotFound(err):
		return errors.New(missing(role, api))
	case apierrors.IsUnauthorized(err):
		return fmt.Errorf("%s rejected the credentials (401 Unauthorized): %w", host, ErrRejected)
	case apierrors.IsForbidden(err):
		return fmt.Errorf("the credentials may not read %s discovery on %s (403 Forbidden)", api.GroupVersion, host)
	default:
		return fmt.Errorf("%s answered: %s", host, OneLine(err.Error()))
	}
}

// The APIs the work processes probe for.
var (
	ManifestWorkAPI        = API{GroupVersion: workv1.SchemeGroupVersion.String(), Resource: "manifestworks", Kind: "ManifestWork", CRD: true}
	AppliedManifestWorkAPI = API{GroupVersion: workv1.SchemeGroupVersion.String(), Resource: "appliedmanifestworks", Kind: "AppliedManifestWork", CRD: true}
	LeaseAPI               = API{GroupVersion: "coordination.k8s.io/v1", Resource: "leases", Kind: "Lease"}
)

// ErrRejected is wrapped by the error of a probe that the cluster answered
// with 401 Unauthorized.
var ErrRejected = errors.New("the credential is expired, revoked or wrong")

// Connect loads the cluster's kubeconfig and probes the cluster for api.
//
// The config returned for a kubeconfig file follows its credential until ctx
// is done (see credentials): a rotated certificate or token is used as soon
// as the file changes, without new clients. When the cluster rejects the
// credential (401) at start-up, Connect says so and waits for the file to
// change instead of failing: restarting could not help, and a pod would only
// crash-loop. The in-cluster config needs none of this: client-go re-reads
// the service account token by itself.
func Connect(ctx context.Context, c Cluster, api API) (*rest.Config, error) {
	if c.Kubeconfig == "" {
		cfg, err := c.Load()
		if err != nil {
			return nil, err
		}
		if err := Probe(ctx, c, cfg, api); err != nil {
			return nil, err
		}
		return cfg, nil
	}
	cfg, creds, err := followCredentials(ctx, c)
	if err != nil {
		return nil, err
	}
	for {
		reloaded := creds.Reloaded()
		err := Probe(ctx, c, cfg, api)
		if err == nil {
			return cfg, nil
		}
		if !errors.Is(err, ErrRejected) {
			return nil, err
		}
		klog.FromContext(ctx).Info("Waiting for a new credential in the kubeconfig before starting", "cluster", c.Role, "kubeconfig", c.Kubeconfig)
		select {
		case <-reloaded:
		case <-ctx.Done():
			return nil, err
		}
	}
}
