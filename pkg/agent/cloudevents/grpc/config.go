package grpc

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
)

// The keep-alive defaults of OCM's gRPC config file.
const (
	DefaultKeepAliveTime    = 30 * time.Second
	DefaultKeepAliveTimeout = 10 * time.Second
)

// Config is OCM's gRPC config file (--workload-source-config with
// --workload-source-driver=grpc), every key of it, resolved: files are read,
// defaults are filled in.
type Config struct {
	// Path is the file the config was loaded from; empty when built in code.
	Path string

	// URL is host:port of the server (url, required). Address() returns it
	// verbatim: the agent's AppliedManifestWorks are named after its hash.
	URL string

	// CAData is the PEM of the server's CA: caData (base64 in the file),
	// else the content of caFile. It is added to the system's pool.
	CAData []byte
	// CAFile is caFile as written.
	CAFile string

	// ClientCertData and ClientKeyData are the PEM of the client certificate
	// and key: clientCertData/clientKeyData (base64 in the file), else the
	// content of clientCertFile/clientKeyFile. Both or neither.
	ClientCertData []byte
	ClientKeyData  []byte
	// ClientCertFile and ClientKeyFile are as written. When the data came
	// from these files, each TLS handshake reads them again, and the
	// transport follows them: a renewed certificate drops the subscription,
	// which is made again with it.
	ClientCertFile string
	ClientKeyFile  string

	// Token is the bearer token sent with each call: token, else the
	// content of tokenFile without surrounding white space. It needs a CA.
	Token string
	// TokenFile is tokenFile as written.
	TokenFile string

	// KeepAlive is keepAliveConfig.
	KeepAlive KeepAliveConfig

	// ServerHealthinessTimeout is serverHealthinessTimeout (OCM v1.1 on):
	// once the server has sent a heartbeat, a subscription that gets no
	// heartbeat for this long is dropped and made again. Zero: never.
	ServerHealthinessTimeout time.Duration
}

// KeepAliveConfig is the config file's keepAliveConfig: gRPC keep-alive
// pings.
type KeepAliveConfig struct {
	// Enable turns the pings on (enable, default false).
	Enable bool
	// Time is how long without activity before a ping (time, default 30s;
	// gRPC raises anything below 10s to 10s).
	Time time.Duration
	// Timeout is how long to wait for a ping's answer before the connection
	// is closed (timeout, default 10s).
	Timeout time.Duration
	// PermitWithoutStream pings even without an open call
	// (permitWithoutStream, default false).
	PermitWithoutStream bool
}

// UseTLS tells whether the connection uses TLS: as in OCM, when a token or a
// client certificate is set; otherwise it is plain text, even with a CA.
func (c *Config) UseTLS() bool {
	return c.Token != "" || c.hasClientCert()
}

// ClearText says what travels unencrypted to the server, or "" with TLS:
// the works and their status. A CA alone does not turn TLS on (as in OCM's
// loader).
func (c *Config) ClearText() string {
	if c.UseTLS() {
		return ""
	}
	what := "the works and their status"
	if len(c.CAData) != 0 {
		what += " (a CA alone does not turn TLS on: it takes a token or a client certificate)"
	}
	return what
}

func (c *Config) hasClientCert() bool {
	return len(c.ClientCertData) > 0 || c.ClientCertFile != ""
}

// fileConfig is the file as written. Durations and base64 data stay raw, so
// that an error in them names its key.
type fileConfig struct {
	URL string `json:"url"`
	cloudevents.CertKeys
	Token     string `json:"token"`
	TokenFile string `json:"tokenFile"`

	KeepAliveConfig struct {
		Enable              bool            `json:"enable"`
		Time                json.RawMessage `json:"time"`
		Timeout             json.RawMessage `json:"timeout"`
		PermitWithoutStream bool            `json:"permitWithoutStream"`
	} `json:"keepAliveConfig"`

	ServerHealthinessTimeout json.RawMessage `json:"serverHealthinessTimeout"`
}

// Load reads OCM's gRPC config file at path: every key, the same defaults,
// and errors that name the file and the key at fault. Keys it does not know
// are ignored, as OCM ignores them.
func Load(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("gRPC config %s: %w", path, err)
	}
	c, err := parse(raw)
	if err != nil {
		return nil, fmt.Errorf("gRPC config %s: %w", path, err)
	}
	c.Path = path
	return c, nil
}

