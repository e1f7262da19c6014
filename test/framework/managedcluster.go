package framework

import (
	"context"
	"slices"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// NewManagedCluster creates a kwok cluster of t's own with nodes fake nodes,
// set up as Start sets up the run's managed clusters: deploy/agent and the
// managed CRDs on it, deploy/cluster-namespace for it on the hub. Until t
// ends it is one of e.Managed, so that Cluster, Kubectl and StartAgent know
// it by name. When t ends it leaves e.Managed, its namespace on the hub is
// deleted (and waited for, so that a later test may use the name again) and
// the cluster is deleted.
func (e *E2E) NewManagedCluster(t testing.TB, name string, nodes int) *Cluster {
	t.Helper()
	if e.Cluster(name) != nil {
		t.Fatalf("framework: cluster %s exists already", name)
	}
	c := e.NewCluster(t, name, nodes)
	e.mu.Lock()
	e.Managed = append(e.Managed, c)
	e.mu.Unlock()
	t.Cleanup(func() {
		e.mu.Lock()
		e.Managed = slices.DeleteFunc(e.Managed, func(m *Cluster) bool { return m == c })
		e.mu.Unlock()
		namespaces := e.Hub.Kube.CoreV1().Namespaces()
		err := namespaces.Delete(context.Background(), name, metav1.DeleteOptions{})
		if err == nil {
			err = poll(context.Background(), time.Minute, func(ctx context.Context) (bool, error) {
				_, err := namespaces.Get(ctx, name, metav1.GetOptions{})
				return apierrors.IsNotFound(err), nil
			})
		}
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("framework: delete namespace %s on the hub: %v", name, err)
		}
	})
	if err := e.deployManaged(c); err != nil {
		t.Fatalf("framework: cluster %s: %v", name, err)
	}
	crds, err := c.InstallCRDs(ManagedCRDDir())
	if err != nil {
		t.Fatalf("framework: %s CRDs: %v", name, err)
	}
	if err := c.WaitCRDsEstablished(e.ctx, time.Minute, crds...); err != nil {
		t.Fatalf("framework: %v", err)
	}
	if err := c.EnsureNamespaces(e.ctx, AgentLeaseNamespace); err != nil {
		t.Fatalf("framework: cluster %s: %v", name, err)
	}
	return c
}

// InstallCRDsForTest installs the CRDs of dirs that c does not have yet, and
// waits until they are served. When t ends it deletes those it created, and
// waits until they are gone, so that later tests find c as it was.
func (c *Clients) InstallCRDsForTest(t testing.TB, dirs ...string) {
	t.Helper()
	crds, err := readCRDs(dirs)
	if err != nil {
		t.Fatalf("framework: %v", err)
	}
	var created []string
	for _, crd := range crds {
		there, err := c.CRDEstablished(context.Background(), crd.Name)
		if err != nil {
			t.Fatalf("framework: CRD %s: %v", crd.Name, err)
		}
		if !there {
			created = append(created, crd.Name)
		}
	}
	t.Cleanup(func() {
		crds := c.APIExtensions.ApiextensionsV1().CustomResourceDefinitions()
		for _, name := range created {
			if err := crds.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("framework: delete CRD %s: %v", name, err)
				continue
			}
			err := poll(context.Background(), time.Minute, func(ctx context.Context) (bool, error) {
				_, err := crds.Get(ctx, name, metav1.GetOptions{})
				return apierrors.IsNotFound(err), nil
			})
			if err != nil {
				t.Errorf("framework: CRD %s not gone: %v", name, err)
			}
		}
	})
	if _, err := c.InstallCRDs(dirs...); err != nil {
		t.Fatalf("framework: CRDs of %v: %v", dirs, err)
	}
}

// readCRDs reads the CRDs of dirs, as InstallCRDs would install them.
func readCRDs(dirs []string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	if err := checkCRDDirs(dirs); err != nil {
		return nil, err
	}
	opts := envtest.CRDInstallOptions{Paths: dirs, ErrorIfPathMissing: true}
	if err := envtest.ReadCRDFiles(&opts); err != nil {
		return nil, err
	}
	return opts.CRDs, nil
}
