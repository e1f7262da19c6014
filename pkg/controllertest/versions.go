package controllertest

import (
	"encoding/json"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	fakework "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
)

// VersionPatches makes a fake clientset treat the patches of ManifestWorks
// as an API server does, which the plain fake does not: a patch carrying a
// metadata.resourceVersion other than the stored one fails with a conflict,
// and a patch that changes the work gives it the next resourceVersion (the
// stored one read as a number). A patch that changes nothing keeps it.
func VersionPatches(client *fakework.Clientset) {
	tracker := client.Tracker()
	client.PrependReactor("patch", "manifestworks", func(action clienttesting.Action) (bool, runtime.Object, error) {
		patch := action.(clienttesting.PatchAction)
		gvr, ns, name := patch.GetResource(), patch.GetNamespace(), patch.GetName()
		obj, err := tracker.Get(gvr, ns, name)
		if err != nil {
			return true, nil, err
		}
		stored := obj.(*workv1.ManifestWork)
		var precondition struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(patch.GetPatch(), &precondition); err != nil {
			return true, nil, err
		}
		if rv := precondition.Metadata.ResourceVersion; rv != "" && rv != stored.ResourceVersion {
			return true, nil, apierrors.NewConflict(workv1.Resource("manifestworks"), name,
				fmt.Errorf("the object has been modified: resourceVersion %s, not %s", stored.ResourceVersion, rv))
		}
		_, obj, err = clienttesting.ObjectReaction(tracker)(action)
		if err != nil {
			return true, nil, err
		}
		updated := obj.(*workv1.ManifestWork)
		updated.ResourceVersion = stored.ResourceVersion
		if equality.Semantic.DeepEqual(stored, updated) {
			return true, updated, nil
		}
		n, err := strconv.Atoi(stored.ResourceVersion)
		if err != nil {
			return true, nil, fmt.Errorf("resourceVersion %q is not a number", stored.ResourceVersion)
		}
		updated.ResourceVersion = strconv.Itoa(n + 1)
		return true, updated, tracker.Update(gvr, updated, ns)
	})
}
