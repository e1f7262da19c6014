// Package admission validates ManifestWorks as the hub admits them on create
// and update. It is a pure library that both sides use: the hub's webhook
// server wires it in, and the agent runs the same checks on works that reach
// it as CloudEvents, without a kube-apiserver and its webhook.
package admission

import (
	"encoding/json"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
	"github.com/manifestwork/work/pkg/serviceaccount"
)

// DefaultManifestLimit is the default of --manifest-limit: 500 KiB.
const DefaultManifestLimit = 500 * 1024

// The messages of OCM's webhook (v1.0.0) for what it checks; users and
// clients match on them, so they are kept word for word (the refusal of an
// executor gains a hint after OCM's sentence).
const (
	MessageNoManifests        = "manifests should not be empty"
	messageTooLarge           = "the size of manifests is %d bytes which exceeds the %d limit"
	MessageNoName             = "name must be set in manifest"
	MessageGenerateName       = "generateName must not be set in manifest"
	MessageNoServiceAccount   = "executor service account can not be nil"
	messageExecutorNotAllowed = "user %s cannot manipulate the Manifestwork with executor %s/%s in namespace %s"
)

// messageGrantExecuteAs follows OCM's sentence: what the hub's RBAC must
// grant the user for the write to be admitted, as the check asks it.
const messageGrantExecuteAs = "; to allow it, grant the user the verb execute-as on manifestworks " +
	"(apiGroup work.open-cluster-management.io) with resourceName %s in namespace %s"

// ExecutorNotAllowed is OCM's message refusing a user an executor, followed
// by what to grant: the verb execute-as on manifestworks named after the
// executor's user, system:serviceaccount:<ns>:<name>, in the work's
// namespace.
func ExecutorNotAllowed(user, saNamespace, saName, namespace string) string {
	return fmt.Sprintf(messageExecutorNotAllowed, user, saNamespace, saName, namespace) +
		fmt.Sprintf(messageGrantExecuteAs, serviceaccount.User(saNamespace, saName), namespace)
}

// Options configures Validate.
type Options struct {
	// ManifestLimit is the most bytes the manifests may total, measured as
	// OCM measures them (Size) (--manifest-limit). Zero or less means
	// DefaultManifestLimit.
	ManifestLimit int
}

// objectKey identifies the object a manifest applies; the version is left out
// because two versions of one object are still the same object.
type objectKey struct {
	group, kind, namespace, name string
}

func (k objectKey) String() string {
	gk := schema.GroupKind{Group: k.group, Kind: k.kind}.String()
	if k.namespace == "" {
		return fmt.Sprintf("%s %q", gk, k.name)
	}
	return fmt.Sprintf("%s %q in namespace %q", gk, k.name, k.namespace)
}

// Validate returns why a work's manifests are refused, nil when they are
// not. First come OCM's checks, in OCM's order and with its messages, the
// first failing one as a BadRequest: no manifests, more than
// opts.ManifestLimit bytes in total, then per manifest one that does not
// decode into an object with a kind, without a name, or with a
// generateName. Then the checks beyond OCM's, all problems at once as an
// Invalid error: a manifest the agent could not apply (no apiVersion, say),
// two manifests for the same object, and a jqPathExpression of ignoreFields
// that does not parse.
func Validate(work *workv1.ManifestWork, opts Options) error {
	if work == nil || len(work.Spec.Workload.Manifests) == 0 {
		return apierrors.NewBadRequest(MessageNoManifests)
	}
	if err := validateAsOCM(work.Spec.Workload.Manifests, opts); err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	errs := validateForAgent(work.Spec.Workload.Manifests)
	errs = append(errs, validateIgnoreFields(work.Spec.ManifestConfigs)...)
	if len(errs) > 0 {
		return apierrors.NewInvalid(schema.GroupKind{Group: workv1.GroupName, Kind: "ManifestWork"}, work.Name, errs)
	}
	return nil
}

// validateAsOCM is OCM's check of non-empty manifests.
func validateAsOCM(manifests []workv1.Manifest, opts Options) error {
	limit := opts.ManifestLimit
	if limit <= 0 {
		limit = DefaultManifestLimit
	}
	total := 0
	for _, m := range manifests {
		total += Size(m)
	}
	if total > limit {
		return fmt.Errorf(messageTooLarge, total, limit)
	}
	for _, m := range manifests {
		obj := &unstructured.Unstructured{}
		if err := obj.UnmarshalJSON(rawOf(m)); err != nil {
			return err
		}
		if obj.GetName() == "" {
			return errors.New(MessageNoName)
		}
		if obj.GetGenerateName() != "" {
			return errors.New(MessageGenerateName)
		}
	}
	return nil
}

// validateForAgent returns every problem OCM's webhook lets through: a
// manifest the agent could not apply, or two manifests for the same object.
func validateForAgent(manifests []workv1.Manifest) field.ErrorList {
	path := field.NewPath("spec", "workload", "manifests")
	var errs field.ErrorList
	first := map[objectKey]int{}
	for i, m := range manifests {
		// Decode checks what the agent needs: a JSON object with apiVersion,
		// kind and metadata.name, and no generateName.
		obj, err := manifest.Decode(m)
		if err != nil {
			errs = append(errs, field.Invalid(path.Index(i), field.OmitValueType{}, err.Error()))
			continue
		}
		gvk := obj.GroupVersionKind()
		key := objectKey{group: gvk.Group, kind: gvk.Kind, namespace: obj.GetNamespace(), name: obj.GetName()}
		if j, ok := first[key]; ok {
			errs = append(errs, &field.Error{
				Type:     field.ErrorTypeDuplicate,
				Field:    path.Index(i).String(),
				BadValue: field.OmitValueType{},
				Detail:   fmt.Sprintf("%s is already in %s; each object may appear only once in a ManifestWork", key, path.Index(j)),
			})
			continue
		}
		first[key] = i
	}
	return errs
}

// validateIgnoreFields refuses a jqPathExpression of ignoreFields that does
// not parse: the agent could only fail its manifest. One that parses but is
// no path expression can only be told on an object, by the agent.
func validateIgnoreFields(configs []workv1.ManifestConfigOption) field.ErrorList {
	var errs field.ErrorList
	for i, c := range configs {
		if c.UpdateStrategy == nil || c.UpdateStrategy.ServerSideApply == nil {
			continue
		}
		path := field.NewPath("spec", "manifestConfigs").Index(i).Child("updateStrategy", "serverSideApply", "ignoreFields")
		for j, f := range c.UpdateStrategy.ServerSideApply.IgnoreFields {
			for k, e := range f.JQPathExpressions {
				if _, err := manifest.CompileJQPath(e); err != nil {
					errs = append(errs, field.Invalid(path.Index(j).Child("jqPathExpressions").Index(k), e,
						"not a jq expression: "+err.Error()))
				}
			}
		}
	}
	return errs
}

// rawOf is a manifest's raw JSON, encoding Object when Raw is unset.
func rawOf(m workv1.Manifest) []byte {
	if len(m.Raw) > 0 || m.Object == nil {
		return m.Raw
	}
	raw, err := json.Marshal(m.Object)
	if err != nil {
		return nil // reported as a manifest that does not decode
	}
	return raw
}

// Size is a manifest's size as OCM's webhook measures it against the limit:
// that of the protobuf encoding of its RawExtension, which is the raw JSON
// framed as a field (a one-byte tag and the varint of the length).
func Size(m workv1.Manifest) int {
	return (&runtime.RawExtension{Raw: rawOf(m)}).Size()
}
