package cli

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
)

// Pause sets the replica set's pause annotation (to "true"), or, with
// pause false, removes it, by a merge patch; a replica set already so is
// left alone.
func Pause(ctx context.Context, o *Options, name string, pause bool) error {
	client, namespace, err := o.connect()
	if err != nil {
		return err
	}
	replicaSets := client.WorkV1alpha1().ManifestWorkReplicaSets(namespace)
	rs, err := replicaSets.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return usageError(err)
	}
	value, done := any(nil), "resumed"
	if pause {
		value, done = "true", "paused"
	}
	if (rs.Annotations[replicaset.PausedAnnotation] == "true") == pause {
		if _, has := rs.Annotations[replicaset.PausedAnnotation]; pause || !has {
			_, err := fmt.Fprintf(o.Out, "manifestworkreplicaset/%s already %s\n", name, done)
			return err
		}
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{replicaset.PausedAnnotation: value}}})
	if err != nil {
		return err
	}
	if _, err := replicaSets.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		return usageError(err)
	}
	_, err = fmt.Fprintf(o.Out, "manifestworkreplicaset/%s %s\n", name, done)
	return err
}
