package manifest

import (
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/restmapper"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// minRefresh bounds how often a miss of one kind may re-read discovery: a
// manifest of an unknown kind is retried with backoff and must not hammer the
// API server.
const minRefresh = time.Second

// Mapper maps kinds to resources from the managed cluster's discovery, cached
// in memory. A kind it does not know makes it re-read discovery (at most once
// per minRefresh for that kind), so a CustomResourceDefinition applied by one
// manifest is found for the custom resource of another without a restart.
// The bound is per kind: a kind that never comes (a typo in one work) must
// not use up the re-reads that another work's retry needs to find its
// CustomResourceDefinition established, which would send that retry into a
// longer backoff for nothing.
type Mapper struct {
	mapper *restmapper.DeferredDiscoveryRESTMapper
	now    func() time.Time

	mu          sync.Mutex
	lastRefresh map[schema.GroupVersionKind]time.Time
}

// NewMapper returns a Mapper over the given discovery client.
func NewMapper(client discovery.DiscoveryInterface) *Mapper {
	return &Mapper{
		mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client)),
		now:    time.Now,
	}
}

// Mapping is where a manifest's object lives on the managed cluster, and
// its name there: the one identity of the object, from which its
// resourceMeta in the work's status, its AppliedManifestWork entry, its
// record, its watched scope and its manifestConfigs entry all come.
type Mapping struct {
	Resource   schema.GroupVersionResource
	Namespaced bool
	// Namespace is the manifest's for a namespaced kind, and empty for a
	// cluster-scoped kind whatever the manifest says: the API server drops
	// it, and OCM's agent names the object without it.
	Namespace string
	Name      string
}

// Identifier names the object the way deleteOption, manifestConfigs and
// AppliedManifestWork records do.
func (m Mapping) Identifier() workv1.ResourceIdentifier {
	return workv1.ResourceIdentifier{Group: m.Resource.Group, Resource: m.Resource.Resource, Namespace: m.Namespace, Name: m.Name}
}

// Map finds the resource of obj's kind and checks its namespace: a namespaced
// kind needs one, and a cluster-scoped kind loses any it was given, in the
// mapping and in obj, which is what is sent to the API server. A namespaced
// object without a namespace is an error that comes with its mapping all
// the same: the manifest's status names the resource, as OCM's does.
func (m *Mapper) Map(obj *unstructured.Unstructured) (Mapping, error) {
	gvk := obj.GroupVersionKind()
	restMapping, err := m.mapping(gvk)
	if err != nil {
		return Mapping{}, err
	}
	mapping := Mapping{
		Resource: restMapping.Resource, Namespaced: restMapping.Scope.Name() == meta.RESTScopeNameNamespace,
		Namespace: obj.GetNamespace(), Name: obj.GetName(),
	}
	switch {
	case mapping.Namespaced && mapping.Namespace == "":
		return mapping, fmt.Errorf("%s %q is namespaced but the manifest has no metadata.namespace", gvk.Kind, obj.GetName())
	case !mapping.Namespaced:
		mapping.Namespace = ""
		obj.SetNamespace("")
	}
	return mapping, nil
}

func (m *Mapper) mapping(gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	mapping, err := m.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err == nil || !meta.IsNoMatchError(err) || !m.mayRefresh(gvk) {
		return mapping, describe(gvk, err)
	}
	m.mapper.Reset()
	mapping, err = m.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	return mapping, describe(gvk, err)
}

// mayRefresh tells whether a miss of gvk may re-read discovery now, and if
// so notes it. Entries older than minRefresh bound nothing and are dropped,
// so the map holds only the kinds missed within the last second.
func (m *Mapper) mayRefresh(gvk schema.GroupVersionKind) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if now.Sub(m.lastRefresh[gvk]) < minRefresh {
		return false
	}
	if m.lastRefresh == nil {
		m.lastRefresh = map[schema.GroupVersionKind]time.Time{}
	}
	for k, at := range m.lastRefresh {
		if now.Sub(at) >= minRefresh {
			delete(m.lastRefresh, k)
		}
	}
	m.lastRefresh[gvk] = now
	return true
}

// describe turns a miss into a message a work author understands.
func describe(gvk schema.GroupVersionKind, err error) error {
	if err == nil {
		return nil
	}
	if meta.IsNoMatchError(err) {
		return &UnknownKindError{GVK: gvk}
	}
	return fmt.Errorf("cannot map %s: %w", gvk, err)
}

// UnknownKindError is a kind the managed cluster does not serve (yet). Its
// message is OCM's agent's, which the manifest's Applied condition shows
// and clients match on.
type UnknownKindError struct{ GVK schema.GroupVersionKind }

func (e *UnknownKindError) Error() string {
	return fmt.Sprintf("the server doesn't have a resource type %q", e.GVK.Kind)
}
