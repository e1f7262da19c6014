package startup

import (
	"crypto/tls"
	"strings"

	"github.com/spf13/pflag"
	cliflag "k8s.io/component-base/cli/flag"
)

// TLSOptions are the TLS settings of the servers a process runs (its secure
// probe port, its webhook): OCM's --tls-min-version and --tls-cipher-suites.
type TLSOptions struct {
	MinVersion   string   // e.g. VersionTLS12
	CipherSuites []string // IANA names
}

// AddFlags registers --tls-min-version and --tls-cipher-suites.
func (o *TLSOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.MinVersion, "tls-min-version", o.MinVersion,
		"Lowest TLS version the servers accept: "+strings.Join(cliflag.TLSPossibleVersions(), ", ")+". Empty means VersionTLS12.")
	fs.StringSliceVar(&o.CipherSuites, "tls-cipher-suites", o.CipherSuites,
		"Comma-separated cipher suites the servers offer up to TLS 1.2 (TLS 1.3 suites are not configurable), "+
			"e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256. Empty means Go's defaults.")
}

// Validate reports an unknown version or cipher suite, on one line.
func (o *TLSOptions) Validate() error {
	_, err := o.Config()
	return err
}

// Config is a server TLS configuration with these settings; the caller adds
// the certificate.
func (o *TLSOptions) Config() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	var p Problems
	if o.MinVersion != "" {
		v, err := cliflag.TLSVersion(o.MinVersion)
		if err != nil {
			p.Addf("--tls-min-version %q is not one of %s", o.MinVersion, strings.Join(cliflag.TLSPossibleVersions(), ", "))
		}
		cfg.MinVersion = v
	}
	for _, name := range o.CipherSuites {
		suite, err := cliflag.TLSCipherSuites([]string{name})
		if err != nil {
			p.Addf("--tls-cipher-suites: unknown cipher suite %q", name)
			continue
		}
		cfg.CipherSuites = append(cfg.CipherSuites, suite...)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return cfg, nil
}