func parse(raw []byte) (*Config, error) {
	var f fileConfig
	if err := yaml.Unmarshal(raw, &f); err != nil {
		return nil, err
	}
	c := &Config{
		URL:            strings.TrimSpace(f.URL),
		CAFile:         f.CAFile,
		ClientCertFile: f.ClientCertFile,
		ClientKeyFile:  f.ClientKeyFile,
		TokenFile:      f.TokenFile,
		Token:          f.Token,
		KeepAlive: KeepAliveConfig{
			Enable:              f.KeepAliveConfig.Enable,
			PermitWithoutStream: f.KeepAliveConfig.PermitWithoutStream,
		},
	}
	var err error
	if c.KeepAlive.Time, err = duration(f.KeepAliveConfig.Time, "keepAliveConfig.time", DefaultKeepAliveTime); err != nil {
		return nil, err
	}
	if c.KeepAlive.Timeout, err = duration(f.KeepAliveConfig.Timeout, "keepAliveConfig.timeout", DefaultKeepAliveTimeout); err != nil {
		return nil, err
	}
	if c.ServerHealthinessTimeout, err = duration(f.ServerHealthinessTimeout, "serverHealthinessTimeout", 0); err != nil {
		return nil, err
	}
	// Data wins over its file, as in OCM.
	if c.CAData, _, err = cloudevents.DataOrFile("caData", f.CAData, "caFile", f.CAFile); err != nil {
		return nil, err
	}
	// The client certificate and key files are read when used.
	if c.ClientCertData, _, err = cloudevents.DataOrFile("clientCertData", f.ClientCertData, "", ""); err != nil {
		return nil, err
	}
	if c.ClientKeyData, _, err = cloudevents.DataOrFile("clientKeyData", f.ClientKeyData, "", ""); err != nil {
		return nil, err
	}
	if c.Token == "" && c.TokenFile != "" {
		b, err := os.ReadFile(c.TokenFile)
		if err != nil {
			return nil, fmt.Errorf("tokenFile: %w", err)
		}
		if c.Token = strings.TrimSpace(string(b)); c.Token == "" {
			return nil, fmt.Errorf("tokenFile: %s is empty", c.TokenFile)
		}
	}
	return c, c.Validate()
}

// duration reads a duration as OCM's YAML reads it: a string such as "30s",
// or a number of nanoseconds. def is the value when the key is absent.
func duration(raw json.RawMessage, key string, def time.Duration) (time.Duration, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return def, nil
	}
	var d time.Duration
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("%s: %q is not a duration such as 30s", key, s)
		}
	} else {
		var n int64
		if err := json.Unmarshal(raw, &n); err != nil {
			return 0, fmt.Errorf("%s: %s is not a duration such as 30s", key, raw)
		}
		d = time.Duration(n)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%s: %s is not positive", key, d)
	}
	return d, nil
}

// Validate checks c as Load checks a file: the URL, the client certificate
// and key (both or neither, and a matching pair), the CA, the token's CA and
// the keep-alive durations. Certificates in files are read once here.
func (c *Config) Validate() error {
	if c.URL == "" {
		return errors.New("url: required")
	}
	if len(c.CAData) > 0 {
		if !x509.NewCertPool().AppendCertsFromPEM(c.CAData) {
			return fmt.Errorf("%s: no PEM certificate in it", c.caKey())
		}
	}
	certSet := len(c.ClientCertData) > 0 || c.ClientCertFile != ""
	keySet := len(c.ClientKeyData) > 0 || c.ClientKeyFile != ""
	if certSet != keySet {
		return errors.New("clientCertFile/clientCertData and clientKeyFile/clientKeyData: set both or neither")
	}
	if certSet {
		if _, err := c.keyPair().Load(); err != nil {
			return err
		}
	}
	if c.Token != "" && len(c.CAData) == 0 {
		return errors.New("token/tokenFile: a token needs the server's CA in caFile or caData")
	}
	if c.KeepAlive.Enable && (c.KeepAlive.Time <= 0 || c.KeepAlive.Timeout <= 0) {
		return errors.New("keepAliveConfig: time and timeout must be positive")
	}
	if c.ServerHealthinessTimeout < 0 {
		return errors.New("serverHealthinessTimeout: must not be negative")
	}
	return nil
}

func (c *Config) caKey() string {
	if c.CAFile != "" {
		return "caFile/caData"
	}
	return "caData"
}

// keyPair is where the client certificate and key are: the data when set,
// else the files, read when used.
func (c *Config) keyPair() cloudevents.KeyPair {
	return cloudevents.KeyPair{CertPEM: c.ClientCertData, KeyPEM: c.ClientKeyData, CertFile: c.ClientCertFile, KeyFile: c.ClientKeyFile}
}

// tlsConfig is the client's TLS config, as OCM builds it: the system's
// roots plus the CA, TLS 1.3, and the client certificate when set, with the
// reloader of a certificate read from files (nil otherwise).
func (c *Config) tlsConfig() (*tls.Config, *cloudevents.CertReloader, error) {
	return cloudevents.TLSConfig(c.CAData, c.caKey(), c.keyPair())
}
