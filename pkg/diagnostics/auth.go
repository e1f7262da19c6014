package diagnostics

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/cache"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// DecisionTTL is how long the Authorizer keeps a decision about a token and
// a path, so that a Prometheus scraping every few seconds costs the API
// server one TokenReview and one SubjectAccessReview per interval at most.
const DecisionTTL = 10 * time.Second

// maxDecisions bounds the decisions kept; past it, the least recently used
// go first.
const maxDecisions = 1024

// Authorizer lets a request through when the cluster's API server
// authenticates its bearer token (a TokenReview) and allows the token's user
// to do the request's verb on its path (a SubjectAccessReview of a
// non-resource URL, e.g. get /metrics): the delegated authentication and
// authorization of OCM's processes. It answers 401 without a token, with a
// token the API server does not accept, or when the review cannot be made
// (the process may not create TokenReviews: said once in the log), 403 when
// the user may not, and 503 until it has a client (SetClient). Decisions are
// kept for DecisionTTL, keyed by a digest of the token, never the token.
type Authorizer struct {
	logger    klog.Logger
	decisions *cache.LRUExpireCache // http.StatusOK, StatusUnauthorized or StatusForbidden, by digest of verb, path and token
	noRights  sync.Once             // says that the process may not review tokens

	mu     sync.Mutex
	client kubernetes.Interface
}

// NewAuthorizer returns an Authorizer without a client: it answers 503
// until SetClient.
func NewAuthorizer(logger klog.Logger) *Authorizer {
	return &Authorizer{logger: logger, decisions: cache.NewLRUExpireCache(maxDecisions)}
}

// SetClient sets the client of the cluster that reviews the tokens.
func (a *Authorizer) SetClient(client kubernetes.Interface) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.client = client
}

// Wrap returns next behind the Authorizer.
func (a *Authorizer) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status, reason := a.authorize(r)
		if status != http.StatusOK {
			if status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="work"`)
			}
			http.Error(w, reason, status)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorize decides about r: http.StatusOK to let it through, or the status
// to answer and why.
func (a *Authorizer) authorize(r *http.Request) (int, string) {
	token, ok := bearerToken(r)
	if !ok {
		return http.StatusUnauthorized, "Unauthorized: a bearer token is required"
	}
	verb, path := requestVerb(r.Method), r.URL.Path
	key := sha256.Sum256([]byte(verb + "\x00" + path + "\x00" + token))
	if status, ok := a.decisions.Get(key); ok {
		return status.(int), http.StatusText(status.(int))
	}
	a.mu.Lock()
	client := a.client
	a.mu.Unlock()
	if client == nil {
		return http.StatusServiceUnavailable, "not ready to review tokens yet"
	}
	status, reason, final := a.review(r.Context(), client, token, verb, path)
	if final {
		a.decisions.Add(key, status, DecisionTTL)
	}
	return status, reason
}

// review asks the API server; final is false for an answer that came from
// an error, which is not kept.
func (a *Authorizer) review(ctx context.Context, client kubernetes.Interface, token, verb, path string) (status int, reason string, final bool) {
	tr, err := client.AuthenticationV1().TokenReviews().Create(ctx,
		&authenticationv1.TokenReview{Spec: authenticationv1.TokenReviewSpec{Token: token}}, metav1.CreateOptions{})
	if err != nil {
		if apierrors.IsForbidden(err) {
			a.logNoRights(err)
		}
		return http.StatusUnauthorized, "Unauthorized: the token could not be reviewed", false
	}
	if !tr.Status.Authenticated {
		return http.StatusUnauthorized, "Unauthorized", true
	}
	user := tr.Status.User
	extra := map[string]authorizationv1.ExtraValue{}
	for k, v := range user.Extra {
		extra[k] = authorizationv1.ExtraValue(v)
	}
	sar, err := client.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{
		Spec: authorizationv1.SubjectAccessReviewSpec{
			User: user.Username, UID: user.UID, Groups: user.Groups, Extra: extra,
			NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: path, Verb: verb},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		if apierrors.IsForbidden(err) {
			a.logNoRights(err)
		}
		return http.StatusInternalServerError, "the access could not be reviewed", false
	}
	if !sar.Status.Allowed {
		return http.StatusForbidden, fmt.Sprintf("Forbidden: %q may not %s %s", user.Username, verb, path), true
	}
	return http.StatusOK, "", true
}

// logNoRights says once why nobody can read what the Authorizer guards.
func (a *Authorizer) logNoRights(err error) {
	a.noRights.Do(func() {
		a.logger.Info("Warning: the process may not create tokenreviews (authentication.k8s.io) and subjectaccessreviews (authorization.k8s.io), "+
			"so every request for /metrics on the secure port gets 401; the probes are not affected. "+
			"Grant these rights to its service account, or serve the metrics without authentication with --metrics-auth=false",
			"err", err.Error())
	})
}

// bearerToken is the token of the request's "Authorization: Bearer" header.
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// requestVerb is the verb of a non-resource request, as the API server
// names it.
func requestVerb(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead:
		return "get"
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	default:
		return strings.ToLower(method)
	}
}
