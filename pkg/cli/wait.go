package cli

import (
	"context"
	"errors"
	"fmt"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	informers "github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
)

// failureConditions end a wait with exit code 1 when True.
var failureConditions = []string{replicaset.ConditionRolloutStopped, replicaset.ConditionRolloutAborted}

// Wait watches the replica set name and its works until wo.For holds
// (exit 0), the rollout stops or aborts (1), or wo.Timeout passes (3).
func Wait(ctx context.Context, o *Options, wo WaitOptions, name string) error {
	h, err := o.connectHub()
	if err != nil {
		return err
	}
	client, namespace := h.work, h.namespace
	rs, err := client.WorkV1alpha1().ManifestWorkReplicaSets(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return usageError(err)
	}
	ctx, cancel := context.WithTimeout(ctx, wo.Timeout)
	defer cancel()
	changed := make(chan struct{}, 1)
	rsInformer, worksInformer := watchRollout(ctx, client, rs, changed)
	pending := "the watches have not synced"
	for {
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return exitf(ExitTimedOut, "timed out after %s waiting for %s %s/%s to be %s: %s", wo.Timeout, "manifestworkreplicaset", namespace, name, wo.For, pending)
			}
			return usageError(ctx.Err())
		case <-changed:
		}
		if !rsInformer.HasSynced() || !worksInformer.HasSynced() {
			continue
		}
		done, err := judgeStores(rsInformer.GetStore(), worksInformer.GetStore(), namespace, name, wo.For, currentOf(ctx, h))
		if err != nil {
			return err
		}
		if done == "" {
			_, err := fmt.Fprintf(o.Out, "manifestworkreplicaset/%s is %s\n", name, wo.For)
			return err
		}
		pending = done
	}
}

// currentOf reads what the hub writes now to each cluster of a replica
// set (see currentWorks): its overrides, and with some, its decisions and
// the facts of its clusters.
func currentOf(ctx context.Context, h hub) func(*workv1alpha1.ManifestWorkReplicaSet) (*current, error) {
	return func(rs *workv1alpha1.ManifestWorkReplicaSet) (*current, error) {
		overrides, err := h.overrides(ctx, fileObjects{}, rs.Name)
		if err != nil {
			return nil, err
		}
		return h.currentWorks(ctx, rs, overrides)
	}
}

// judgeStores judges the replica set and its works as the watches have
// them (see judge); a replica set gone is a failure.
func judgeStores(replicaSets, works cache.Store, namespace, name, forWhat string,
	currentOf func(*workv1alpha1.ManifestWorkReplicaSet) (*current, error)) (string, error) {
	obj, exists, err := replicaSets.GetByKey(cache.NewObjectName(namespace, name).String())
	if err != nil {
		return "", usageError(err)
	}
	if !exists {
		return "", exitf(ExitFailed, "manifestworkreplicaset %s/%s was deleted", namespace, name)
	}
	var list []*workv1.ManifestWork
	for _, w := range works.List() {
		list = append(list, w.(*workv1.ManifestWork))
	}
	return judge(obj.(*workv1alpha1.ManifestWorkReplicaSet), list, forWhat, currentOf)
}

// watchRollout starts informers of rs and of its works that poke changed
// on every event, and once they have synced.
func watchRollout(ctx context.Context, client versioned.Interface, rs *workv1alpha1.ManifestWorkReplicaSet, changed chan<- struct{}) (cache.SharedIndexInformer, cache.SharedIndexInformer) {
	poke := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { poke() },
		UpdateFunc: func(any, any) { poke() },
		DeleteFunc: func(any) { poke() },
	}
	byName := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(rs.Namespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", rs.Name).String()
		}))
	byLabel := informers.NewSharedInformerFactoryWithOptions(client, 0,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = worksSelector(rs).String() }))
	rsInformer := byName.Work().V1alpha1().ManifestWorkReplicaSets().Informer()
	worksInformer := byLabel.Work().V1().ManifestWorks().Informer()
	_, _ = rsInformer.AddEventHandler(handler)
	_, _ = worksInformer.AddEventHandler(handler)
	byName.Start(ctx.Done())
	byLabel.Start(ctx.Done())
	go func() {
		if cache.WaitForCacheSync(ctx.Done(), rsInformer.HasSynced, worksInformer.HasSynced) {
			poke()
		}
	}()
	return rsInformer, worksInformer
}

