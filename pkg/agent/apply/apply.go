// Package apply writes one decoded manifest to the managed cluster with the
// update strategy its manifestConfig selects: Update (the default),
// CreateOnly, ServerSideApply or ReadOnly.
//
// Every strategy reads before it writes and writes only when the live object
// does not already hold what the work asks for, so an idle agent sends no
// writes at all. Every object written carries the owner reference to the
// AppliedManifestWork, unless the work's deleteOption orphans it (then it
// carries none, and loses one it has), and nothing else of the agent's:
// what the agent needs to remember of an apply is returned to the caller
// (LastApplied), which keeps it (docs/contributors/architecture.md, "Where the agent
// keeps its bookkeeping").
package apply

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// Request is one manifest to apply.
type Request struct {
	// Resource is the resource the manifest's kind maps to.
	Resource schema.GroupVersionResource
	// Desired is the decoded manifest; its namespace is already set for
	// namespaced kinds. Strategies never modify it.
	Desired *unstructured.Unstructured
	// Owner points at the AppliedManifestWork; every object written carries
	// it, unless Orphaned.
	Owner metav1.OwnerReference
	// Orphaned says the work's deleteOption orphans the object
	// (manifest.Orphaned): it never carries Owner, and an object that does
	// loses it, so that neither the agent nor the garbage collector deletes
	// it when the work or the AppliedManifestWork goes.
	Orphaned bool
	// Config is the manifestConfig matching the manifest, nil if none.
	Config *workv1.ManifestConfigOption
	// KnownAbsent says a synced cache has no such object, so the strategy
	// creates without reading first.
	KnownAbsent bool
	// Spec identifies the desired state: the manifest, its config, the owner
	// and the executor, hashed by the caller.
	Spec uint64
	// Last is what the agent remembers of its last successful apply of this
	// manifest; nil when it knows nothing (a first apply, or an object taken
	// over from another agent), in which case the live object is compared
	// with the manifest as it is.
	Last *LastApplied
	// InSyncAt is the ContentVersion (package objectwatch) the object had
	// when the agent last found it holding this desired state (Spec), by a
	// comparison that found no difference or by its own write; 0 when not
	// known. A live object still at that version holds it: nobody changed
	// it since, so the Update strategy asks the server no dry run for it.
	InSyncAt uint64
}

// Result is what a strategy did.
type Result struct {
	// Object is the live object after the apply; nil only when ReadOnly finds nothing.
	Object *unstructured.Unstructured
	// Written is true when a create, update or patch went through. A write
	// the server refused is reported by the error, with Written false.
	Written bool
	// Differences lists where the live object still differs from the
	// manifest after the apply: what the strategy does not repair
	// (CreateOnly once created, ReadOnly, ignoreFields, a write the server
	// refused). Nil when nothing could be compared (no live object).
	Differences *diff.Report
	// Repaired is set when the strategy wrote back an object that the work
	// had not changed since it last applied it: drift, what the object held
	// instead and who changed it.
	Repaired *Drift
	// Unread is why a ReadOnly manifest's object could not be read (the
	// agent may not read it, the server failed): the manifest is applied all
	// the same, as in OCM, and nothing was compared.
	Unread error
}

// Strategy applies a manifest to the managed cluster.
type Strategy interface {
	Apply(ctx context.Context, client dynamic.Interface, req Request) (Result, error)
}

// strategies is the registry behind For. The strategies are stateless, so
// one value of each serves every request.
var strategies = map[workv1.UpdateStrategyType]Strategy{
	workv1.UpdateStrategyTypeUpdate:          updateStrategy{},
	workv1.UpdateStrategyTypeCreateOnly:      createOnlyStrategy{},
	workv1.UpdateStrategyTypeServerSideApply: serverSideApplyStrategy{},
	workv1.UpdateStrategyTypeReadOnly:        readOnlyStrategy{},
}

// For returns the strategy of a type; the empty type is Update, the API
// default. An unknown type is an *Error with ManifestAppliedReasonFailed.
func For(t workv1.UpdateStrategyType) (Strategy, error) {
	t = manifest.DefaultStrategy(t)
	s, ok := strategies[t]
	if !ok {
		return nil, &Error{
			Reason:  workv1.ManifestAppliedReasonFailed,
			Message: fmt.Sprintf("unknown update strategy type %q", t),
		}
	}
	return s, nil
}

// Error is a failure the caller reports as the manifest's Applied condition.
type Error struct {
	// Reason is one of the ManifestApplied* reasons.
	Reason string
	// Message is shown to the user; for API errors it is the server's message.
	Message string
	// Err is the underlying error, if any, so callers can still test it with
	// apierrors.IsInvalid, apierrors.IsForbidden and the like.
	Err error
}

// withDesired is the request with another body for the same object, as a
// strategy prepares it (kindrules.go).
func (r Request) withDesired(desired *unstructured.Unstructured) Request {
	r.Desired = desired
	return r
}

func (e *Error) Error() string { return e.Message }

func (e *Error) Unwrap() error { return e.Err }

// failed turns an API error into an *Error. The server's message is kept
// verbatim: it already names the object, the field and the rule broken
// (immutable fields, RBAC, apply conflicts with their managers).
func failed(err error) error {
	return &Error{Reason: workv1.ManifestAppliedReasonFailed, Message: err.Error(), Err: err}
}

// resourceClient is the client for the manifest's resource, namespaced when
// the manifest has a namespace. An empty namespace selects the cluster-scoped
// path, so one call covers both scopes.
func resourceClient(client dynamic.Interface, req Request) dynamic.ResourceInterface {
	return client.Resource(req.Resource).Namespace(req.Desired.GetNamespace())
}

// readLive reads the object; a synced cache that knows it is absent saves
// the round trip.
func readLive(ctx context.Context, client dynamic.Interface, req Request) (*unstructured.Unstructured, error) {
	if req.KnownAbsent {
		return nil, apierrors.NewNotFound(req.Resource.GroupResource(), req.Desired.GetName())
	}
	return resourceClient(client, req).Get(ctx, req.Desired.GetName(), metav1.GetOptions{})
}
