package webhook

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/klog/v2"
)

func serve(t *testing.T, method, contentType, body string) *httptest.ResponseRecorder {
	t.Helper()
	h := &handler{logger: klog.Background(), reviewer: &reviewer{sars: &fakeSARs{}}}
	r := httptest.NewRequest(method, Path, strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

func TestHandlerAnswersAReview(t *testing.T) {
	req := request(t, admissionv1.Create, withExecutor(validWork(), "default", "executor1"), nil)
	body, err := json.Marshal(admissionv1.AdmissionReview{Request: req})
	require.NoError(t, err)
	in := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",` + string(body)[1:]

	rec := serve(t, http.MethodPost, "application/json; charset=utf-8", in)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	assert.Equal(t, "admission.k8s.io/v1", out["apiVersion"])
	assert.Equal(t, "AdmissionReview", out["kind"])
	assert.NotContains(t, out, "request", "the answer carries only the response")
	resp := out["response"].(map[string]any)
	assert.Equal(t, "req-1", resp["uid"])
	assert.Equal(t, false, resp["allowed"])
	status := resp["status"].(map[string]any)
	assert.Equal(t, float64(400), status["code"])
	assert.Equal(t, executor1Denied, status["message"])
}

// OCM's ValidatingWebhookConfiguration lists admissionReviewVersions
// v1beta1 first: a v1beta1 review is answered in v1beta1.
func TestHandlerAnswersAV1beta1Review(t *testing.T) {
	req := request(t, admissionv1.Create, withExecutor(validWork(), "default", "executor1"), nil)
	body, err := json.Marshal(admissionv1.AdmissionReview{Request: req})
	require.NoError(t, err)
	in := `{"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview",` + string(body)[1:]

	rec := serve(t, http.MethodPost, "application/json", in)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	assert.Equal(t, "admission.k8s.io/v1beta1", out["apiVersion"])
	resp := out["response"].(map[string]any)
	assert.Equal(t, "req-1", resp["uid"])
	assert.Equal(t, false, resp["allowed"])
	assert.Equal(t, executor1Denied, resp["status"].(map[string]any)["message"])
}

func TestHandlerRejectsMalformedReviews(t *testing.T) {
	tests := []struct {
		name, method, contentType, body string
		wantCode                        int
		wantBody                        string
	}{
		{"not JSON", http.MethodPost, "application/json", "{", 400, "the body is not an AdmissionReview"},
		{"wrong content type", http.MethodPost, "text/plain", "{}", 400, `want Content-Type application/json, got "text/plain"`},
		{"no content type", http.MethodPost, "", "{}", 400, `want Content-Type application/json, got ""`},
		{"another version", http.MethodPost, "application/json", `{"apiVersion":"admission.k8s.io/v2","kind":"AdmissionReview","request":{"uid":"x"}}`,
			400, `want admission.k8s.io/v1 or admission.k8s.io/v1beta1 AdmissionReview, got "admission.k8s.io/v2" "AdmissionReview"`},
		{"no request", http.MethodPost, "application/json", `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`, 400, "the AdmissionReview has no request"},
		{"too large", http.MethodPost, "application/json", `{"x":"` + strings.Repeat("a", maxReviewBytes) + `"}`, 400, "reading the body"},
		{"GET", http.MethodGet, "", "", 405, "only POST is served"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := serve(t, tt.method, tt.contentType, tt.body)
			assert.Equal(t, tt.wantCode, rec.Code)
			assert.Contains(t, rec.Body.String(), tt.wantBody)
		})
	}
}