// failed is an exit code 1 error when the rollout of rs has stopped or
// aborted, naming the condition that says so; else nil.
func failed(rs *workv1alpha1.ManifestWorkReplicaSet) error {
	for _, t := range failureConditions {
		if c := currentCondition(rs, t); c != nil && c.Status == metav1.ConditionTrue {
			return exitf(ExitFailed, "manifestworkreplicaset %s/%s: %s %s: %s", rs.Namespace, rs.Name, t, c.Reason, shortMessage(c.Message))
		}
	}
	return nil
}

// currentCondition is rs's condition of type t, or nil when there is none
// or it was computed for an earlier generation of the spec (the status of
// the template before an undo, not yet rewritten). A condition with no
// generation (OCM's controller writes none) counts as current.
func currentCondition(rs *workv1alpha1.ManifestWorkReplicaSet, t string) *metav1.Condition {
	c := apimeta.FindStatusCondition(rs.Status.Conditions, t)
	if c == nil || (c.ObservedGeneration != 0 && c.ObservedGeneration < rs.Generation) {
		return nil
	}
	return c
}

// judge tells whether for ("rolled-out" or "healthy") holds for rs and its
// works: "" when it does, else what is still missing; an exit code 1 error
// when the rollout has stopped or aborted, or cannot complete because a
// selected cluster's work fails to render.
//
// Rolled out: PlacementRolledOut is True (the controller counts every
// selected cluster succeeded), and the works say the same now: as many
// as the placements select have what the hub writes to their cluster now
// (the current template, or with WorkOverrides its render for the cluster)
// and have succeeded (Progressing False for their generation), and no
// other is left. Healthy: rolled out, and every work Healthy True.
//
// currentOf says what the hub writes now; judge asks it once at most, and
// only when it needs to: when the rollout says it is rolled out, or that a
// cluster fails to render (OverridesRendered False, which it then checks).
func judge(rs *workv1alpha1.ManifestWorkReplicaSet, works []*workv1.ManifestWork, forWhat string,
	currentOf func(*workv1alpha1.ManifestWorkReplicaSet) (*current, error)) (string, error) {
	selector := worksSelector(rs)
	if err := failed(rs); err != nil {
		return "", err
	}
	var cur *current
	read := func() error {
		if cur != nil {
			return nil
		}
		var err error
		if cur, err = currentOf(rs); err != nil {
			return err
		}
		return cur.failed(": the rollout cannot complete")
	}
	if c := apimeta.FindStatusCondition(rs.Status.Conditions, replicaset.ConditionOverridesRendered); c != nil && c.Status == metav1.ConditionFalse {
		if err := read(); err != nil {
			return "", err
		}
	}
	if c := currentCondition(rs, workv1alpha1.ConditionPlacementRolledOut); c == nil || c.Status != metav1.ConditionTrue {
		return fmt.Sprintf("%s is not True yet", workv1alpha1.ConditionPlacementRolledOut), nil
	}
	if err := read(); err != nil {
		return "", err
	}
	succeeded := 0
	for _, w := range works {
		if w.DeletionTimestamp != nil || !selector.Matches(labels.Set(w.Labels)) {
			continue
		}
		if ok, lacks, _ := cur.has(w); !ok {
			return fmt.Sprintf("the work of %s %s", w.Namespace, lacks), nil
		}
		if state, _ := replicaset.WorkState(w); state != replicaset.Succeeded {
			return fmt.Sprintf("the work of %s is %s", w.Namespace, state), nil
		}
		if forWhat == ForHealthy && conditionStatus(w, workv1.WorkHealthy) != metav1.ConditionTrue {
			return fmt.Sprintf("the work of %s is not Healthy: %s", w.Namespace, problem(w)), nil
		}
		succeeded++
	}
	if succeeded < rs.Status.Summary.DesiredTotal {
		return fmt.Sprintf("%d of %d selected clusters have succeeded", succeeded, rs.Status.Summary.DesiredTotal), nil
	}
	return "", nil
}
