package availability

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/status/health"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// judgeManifest returns the Healthy condition of one manifest, given its
// Available condition; nil keeps the condition the manifest has: a
// condition rule of the work sets it, or the object was applied a moment ago
// and the watch has not brought its status yet.
func (a *Assessor) judgeManifest(ctx context.Context, work *workv1.ManifestWork, mc *workv1.ManifestCondition,
	availableCond metav1.Condition, justApplied bool) *metav1.Condition {
	if justApplied || health.Overridden(work, mc.ResourceMeta) {
		return nil
	}
	meta := mc.ResourceMeta
	var verdict health.Verdict
	switch availableCond.Status {
	case metav1.ConditionTrue:
		verdict = a.inspect(ctx, meta)
	case metav1.ConditionFalse:
		verdict = health.Missing(health.KindOf(meta), meta.Namespace, meta.Name)
	default:
		verdict = health.Unknown("%s", availableCond.Message)
	}
	verdict.Message = workv1.Shorten(verdict.Message, workv1.MaxConditionMessageLength, "")
	cond := verdict.Condition(work.Generation)
	return &cond
}

// inspect judges an existing object from the watch cache, which keeps the
// fields the rules read; it reads the object from the API only while that
// cache cannot answer.
func (a *Assessor) inspect(ctx context.Context, meta workv1.ManifestResourceMeta) health.Verdict {
	gk := schema.GroupKind{Group: meta.Group, Kind: meta.Kind}
	if meta.Kind == "" || !health.Judged(gk) {
		return health.NoHealthCheck(health.KindOf(meta))
	}
	gvr := schema.GroupVersionResource{Group: meta.Group, Version: meta.Version, Resource: meta.Resource}
	obj, synced, err := a.Objects.GetObject(gvr, meta.Namespace, meta.Name)
	if err == nil && !synced {
		obj, err = a.read(ctx, gvr, meta.Namespace, meta.Name)
	}
	switch {
	case apierrors.IsNotFound(err) || (err == nil && obj == nil):
		return health.Missing(meta.Kind, meta.Namespace, meta.Name)
	case err != nil:
		klog.FromContext(ctx).V(2).Info("Cannot read applied object for its health", "resource", gvr.String(),
			"object", klog.KRef(meta.Namespace, meta.Name), "err", err)
		return health.Unknown("Cannot read %s: %v", health.RefOf(meta), err)
	}
	return health.Judge(gk, obj)
}

// read gets an object from the API.
func (a *Assessor) read(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error) {
	if a.Dynamic == nil {
		return nil, fmt.Errorf("no cache of %s yet", gvr.GroupResource())
	}
	return a.Dynamic.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
}
