package startup

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	certutil "k8s.io/client-go/util/cert"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/filewatch"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/metrics"
)

// EventCredentialExpiring is the reason of the Warning a process records on
// its pod when a credential it holds comes close to its expiry.
const EventCredentialExpiring = "CredentialExpiring"

// ExpiryWarning is how long before a credential expires the process warns,
// at the latest; see warnAt.
const ExpiryWarning = 30 * 24 * time.Hour

// Credential is a credential a process holds: a client or serving
// certificate, or a bearer token, whose expiry it exports and warns about.
type Credential struct {
	// Name is the value of the credential label, e.g. "hub-token".
	Name string
	// Files are the files it is read from, followed as they change; none
	// for a credential given inline.
	Files []string
	// Validity reads the credential: when it was issued and when it expires.
	// ok is false for a credential without an expiry (a token that is not a
	// JWT, a kubeconfig without a client certificate).
	Validity func() (v Validity, ok bool, err error)
}

// Validity is when a credential was issued and when it expires.
type Validity struct {
	NotBefore, NotAfter time.Time
}

// warnAt is when to warn about a credential: ExpiryWarning before it
// expires, or, for a credential that lives less than ten times that (such
// as a ServiceAccount token of an hour, or a certificate of a month, which
// their issuers renew long before), when a tenth of its life is left, so
// that what is renewed as it should be never warns.
func (v Validity) warnAt() time.Time {
	ahead := ExpiryWarning
	if life := v.NotAfter.Sub(v.NotBefore); v.NotBefore.Before(v.NotAfter) && life/10 < ahead {
		ahead = life / 10
	}
	return v.NotAfter.Add(-ahead)
}

// CertificateCredential is the first certificate of a PEM file, or of data
// when file is empty. Without either there is none.
func CertificateCredential(name, file string, data []byte) []Credential {
	if file == "" && len(data) == 0 {
		return nil
	}
	return []Credential{{Name: name, Files: nonEmpty(file), Validity: func() (Validity, bool, error) {
		return certificateValidity(file, data)
	}}}
}

// TokenCredential is a bearer token read from file, or token when file is
// empty: a JWT's iat and exp claims (read, not verified); another token has
// no known expiry. Without either there is none.
func TokenCredential(name, file, token string) []Credential {
	if file == "" && token == "" {
		return nil
	}
	return []Credential{{Name: name, Files: nonEmpty(file), Validity: func() (Validity, bool, error) {
		if file == "" {
			return tokenValidity(token)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return Validity{}, false, err
		}
		return tokenValidity(string(data))
	}}}
}

// KubeconfigCredentials are the client certificate (<prefix>-kubeconfig-client-cert)
// and the bearer token (<prefix>-token) of a kubeconfig's current context,
// loaded as the process loads it (kubeconn.Cluster.Load), again whenever
// the kubeconfig or a file it names changes.
func KubeconfigCredentials(prefix, kubeconfig string) []Credential {
	if kubeconfig == "" {
		return nil
	}
	load := kubeconn.Cluster{Role: prefix, Kubeconfig: kubeconfig}.Load
	// The files it names now; a kubeconfig that later names others is
	// still followed through its own file.
	files := []string{kubeconfig}
	if cfg, err := load(); err == nil {
		files = append(files, nonEmpty(cfg.CertFile)...)
		files = append(files, nonEmpty(cfg.BearerTokenFile)...)
	}
	read := func(pick func(cfg *rest.Config) (Validity, bool, error)) func() (Validity, bool, error) {
		return func() (Validity, bool, error) {
			cfg, err := load()
			if err != nil {
				return Validity{}, false, err
			}
			return pick(cfg)
		}
	}
	return []Credential{
		{Name: prefix + "-kubeconfig-client-cert", Files: files, Validity: read(func(cfg *rest.Config) (Validity, bool, error) {
			return certificateValidity(cfg.CertFile, cfg.CertData)
		})},
		{Name: prefix + "-token", Files: files, Validity: read(func(cfg *rest.Config) (Validity, bool, error) {
			return tokenValidity(cfg.BearerToken) // client-go has read the token file
		})},
	}
}

