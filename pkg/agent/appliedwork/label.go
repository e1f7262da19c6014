// AppliedManifestWorks are labelled with the cluster whose work they record
// (ClusterLabel). The agent's
// AppliedManifestWork informer selects that label, so that agents sharing a
// managed cluster do not each receive every other agent's records. Records
// written without it, by OCM's work agent (a take-over inherits them) or by
// a version of this agent from before the label, are labelled once: those
// this agent answers for when it starts (LabelAll, one list), and the record
// of a work the apply or the deletion finds by a read (Claim).

package appliedwork

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
)

// Label gives an AppliedManifestWork the label of clusterName and returns
// it as stored. The resourceVersion makes two agents that both think a
// record theirs label it once: the second gets a conflict.
func Label(ctx context.Context, client workclient.Interface, applied *workv1.AppliedManifestWork, clusterName string) (*workv1.AppliedManifestWork, error) {
	labelled, err := patchMetadata(ctx, client, applied.Name, map[string]any{
		"resourceVersion": applied.ResourceVersion,
		"labels":          map[string]string{ClusterLabel: clusterName},
	})
	if err != nil {
		return nil, fmt.Errorf("labelling AppliedManifestWork %s: %w", applied.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Labelled an AppliedManifestWork written without its cluster label",
		"appliedManifestWork", applied.Name, "agentID", applied.Spec.AgentID)
	return labelled, nil
}

// patchMetadata merge-patches the metadata of an AppliedManifestWork and
// returns it as stored.
func patchMetadata(ctx context.Context, client workclient.Interface, name string, metadata map[string]any) (*workv1.AppliedManifestWork, error) {
	patch, err := json.Marshal(map[string]any{"metadata": metadata})
	if err != nil {
		return nil, err
	}
	return client.WorkV1().AppliedManifestWorks().Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
}

// Claim makes a work's AppliedManifestWork that the agent found outside its
// cache (by a read) this cluster's: one without the label is labelled, so
// that the agent's informer brings it to the controllers; one labelled for
// another cluster records another cluster's work of the same name, which
// the agent must not take: an error says so.
func Claim(ctx context.Context, client workclient.Interface, applied *workv1.AppliedManifestWork, clusterName string) (*workv1.AppliedManifestWork, error) {
	switch cluster, labelled := applied.Labels[ClusterLabel]; {
	case !labelled:
		return Label(ctx, client, applied, clusterName)
	case cluster != clusterName:
		return nil, fmt.Errorf("AppliedManifestWork %s records a work of cluster %q: clusters of one hub that share a managed cluster need works of distinct names",
			applied.Name, cluster)
	}
	return applied, nil
}

// Get reads an AppliedManifestWork that the agent's cache does not show,
// and claims it for clusterName (Claim): the apply and the deletion of a
// work find its record this way when it was just created or was written
// without the label.
func Get(ctx context.Context, client workclient.Interface, name, clusterName string) (*workv1.AppliedManifestWork, error) {
	applied, err := client.WorkV1().AppliedManifestWorks().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return Claim(ctx, client, applied, clusterName)
}

// Starting is what LabelAll needs: the agent's identity and its caches.
type Starting struct {
	Agent
	Client   workclient.Interface // AppliedManifestWorks on the managed cluster
	Works    worklisters.ManifestWorkNamespaceLister
	Labelled worklisters.AppliedManifestWorkLister // the agent's informer's
}

// LabelAll lists the AppliedManifestWorks without the label and labels
// those this agent answers for (Responsible), then waits, up to
// timeout, until the agent's informer has them all: the agent then starts
// with every record of its cluster in its cache. The others are left as
// they are.
func LabelAll(ctx context.Context, s Starting, timeout time.Duration) error {
	all, err := s.Client.WorkV1().AppliedManifestWorks().List(ctx, metav1.ListOptions{LabelSelector: Unlabelled})
	if err != nil {
		return fmt.Errorf("listing AppliedManifestWorks without a cluster label: %w", err)
	}
	workExists := func(name string) bool {
		_, err := s.Works.Get(name)
		return err == nil
	}
	var labelled []string
	for i := range all.Items {
		applied := &all.Items[i]
		if !s.Responsible(applied, workExists) {
			continue
		}
		if _, err := Label(ctx, s.Client, applied, s.ClusterName); err != nil {
			return err
		}
		labelled = append(labelled, applied.Name)
	}
	if len(labelled) == 0 {
		return nil
	}
	klog.FromContext(ctx).Info("Labelled AppliedManifestWorks written without their cluster label", "count", len(labelled))
	// The cache is local: looking at it often costs no request.
	return wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		for _, name := range labelled {
			if _, err := s.Labelled.Get(name); err != nil {
				return false, nil
			}
		}
		return true, nil
	})
}

// FromWork are the labels of a work that its AppliedManifestWork carries
// too, as OCM's agent (v1.1 on) gives them: all of them but ClusterLabel,
// which names the cluster the record answers for and stays the agent's. The
// map is the caller's, with room for that label.
func FromWork(workLabels map[string]string) map[string]string {
	out := make(map[string]string, len(workLabels)+1)
	for k, v := range workLabels {
		if k != ClusterLabel {
			out[k] = v
		}
	}
	return out
}

// FollowWork gives an AppliedManifestWork the labels of its work
// (FromWork) that it lacks, in one patch, and returns it as stored; one
// that has them all is returned as it is, without a request. A label the
// work drops stays on the record: the agent cannot tell it from one that
// somebody else put there.
func FollowWork(ctx context.Context, client workclient.Interface, applied *workv1.AppliedManifestWork, workLabels map[string]string) (*workv1.AppliedManifestWork, error) {
	add := FromWork(workLabels)
	maps.DeleteFunc(add, func(k, v string) bool {
		has, ok := applied.Labels[k]
		return ok && has == v
	})
	if len(add) == 0 {
		return applied, nil
	}
	labelled, err := patchMetadata(ctx, client, applied.Name, map[string]any{"labels": add})
	if err != nil {
		return nil, fmt.Errorf("giving AppliedManifestWork %s the labels of its work: %w", applied.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Gave an AppliedManifestWork the labels of its work", "appliedManifestWork", applied.Name, "labels", len(add))
	return labelled, nil
}
