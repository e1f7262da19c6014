// Package appliedlabel labels the AppliedManifestWorks this agent answers
// for with its cluster (appliedname.ClusterLabel). The agent's
// AppliedManifestWork informer selects that label, so that agents sharing a
// managed cluster do not each receive every other agent's records. Records
// written without it, by OCM's work agent (a take-over inherits them) or by
// a version of this agent from before the label, are found by a second
// informer, which selects records without the label (empty once they are
// labelled), and are labelled here once.
package appliedlabel

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedname"
	"github.com/manifestwork/work/pkg/agent/queuekeys"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "AppliedManifestWorkLabelController"

// Deps are the controller's collaborators.
type Deps struct {
	ClusterName string
	HubHash     string
	AgentID     string

	Works       workinformers.ManifestWorkInformer // on the hub
	SpokeClient workclient.Interface               // AppliedManifestWorks on the managed cluster
	// Unlabelled are the AppliedManifestWorks without the label
	// (appliedname.Unlabelled); Labelled, those of this cluster.
	Unlabelled, Labelled workinformers.AppliedManifestWorkInformer
	Recorder             events.Recorder
}

// Controller labels the unlabelled AppliedManifestWorks this agent answers for.
type Controller struct {
	Deps
	works      worklisters.ManifestWorkNamespaceLister
	unlabelled worklisters.AppliedManifestWorkLister
	labelled   worklisters.AppliedManifestWorkLister
}

// New returns the controller: LabelAll labels what is there when the agent
// starts, the factory.Controller what comes later. Its queue keys are
// AppliedManifestWork names.
func New(d Deps) (*Controller, factory.Controller) {
	c := &Controller{
		Deps:       d,
		works:      d.Works.Lister().ManifestWorks(d.ClusterName),
		unlabelled: d.Unlabelled.Lister(),
		labelled:   d.Labelled.Lister(),
	}
	return c, factory.New().
		WithInformersQueueKeysFunc(appliedKey, d.Unlabelled.Informer()).
		// A work that appears in this cluster's namespace makes its record this agent's.
		WithInformersQueueKeysFunc(queuekeys.AppliedOfWork(klog.Background().WithName(ControllerName), d.HubHash), d.Works.Informer()).
		WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder)
}

func appliedKey(obj runtime.Object) []string {
	applied, ok := obj.(*workv1.AppliedManifestWork)
	if !ok {
		return nil
	}
	return []string{applied.Name}
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	name := syncCtx.QueueKey()
	applied, err := c.unlabelled.Get(name)
	if apierrors.IsNotFound(err) {
		return nil // labelled already, or not there
	}
	if err != nil {
		return err
	}
	_, err = c.reconcile(ctx, applied)
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil // changed or gone meanwhile: its event brings it back if need be
	}
	return err
}

// reconcile labels an unlabelled AppliedManifestWork that this agent
// answers for (appliedname.Responsible), and tells whether it did.
func (c *Controller) reconcile(ctx context.Context, applied *workv1.AppliedManifestWork) (bool, error) {
	if _, labelled := applied.Labels[appliedname.ClusterLabel]; labelled {
		return false, nil
	}
	if !appliedname.Responsible(applied, c.HubHash, c.AgentID, c.workExists) {
		return false, nil
	}
	// The resourceVersion makes two agents that both think a record theirs
	// label it once: the second gets a conflict.
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": applied.ResourceVersion,
		"labels":          map[string]string{appliedname.ClusterLabel: c.ClusterName},
	}})
	if err != nil {
		return false, err
	}
	_, err = c.SpokeClient.WorkV1().AppliedManifestWorks().Patch(ctx, applied.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return false, fmt.Errorf("labelling AppliedManifestWork %s: %w", applied.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Labelled an AppliedManifestWork written without its cluster label",
		"appliedManifestWork", applied.Name, "agentID", applied.Spec.AgentID)
	return true, nil
}

func (c *Controller) workExists(name string) bool {
	_, err := c.works.Get(name)
	return err == nil
}

// LabelAll labels every unlabelled AppliedManifestWork this agent answers for and
// waits, up to timeout, until the labelled informer has them all, so that
// the agent starts with its own records in its cache. It returns the
// failures; the controller retries them.
func (c *Controller) LabelAll(ctx context.Context, timeout time.Duration) error {
	all, err := c.unlabelled.List(labels.Everything())
	if err != nil {
		return err
	}
	var labelled []string
	for _, applied := range all {
		done, err := c.reconcile(ctx, applied)
		if err != nil {
			return err
		}
		if done {
			labelled = append(labelled, applied.Name)
		}
	}
	if len(labelled) == 0 {
		return nil
	}
	klog.FromContext(ctx).Info("Labelled AppliedManifestWorks written without their cluster label", "count", len(labelled))
	// The caches are local: looking at them often costs no request.
	return wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		for _, name := range labelled {
			if _, err := c.labelled.Get(name); err != nil {
				return false, nil
			}
		}
		return true, nil
	})
}