// certificateValidity is that of the first certificate of file, or of data
// when file is empty; with neither, there is none.
func certificateValidity(file string, data []byte) (Validity, bool, error) {
	if file != "" {
		var err error
		if data, err = os.ReadFile(file); err != nil {
			return Validity{}, false, err
		}
	} else if len(data) == 0 {
		return Validity{}, false, nil
	}
	certs, err := certutil.ParseCertsPEM(data)
	if err != nil {
		return Validity{}, false, err
	}
	return Validity{NotBefore: certs[0].NotBefore, NotAfter: certs[0].NotAfter}, true, nil
}

// tokenValidity reads the iat (or nbf) and exp claims of a JWT without
// verifying it; a token that is not a JWT, or has no exp, has no known
// expiry.
func tokenValidity(token string) (Validity, bool, error) {
	parts := strings.Split(strings.TrimSpace(token), ".")
	if len(parts) != 3 {
		return Validity{}, false, nil
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return Validity{}, false, nil
	}
	var claims struct {
		Exp, Iat, Nbf float64
	}
	if json.Unmarshal(payload, &claims) != nil || claims.Exp == 0 {
		return Validity{}, false, nil
	}
	issued := claims.Iat
	if issued == 0 {
		issued = claims.Nbf
	}
	v := Validity{NotAfter: time.Unix(int64(claims.Exp), 0)}
	if issued != 0 {
		v.NotBefore = time.Unix(int64(issued), 0)
	}
	return v, true, nil
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// WatchCredentials exports the expiry of the credentials a process holds
// as work_credential_expiry_timestamp_seconds and warns, in the log and
// with an Event on the process's pod, once per credential and expiry: when
// it is first read close to its expiry, or when that time comes. It follows
// their files until ctx is done.
func (o *Options) WatchCredentials(ctx context.Context, creds ...Credential) {
	for _, c := range creds {
		w := &credentialWatch{Credential: c, events: o.events, logger: klog.FromContext(ctx).WithValues("credential", c.Name)}
		w.run(ctx)
	}
}

// credentialWatch follows one credential.
type credentialWatch struct {
	Credential
	events *podEvents
	logger klog.Logger
	warned time.Time // the expiry last warned about
}

// run checks the credential now, then in the background whenever its files
// change or its warning time comes, until ctx is done.
func (w *credentialWatch) run(ctx context.Context) {
	var changes <-chan []string
	if len(w.Files) > 0 {
		fw, err := filewatch.Watch(ctx, w.Files...)
		if err != nil {
			w.logger.Error(err, "Cannot follow the files of the credential; its expiry is read once")
		} else {
			changes = fw.Changes()
		}
	}
	warnTime := w.check()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-changes:
			case <-warnTime:
			}
			warnTime = w.check()
		}
	}()
}

// check reads the credential, sets its metric and warns if it is time; it
// returns what fires when it will be, or nil.
func (w *credentialWatch) check() <-chan time.Time {
	v, ok, err := w.Validity()
	if err != nil {
		w.logger.Info("Cannot read the credential's expiry", "err", err.Error())
		return nil // the metric keeps the last expiry read; a change of its files reads it again
	}
	if !ok {
		metrics.CredentialExpiry.DeleteLabelValues(w.Name)
		return nil
	}
	metrics.CredentialExpiry.WithLabelValues(w.Name).Set(float64(v.NotAfter.Unix()))
	now := time.Now()
	if warnAt := v.warnAt(); now.Before(warnAt) {
		return time.After(warnAt.Sub(now))
	}
	if !w.warned.Equal(v.NotAfter) {
		w.warned = v.NotAfter
		w.warn(v.NotAfter, now)
	}
	return nil
}

// warn says that the credential expires soon, or has.
func (w *credentialWatch) warn(notAfter, now time.Time) {
	left := notAfter.Sub(now).Round(time.Minute)
	msg := fmt.Sprintf("the credential %s expires at %s (in %s); renew it before then", w.Name, notAfter.UTC().Format(time.RFC3339), left)
	if !now.Before(notAfter) {
		msg = fmt.Sprintf("the credential %s expired at %s; renew it", w.Name, notAfter.UTC().Format(time.RFC3339))
	}
	w.logger.Info("Warning: " + msg)
	w.events.record(podEvent{corev1.EventTypeWarning, EventCredentialExpiring, msg})
}
