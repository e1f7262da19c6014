package webhook

// admissionKind is the kind this webhook answers, in either API version the
// API server may send: admission.k8s.io/v1 (ours), or v1beta1, which OCM's
// ValidatingWebhookConfiguration lists first. Both encode the request and the
// response alike; the answer carries the version of the question.
const (
	admissionAPIVersion        = "admission.k8s.io/v1"
	admissionAPIVersionV1beta1 = "admission.k8s.io/v1beta1"
	admissionKind              = "AdmissionReview"
)
