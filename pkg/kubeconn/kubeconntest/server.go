// Package kubeconntest is a tiny in-process stand-in for a kube-apiserver,
// enough for the work processes to start: discovery, empty lists and idle
// watches of the work API, and Leases for leader election. It lets tests run
// the hub and the agent in-process without a cluster.
package kubeconntest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/manifestwork/work/pkg/kubeconn"
)

// Server is a fake API server serving the given APIs over TLS.
type Server struct {
	*httptest.Server
	apis []kubeconn.API

	mu      sync.Mutex
	leases  map[string]coordinationv1.Lease // by namespace/name
	version int
	reads   map[string]int // list and watch requests by resource
}

// NewServer starts a server serving apis (and always Leases); it is closed
// when the test ends.
func NewServer(t *testing.T, apis ...kubeconn.API) *Server {
	t.Helper()
	s := &Server{apis: append(apis, kubeconn.LeaseAPI), leases: map[string]coordinationv1.Lease{}, reads: map[string]int{}}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Kubeconfig writes a kubeconfig for the server and returns its path.
func (s *Server) Kubeconfig(t *testing.T) string {
	t.Helper()
	return WriteKubeconfig(t, s.URL)
}

// WriteKubeconfig writes a kubeconfig naming server (TLS not verified) and
// returns its path.
func WriteKubeconfig(t *testing.T, server string) string {
	t.Helper()
	content := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: test
  cluster: {server: %q, insecure-skip-tls-verify: true}
users:
- name: test
  user: {token: test-token}
contexts:
- name: test
  context: {cluster: test, user: test}
current-context: test
`, server)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Unreachable writes a kubeconfig naming a local https URL where nothing
// listens, and returns its path and the URL.
func Unreachable(t *testing.T) (kubeconfig, url string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url = "https://" + ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return WriteKubeconfig(t, url), url
}

// Lease returns the stored Lease namespace/name.
func (s *Server) Lease(namespace, name string) (coordinationv1.Lease, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.leases[namespace+"/"+name]
	return l, ok
}

// Holder is the holder of the Lease namespace/name, "" when it is free or
// missing.
func (s *Server) Holder(namespace, name string) string {
	l, _ := s.Lease(namespace, name)
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// HoldLease stores the Lease namespace/name as freshly acquired, for an hour,
// by another replica, holder.
func (s *Server) HoldLease(namespace, name, holder string) {
	now := metav1.NewMicroTime(time.Now())
	seconds := int32(3600)
	s.SetLease(coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity: &holder, LeaseDurationSeconds: &seconds, AcquireTime: &now, RenewTime: &now,
		},
	})
}

// Reads is how many list and watch requests a resource of the work API got.
func (s *Server) Reads(resource string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads[resource]
}

// SetLease stores a Lease as if another process held it.
func (s *Server) SetLease(l coordinationv1.Lease) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	l.ResourceVersion = strconv.Itoa(s.version)
	s.leases[l.Namespace+"/"+l.Name] = l
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) < 3 || parts[0] != "apis" {
		http.NotFound(w, r)
		return
	}
	gv := parts[1] + "/" + parts[2]
	rest := parts[3:]
	switch {
	case len(rest) == 0:
		s.serveDiscovery(w, r, gv)
	case gv == kubeconn.LeaseAPI.GroupVersion:
		s.serveLease(w, r, rest)
	default:
		s.serveWork(w, r, gv, rest[len(rest)-1])
	}
}

func (s *Server) serveDiscovery(w http.ResponseWriter, r *http.Request, gv string) {
	list := metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv}
	for _, api := range s.apis {
		if api.GroupVersion == gv {
			list.APIResources = append(list.APIResources, metav1.APIResource{
				Name: api.Resource, Kind: api.Kind, Namespaced: api.Resource != "appliedmanifestworks",
				Verbs: metav1.Verbs{"get", "list", "watch", "create", "update", "patch", "delete"},
			})
		}
	}
	if len(list.APIResources) == 0 {
		http.NotFound(w, r)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// serveWork answers lists with an empty list and watches with an idle stream.
func (s *Server) serveWork(w http.ResponseWriter, r *http.Request, gv, resource string) {
	var kind string
	for _, api := range s.apis {
		if api.GroupVersion == gv && api.Resource == resource {
			kind = api.Kind
		}
	}
	if kind == "" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.reads[resource]++
	s.mu.Unlock()
	if r.URL.Query().Get("watch") != "true" {
		writeJSON(w, http.StatusOK, map[string]any{
			"apiVersion": gv, "kind": kind + "List",
			"metadata": map[string]any{"resourceVersion": "1"}, "items": []any{},
		})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if r.URL.Query().Get("sendInitialEvents") == "true" {
		// A streaming list of nothing: just the bookmark that ends it.
		_ = json.NewEncoder(w).Encode(map[string]any{"type": "BOOKMARK", "object": map[string]any{
			"apiVersion": gv, "kind": kind, "metadata": map[string]any{
				"resourceVersion": "1",
				"annotations":     map[string]string{metav1.InitialEventsAnnotationKey: "true"},
			},
		}})
	}
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

func (s *Server) serveLease(w http.ResponseWriter, r *http.Request, rest []string) {
	if len(rest) < 3 || rest[0] != "namespaces" || rest[2] != "leases" {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case http.MethodGet:
		l, ok := s.leases[rest[1]+"/"+last(rest)]
		if !ok || len(rest) != 4 {
			writeJSON(w, http.StatusNotFound, metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status: metav1.StatusFailure, Reason: metav1.StatusReasonNotFound, Code: http.StatusNotFound,
				Details: &metav1.StatusDetails{Group: "coordination.k8s.io", Kind: "leases", Name: last(rest)}})
			return
		}
		writeJSON(w, http.StatusOK, l)
	case http.MethodPost, http.MethodPut:
		l, err := decodeLease(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.version++
		l.APIVersion, l.Kind = "coordination.k8s.io/v1", "Lease"
		l.Namespace, l.ResourceVersion = rest[1], strconv.Itoa(s.version)
		s.leases[rest[1]+"/"+l.Name] = l
		writeJSON(w, map[string]int{http.MethodPost: http.StatusCreated, http.MethodPut: http.StatusOK}[r.Method], l)
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// decodeLease reads a Lease sent as JSON or, as client-go does by default, protobuf.
func decodeLease(r *http.Request) (coordinationv1.Lease, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return coordinationv1.Lease{}, err
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
	if err != nil {
		return coordinationv1.Lease{}, err
	}
	l, ok := obj.(*coordinationv1.Lease)
	if !ok {
		return coordinationv1.Lease{}, fmt.Errorf("want a Lease, got %T", obj)
	}
	return *l, nil
}

func last(parts []string) string { return parts[len(parts)-1] }

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
