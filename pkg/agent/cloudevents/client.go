package cloudevents

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	applyworkv1 "github.com/manifestwork/work/pkg/client/applyconfiguration/work/v1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	workv1client "github.com/manifestwork/work/pkg/client/clientset/versioned/typed/work/v1"
)

// client is the local copy as a clientset: the ManifestWorks of the
// agent's cluster, listed, watched and read from the store, and patched
// (status and finalizers) through the source. Every other verb and group is
// refused; the agent uses none of them on works.
type client struct {
	versioned.Interface // not set: only WorkV1 is served
	cluster             string
	store               *store    // reads
	statuses            *statuses // patches
}

func (c *client) WorkV1() workv1client.WorkV1Interface { return workV1{client: c} }

// IsWatchListSemanticsUnSupported tells client-go's reflector to list, then
// watch: the local copy does not stream its initial state.
func (c *client) IsWatchListSemanticsUnSupported() bool { return true }

type workV1 struct {
	workv1client.WorkV1Interface // not set: only ManifestWorks are served
	client                       *client
}

func (g workV1) ManifestWorks(namespace string) workv1client.ManifestWorkInterface {
	return works{client: g.client, namespace: namespace}
}

// works are the ManifestWorks of one namespace; only the agent's cluster
// has any.
type works struct {
	client    *client
	namespace string
}

func (w works) mine() bool { return w.namespace == "" || w.namespace == w.client.cluster }

func (w works) Get(_ context.Context, name string, _ metav1.GetOptions) (*workv1.ManifestWork, error) {
	work, ok := w.client.store.get(name)
	if !ok || !w.mine() {
		return nil, notFound(name)
	}
	return work, nil
}

func (w works) List(_ context.Context, opts metav1.ListOptions) (*workv1.ManifestWorkList, error) {
	selector, err := selectorOf(opts)
	if err != nil {
		return nil, err
	}
	if !w.mine() {
		return listOf(nil, "0"), nil
	}
	items, version := w.client.store.list(selector)
	return listOf(items, version), nil
}

func (w works) Watch(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	selector, err := selectorOf(opts)
	if err != nil {
		return nil, err
	}
	if !w.mine() {
		selector = labels.Nothing()
	}
	return w.client.store.watch(opts.ResourceVersion, selector)
}

func (w works) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, _ metav1.PatchOptions, subresources ...string) (*workv1.ManifestWork, error) {
	if !w.mine() {
		return nil, notFound(name)
	}
	if pt != types.MergePatchType {
		return nil, apierrors.NewBadRequest("only merge patches are served by the local copy of the works, not " + string(pt))
	}
	sub := ""
	if len(subresources) > 0 {
		sub = subresources[0]
	}
	return w.client.statuses.patch(ctx, name, data, sub)
}

func (w works) Create(context.Context, *workv1.ManifestWork, metav1.CreateOptions) (*workv1.ManifestWork, error) {
	return nil, errUnsupported("", "create")
}

func (w works) Update(_ context.Context, work *workv1.ManifestWork, _ metav1.UpdateOptions) (*workv1.ManifestWork, error) {
	return nil, errUnsupported(work.Name, "update")
}

func (w works) UpdateStatus(_ context.Context, work *workv1.ManifestWork, _ metav1.UpdateOptions) (*workv1.ManifestWork, error) {
	return nil, errUnsupported(work.Name, "updatestatus")
}

func (w works) Delete(_ context.Context, name string, _ metav1.DeleteOptions) error {
	return errUnsupported(name, "delete")
}

func (w works) DeleteCollection(context.Context, metav1.DeleteOptions, metav1.ListOptions) error {
	return errUnsupported("", "deletecollection")
}

func (w works) Apply(context.Context, *applyworkv1.ManifestWorkApplyConfiguration, metav1.ApplyOptions) (*workv1.ManifestWork, error) {
	return nil, errUnsupported("", "apply")
}

func (w works) ApplyStatus(context.Context, *applyworkv1.ManifestWorkApplyConfiguration, metav1.ApplyOptions) (*workv1.ManifestWork, error) {
	return nil, errUnsupported("", "applystatus")
}

// selectorOf reads a list's label selector; field selectors other than on
// the name are not served.
func selectorOf(opts metav1.ListOptions) (labels.Selector, error) {
	selector := labels.Everything()
	if opts.LabelSelector != "" {
		s, err := labels.Parse(opts.LabelSelector)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		selector = s
	}
	if opts.FieldSelector != "" {
		if _, err := fields.ParseSelector(opts.FieldSelector); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		return nil, apierrors.NewBadRequest("field selectors are not served by the local copy of the works")
	}
	return selector, nil
}

func errUnsupported(name, verb string) error {
	return apierrors.NewMethodNotSupported(worksResource, verb+" of work "+name)
}
