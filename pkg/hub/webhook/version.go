package webhook

// admissionAPIVersion and admissionKind identify an admission.k8s.io/v1
// AdmissionReview, the only version this webhook answers.
const (
	admissionAPIVersion = "admission.k8s.io/v1"
	admissionKind       = "AdmissionReview"
)
