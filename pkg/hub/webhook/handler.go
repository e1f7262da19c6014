package webhook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/klog/v2"
)

// Path is where the webhook serves ManifestWork reviews.
const Path = "/validate-manifestwork"

// OCMPath is where OCM's ValidatingWebhookConfiguration sends them; it is
// served alike.
const OCMPath = "/validate-work-open-cluster-management-io-v1-manifestwork"

// maxReviewBytes bounds a request body: an AdmissionReview holds the object
// and, on UPDATE, its previous version, each at most the API server's 3 MiB.
const maxReviewBytes = 7 << 20

// handler decodes an AdmissionReview, has the reviewer decide and writes the
// answer. A request that is not an admission.k8s.io/v1 (or v1beta1)
// AdmissionReview gets 400 Bad Request.
type handler struct {
	reviewer *reviewer
	logger   klog.Logger
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "only POST is served", http.StatusMethodNotAllowed)
		return
	}
	review, err := decodeReview(w, r)
	if err != nil {
		h.logger.V(2).Info("Bad admission request", "remote", r.RemoteAddr, "err", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	logger := h.logger.WithValues("uid", review.Request.UID)
	ctx := klog.NewContext(r.Context(), logger)
	answer := admissionv1.AdmissionReview{
		TypeMeta: review.TypeMeta,
		Response: h.reviewer.review(ctx, review.Request),
	}
	body, err := json.Marshal(answer)
	if err != nil {
		logger.Error(err, "Cannot encode the admission response")
		http.Error(w, "cannot encode the admission response", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if _, err := w.Write(body); err != nil {
		logger.V(2).Info("Cannot write the admission response", "err", err)
	}
}

// decodeReview reads an admission.k8s.io/v1 or v1beta1 AdmissionReview with a
// request.
func decodeReview(w http.ResponseWriter, r *http.Request) (*admissionv1.AdmissionReview, error) {
	if ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || ct != "application/json" {
		return nil, fmt.Errorf("want Content-Type application/json, got %q", r.Header.Get("Content-Type"))
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxReviewBytes))
	if err != nil {
		return nil, fmt.Errorf("reading the body: %w", err)
	}
	review := &admissionv1.AdmissionReview{}
	if err := json.Unmarshal(body, review); err != nil {
		return nil, fmt.Errorf("the body is not an AdmissionReview: %w", err)
	}
	if (review.APIVersion != admissionAPIVersion && review.APIVersion != admissionAPIVersionV1beta1) || review.Kind != admissionKind {
		return nil, fmt.Errorf("want %s or %s %s, got %q %q", admissionAPIVersion, admissionAPIVersionV1beta1, admissionKind, review.APIVersion, review.Kind)
	}
	if review.Request == nil {
		return nil, errors.New("the AdmissionReview has no request")
	}
	return review, nil
}
