package diagnostics

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/cache"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2/textlogger"
	testingclock "k8s.io/utils/clock/testing"
)

// reviewer is a fake API server that knows two tokens: "reader", whose user
// may get /metrics, and "nobody", whose user may get nothing. It counts the
// reviews it answered.
type reviewer struct {
	tokenReviews, accessReviews int
	noTokenReviews              bool // the process may not create TokenReviews
}

func (rv *reviewer) client() *fake.Clientset {
	client := fake.NewClientset()
	client.PrependReactor("create", "tokenreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
		rv.tokenReviews++
		if rv.noTokenReviews {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "authentication.k8s.io", Resource: "tokenreviews"}, "",
				nil)
		}
		tr := a.(clienttesting.CreateAction).GetObject().(*authenticationv1.TokenReview)
		switch tr.Spec.Token {
		case "reader":
			tr.Status = authenticationv1.TokenReviewStatus{Authenticated: true, User: authenticationv1.UserInfo{Username: "system:serviceaccount:monitoring:prometheus", Groups: []string{"system:serviceaccounts"}}}
		case "nobody":
			tr.Status = authenticationv1.TokenReviewStatus{Authenticated: true, User: authenticationv1.UserInfo{Username: "nobody"}}
		}
		return true, tr, nil
	})
	client.PrependReactor("create", "subjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
		rv.accessReviews++
		sar := a.(clienttesting.CreateAction).GetObject().(*authorizationv1.SubjectAccessReview)
		attrs := sar.Spec.NonResourceAttributes
		sar.Status.Allowed = sar.Spec.User == "system:serviceaccount:monitoring:prometheus" &&
			attrs != nil && attrs.Verb == "get" && attrs.Path == "/metrics"
		return true, sar, nil
	})
	return client
}

func serve(h http.Handler, path, token string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestAuthorizer(t *testing.T) {
	rv := &reviewer{}
	a := NewAuthorizer(logr.Discard())
	var ready Readiness
	ready.Set(true)
	h := Handler(&ready, WithMetrics(), WithProfiling(), WithAuthorizer(a))

	assert.Equal(t, http.StatusServiceUnavailable, serve(h, "/metrics", "reader").Code, "no client yet")
	a.SetClient(rv.client())

	tests := []struct {
		name, path, token string
		want              int
	}{
		{"no token", "/metrics", "", http.StatusUnauthorized},
		{"unknown token", "/metrics", "forged", http.StatusUnauthorized},
		{"a user without rights", "/metrics", "nobody", http.StatusForbidden},
		{"a user with the right", "/metrics", "reader", http.StatusOK},
		{"profiles are another path", "/debug/pprof/", "reader", http.StatusForbidden},
		{"profiles without a token", "/debug/pprof/", "", http.StatusUnauthorized},
		{"healthz is open", "/healthz", "", http.StatusOK},
		{"livez is open", "/livez", "", http.StatusOK},
		{"readyz is open", "/readyz", "", http.StatusOK},
		{"readyz is open to a forged token", "/readyz", "forged", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := serve(h, tt.path, tt.token)
			assert.Equal(t, tt.want, rec.Code, rec.Body.String())
			if tt.want == http.StatusOK && tt.path == "/metrics" {
				assert.Contains(t, rec.Header().Get("Content-Type"), "text/plain")
			}
		})
	}
	t.Run("401 says how to authenticate", func(t *testing.T) {
		assert.Equal(t, `Bearer realm="work"`, serve(h, "/metrics", "").Header().Get("WWW-Authenticate"))
	})
}

// A scraper that comes back within DecisionTTL costs no review; after it,
// one of each again.
func TestAuthorizerKeepsDecisions(t *testing.T) {
	rv := &reviewer{}
	a := NewAuthorizer(logr.Discard())
	a.SetClient(rv.client())
	clock := testingclock.NewFakeClock(time.Unix(1_800_000_000, 0))
	a.decisions = cache.NewLRUExpireCacheWithClock(maxDecisions, clock)
	h := Handler(&Readiness{}, WithMetrics(), WithAuthorizer(a))

	for range 3 {
		require.Equal(t, http.StatusOK, serve(h, "/metrics", "reader").Code)
		require.Equal(t, http.StatusForbidden, serve(h, "/metrics", "nobody").Code)
	}
	assert.Equal(t, 2, rv.tokenReviews)
	assert.Equal(t, 2, rv.accessReviews)

	clock.Step(DecisionTTL + time.Nanosecond)
	require.Equal(t, http.StatusOK, serve(h, "/metrics", "reader").Code)
	assert.Equal(t, 3, rv.tokenReviews, "reviewed again once the decision expired")
}

// Under OCM's operators the work ServiceAccount may not create TokenReviews:
// every scrape gets 401, the probes answer, and the log says why once.
func TestAuthorizerWithoutTheRightToReviewTokens(t *testing.T) {
	rv := &reviewer{noTokenReviews: true}
	var log bytes.Buffer
	a := NewAuthorizer(textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(&log))))
	a.SetClient(rv.client())
	var ready Readiness
	ready.Set(true)
	h := Handler(&ready, WithMetrics(), WithAuthorizer(a))

	for range 3 {
		assert.Equal(t, http.StatusUnauthorized, serve(h, "/metrics", "reader").Code)
	}
	assert.Equal(t, 3, rv.tokenReviews, "a failed review is not kept")
	assert.Equal(t, http.StatusOK, serve(h, "/healthz", "").Code)
	assert.Equal(t, http.StatusOK, serve(h, "/readyz", "").Code)
	assert.Equal(t, 1, bytes.Count(log.Bytes(), []byte("may not create tokenreviews")), "said once: %s", log.String())
	assert.Contains(t, log.String(), "--metrics-auth=false")
}

// Without an authorizer, as with --metrics-auth=false, the metrics answer
// anyone; without WithMetrics there are none.
func TestHandlerWithoutAuthorizer(t *testing.T) {
	assert.Equal(t, http.StatusOK, serve(Handler(&Readiness{}, WithMetrics()), "/metrics", "").Code)
	assert.Equal(t, http.StatusNotFound, serve(Handler(&Readiness{}), "/metrics", "").Code)
	assert.Equal(t, http.StatusNotFound, serve(Handler(&Readiness{}), "/debug/pprof/", "").Code)
}
