package executor

import (
	"context"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// DryRuns create objects as an executor, impersonating it, in server-side
// dry runs: the API server decides as it would for the executor itself, and
// stores nothing. The agent needs impersonate on serviceaccounts for it.
type DryRuns struct {
	clientFor func(user string) (dynamic.Interface, error)
}

// NewDryRuns impersonates executors with config's credentials, through one
// client per executor (they share config's transport).
func NewDryRuns(config *rest.Config) *DryRuns {
	var mu sync.Mutex
	clients := map[string]dynamic.Interface{}
	return DryRunsWith(func(user string) (dynamic.Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		if c, ok := clients[user]; ok {
			return c, nil
		}
		impersonated := rest.CopyConfig(config)
		// A ServiceAccount's user name: the API server gives it the
		// ServiceAccount's groups.
		impersonated.Impersonate = rest.ImpersonationConfig{UserName: user}
		c, err := dynamic.NewForConfig(impersonated)
		if err != nil {
			return nil, fmt.Errorf("client impersonating %s: %w", user, err)
		}
		clients[user] = c
		return c, nil
	})
}

// DryRunsWith makes the dry runs with the client clientFor returns for an
// executor's user name (a fake one in tests).
func DryRunsWith(clientFor func(user string) (dynamic.Interface, error)) *DryRuns {
	return &DryRuns{clientFor: clientFor}
}

// create sends obj, without what identifies a stored copy, as a dry-run
// create of resource gvr in its namespace, as user.
func (d *DryRuns) create(ctx context.Context, user string, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) error {
	client, err := d.clientFor(user)
	if err != nil {
		return err
	}
	obj = obj.DeepCopy()
	obj.SetUID("")
	obj.SetResourceVersion("")
	var resource dynamic.ResourceInterface = client.Resource(gvr)
	if ns := obj.GetNamespace(); ns != "" {
		resource = client.Resource(gvr).Namespace(ns)
	}
	_, err = resource.Create(ctx, obj, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	return err
}
