// Package appliedname names AppliedManifestWorks and builds the owner
// references that tie applied objects to them.
package appliedname

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// HubHash is the lowercase hex SHA-256 of the hub's kube-apiserver URL as the
// hub kubeconfig names it.
func HubHash(hubURL string) string {
	sum := sha256.Sum256([]byte(hubURL))
	return hex.EncodeToString(sum[:])
}

// Name is the name of the AppliedManifestWork of a ManifestWork.
func Name(hubHash, workName string) string {
	return hubHash + "-" + workName
}

// WorkName is the ManifestWork name of an AppliedManifestWork of the given
// hub; ok is false when the AppliedManifestWork belongs to another hub.
func WorkName(hubHash, appliedName string) (name string, ok bool) {
	name, ok = strings.CutPrefix(appliedName, hubHash+"-")
	return name, ok && name != ""
}

// OwnerReference points an applied object at its AppliedManifestWork.
func OwnerReference(applied *workv1.AppliedManifestWork) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: workv1.SchemeGroupVersion.String(),
		Kind:       "AppliedManifestWork",
		Name:       applied.Name,
		UID:        applied.UID,
	}
}

// WorkKey is the queue key (namespace/name) of the ManifestWork an
// AppliedManifestWork of the given hub records; ok is false for another hub's.
func WorkKey(clusterName, hubHash, appliedName string) (key string, ok bool) {
	name, ok := WorkName(hubHash, appliedName)
	if !ok {
		return "", false
	}
	return clusterName + "/" + name, true
}
