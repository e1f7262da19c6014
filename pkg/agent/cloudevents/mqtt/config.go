// Package mqtt is the agent's MQTT transport: it reads OCM's MQTT config
// file, resolves the topics of one agent, and carries CloudEvents between
// the agent and a broker with MQTT 5 and the CloudEvents MQTT binding
// (docs/contributors/cloudevents.md, section MQTT).
package mqtt

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"regexp"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
)

// The defaults OCM's agent applies to a key the file leaves out.
const (
	DefaultKeepAlive   = 60 // seconds
	DefaultDialTimeout = 60 * time.Second
	DefaultQoS         = 1
)

// Topics are the four topics of the config file, as written there.
type Topics struct {
	SourceEvents    string `json:"sourceEvents"`
	AgentEvents     string `json:"agentEvents"`
	SourceBroadcast string `json:"sourceBroadcast,omitempty"`
	AgentBroadcast  string `json:"agentBroadcast,omitempty"`
}

// Config is OCM's MQTT config file (--workload-source-config with
// --workload-source-driver=mqtt), loaded, defaulted and checked.
type Config struct {
	// BrokerHost is host:port of the broker, verbatim: the agent's
	// AppliedManifestWorks are named after its hash.
	BrokerHost string
	Username   string
	Password   string
	// KeepAlive is the MQTT keep-alive in seconds; 0 turns it off.
	KeepAlive   uint16
	DialTimeout time.Duration
	PubQoS      byte
	SubQoS      byte
	Topics      Topics

	// CAData is the PEM of the broker's CA: caData decoded, or caFile's
	// content. It is used only with a client certificate, as OCM does.
	CAData []byte
	// ClientCertData and ClientKeyData are the PEM of the client
	// certificate and key, from *Data or read from *File.
	ClientCertData []byte
	ClientKeyData  []byte
	// ClientCertFile and ClientKeyFile are kept when the certificate came
	// from files (and not from *Data): each new connection reads them
	// again, and the transport follows them to reconnect with a renewed
	// certificate, as OCM's agent does.
	ClientCertFile string
	ClientKeyFile  string

	// Path is the file the config was loaded from, for messages.
	Path string

	caFromFile bool
}

// TLS reports whether connections use TLS: only with a client certificate
// and key, as OCM's agent decides. A CA alone leaves plain TCP.
func (c *Config) TLS() bool {
	return len(c.ClientCertData) != 0 && len(c.ClientKeyData) != 0
}

// ClearText says what travels unencrypted to the broker, or "" with TLS:
// the works and their status and, when the config has them, the username
// and password. A CA alone does not turn TLS on (as in OCM's loader).
func (c *Config) ClearText() string {
	if c.TLS() {
		return ""
	}
	what := "the works and their status"
	if c.Username != "" || c.Password != "" {
		what = "the username and password, " + what
	}
	if len(c.CAData) != 0 {
		what += " (a CA alone does not turn TLS on: it takes a client certificate and key)"
	}
	return what
}

// TLSConfig builds the TLS configuration of a connection, or nil without
// TLS. It trusts the system's roots plus the configured CA, speaks TLS 1.3
// only (as OCM does), and reads the client certificate again at each
// handshake when it came from files.
func (c *Config) TLSConfig() (*tls.Config, error) {
	cfg, _, err := c.tlsConfig()
	if err != nil {
		return nil, c.errorf("%w", err)
	}
	return cfg, nil
}

// tlsConfig is TLSConfig, with the reloader of a client certificate that
// came from files (nil otherwise), and errors that name the key only.
func (c *Config) tlsConfig() (*tls.Config, *cloudevents.CertReloader, error) {
	if !c.TLS() {
		return nil, nil, nil
	}
	return cloudevents.TLSConfig(c.CAData, c.caKey(), c.keyPair())
}

// keyPair is where the client certificate and key are: each file they came
// from, read again, or their data.
func (c *Config) keyPair() cloudevents.KeyPair {
	p := cloudevents.KeyPair{CertFile: c.ClientCertFile, KeyFile: c.ClientKeyFile}
	if p.CertFile == "" {
		p.CertPEM = c.ClientCertData
	}
	if p.KeyFile == "" {
		p.KeyPEM = c.ClientKeyData
	}
	return p
}

// errorf is an error about the config, prefixed with its file when it
// came from one.
func (c *Config) errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	if c.Path == "" {
		return fmt.Errorf("MQTT config: %w", err)
	}
	return fmt.Errorf("%s: %w", c.Path, err)
}

func (c *Config) caKey() string {
	if c.caFromFile {
		return "caFile"
	}
	return "caData"
}

func (c *Config) certKey() string {
	if c.ClientCertFile != "" {
		return "clientCertFile"
	}
	return "clientCertData"
}

func (c *Config) keyKey() string {
	if c.ClientKeyFile != "" {
		return "clientKeyFile"
	}
	return "clientKeyData"
}

// file is the config file as written: every key of OCM's MQTTConfig.
type file struct {
	BrokerHost  string          `json:"brokerHost"`
	Username    string          `json:"username"`
	Password    string          `json:"password"`
	KeepAlive   json.RawMessage `json:"keepAlive"`
	DialTimeout json.RawMessage `json:"dialTimeout"`
	PubQoS      json.RawMessage `json:"pubQoS"`
	SubQoS      json.RawMessage `json:"subQoS"`
	cloudevents.CertKeys
	Topics *Topics `json:"topics"`
}

// Load reads an MQTT config file (YAML or JSON), applies OCM's defaults and
// checks it. Every error names the file and the key at fault. Keys the
// file has beyond OCM's are ignored, as OCM's agent ignores them.
func Load(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("MQTT config: %w", err)
	}
	var f file
	if err := yaml.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := &Config{Path: path}
	if err := c.fill(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// fill copies f into c with the defaults and checks every key; errors name
// the key, the caller adds the file.
func (c *Config) fill(f *file) error {
	if f.BrokerHost == "" {
		return fmt.Errorf("brokerHost: required")
	}
	if _, _, err := net.SplitHostPort(f.BrokerHost); err != nil {
		return fmt.Errorf("brokerHost: %q is not host:port: %w", f.BrokerHost, err)
	}
	c.BrokerHost = f.BrokerHost
	c.Username, c.Password = f.Username, f.Password

	keepAlive, err := wholeNumber("keepAlive", f.KeepAlive, DefaultKeepAlive)
	if err != nil {
		return err
	}
	if keepAlive < 0 || keepAlive > 65535 {
		return fmt.Errorf("keepAlive: %d is not a number of seconds from 0 to 65535", keepAlive)
	}
	c.KeepAlive = uint16(keepAlive)

	c.DialTimeout = DefaultDialTimeout
	if isSet(f.DialTimeout) {
		d, err := parseDuration(f.DialTimeout)
		if err != nil {
			return fmt.Errorf("dialTimeout: %w", err)
		}
		c.DialTimeout = d
	}

	if c.PubQoS, err = qos("pubQoS", f.PubQoS); err != nil {
		return err
	}
	if c.SubQoS, err = qos("subQoS", f.SubQoS); err != nil {
		return err
	}

	if err := c.fillCerts(f); err != nil {
		return err
	}
	if f.Topics == nil {
		return fmt.Errorf("topics: required")
	}
	if err := f.Topics.validate(); err != nil {
		return err
	}
	c.Topics = *f.Topics
	return nil
}

// parseDuration reads dialTimeout: a Go duration as a string ("10s").
// A bare number is refused: OCM's YAML library would read it as
// nanoseconds, which no one means.
func parseDuration(raw json.RawMessage) (time.Duration, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("%s is not a Go duration such as \"10s\"", raw)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a Go duration such as \"10s\"", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q: must be positive", s)
	}
	return d, nil
}

func qos(key string, raw json.RawMessage) (byte, error) {
	v, err := wholeNumber(key, raw, DefaultQoS)
	if err != nil {
		return 0, err
	}
	if v < 0 || v > 2 {
		return 0, fmt.Errorf("%s: %d is not a QoS (0, 1 or 2)", key, v)
	}
	return byte(v), nil
}

// wholeNumber reads the number of key, or def when the file leaves it out.
func wholeNumber(key string, raw json.RawMessage, def int64) (int64, error) {
	if !isSet(raw) {
		return def, nil
	}
	var v int64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, fmt.Errorf("%s: %s is not a whole number", key, raw)
	}
	return v, nil
}

// isSet tells whether the file gives a key a value (null counts as none).
func isSet(raw json.RawMessage) bool {
	return len(raw) != 0 && string(raw) != "null"
}

// fillCerts resolves the CA and the client certificate and key the way
// OCM does: *Data (base64 of the PEM) wins over *File, and the certificate
// and the key go together.
func (c *Config) fillCerts(f *file) error {
	var err error
	if c.CAData, c.caFromFile, err = pemFrom("caData", f.CAData, "caFile", f.CAFile); err != nil {
		return err
	}
	var certFromFile, keyFromFile bool
	if c.ClientCertData, certFromFile, err = pemFrom("clientCertData", f.ClientCertData, "clientCertFile", f.ClientCertFile); err != nil {
		return err
	}
	if c.ClientKeyData, keyFromFile, err = pemFrom("clientKeyData", f.ClientKeyData, "clientKeyFile", f.ClientKeyFile); err != nil {
		return err
	}
	if certFromFile {
		c.ClientCertFile = f.ClientCertFile
	}
	if keyFromFile {
		c.ClientKeyFile = f.ClientKeyFile
	}
	switch {
	case len(c.ClientCertData) != 0 && len(c.ClientKeyData) == 0:
		return fmt.Errorf("clientKeyFile or clientKeyData: required with %s", c.certKey())
	case len(c.ClientCertData) == 0 && len(c.ClientKeyData) != 0:
		return fmt.Errorf("clientCertFile or clientCertData: required with %s", c.keyKey())
	}
	if c.TLS() {
		// Check now what each connection will need, so that a bad file
		// stops the start rather than every connection.
		if _, _, err := c.tlsConfig(); err != nil {
			return err
		}
	}
	return nil
}

// pemFrom is cloudevents.DataOrFile, and refuses data that is empty once
// decoded.
func pemFrom(dataKey, data, fileKey, path string) (pem []byte, fromFile bool, err error) {
	pem, fromFile, err = cloudevents.DataOrFile(dataKey, data, fileKey, path)
	if err == nil && data != "" && len(bytes.TrimSpace(pem)) == 0 {
		return nil, false, fmt.Errorf("%s: empty once decoded", dataKey)
	}
	return pem, fromFile, err
}

// The topic patterns of OCM's config file: fixed words are lowercase
// letters, a source id or a cluster name is lowercase letters, digits and
// dashes or a single-level wildcard, and any topic may be a shared
// subscription ($share/<group>/...).
const (
	sharePrefix   = `^(\$share/[a-z0-9-]+/)?`
	idOrWildcard  = `([a-z0-9-]+|\+)`
	patternEvents = sharePrefix + `[a-z]+/` + idOrWildcard + `/[a-z]+/` + idOrWildcard + `/`
)

var (
	sourceEventsPattern    = regexp.MustCompile(patternEvents + `sourceevents$`)
	agentEventsPattern     = regexp.MustCompile(patternEvents + `agentevents$`)
	sourceBroadcastPattern = regexp.MustCompile(sharePrefix + `[a-z]+/` + idOrWildcard + `/sourcebroadcast$`)
	agentBroadcastPattern  = regexp.MustCompile(sharePrefix + `[a-z]+/` + idOrWildcard + `/agentbroadcast$`)
)

func (t *Topics) validate() error {
	if t.SourceEvents == "" {
		return fmt.Errorf("topics.sourceEvents: required")
	}
	if !sourceEventsPattern.MatchString(t.SourceEvents) {
		return fmt.Errorf("topics.sourceEvents: %q does not match %s", t.SourceEvents, sourceEventsPattern)
	}
	if t.AgentEvents == "" {
		return fmt.Errorf("topics.agentEvents: required")
	}
	m := agentEventsPattern.FindStringSubmatch(t.AgentEvents)
	if m == nil {
		return fmt.Errorf("topics.agentEvents: %q does not match %s", t.AgentEvents, agentEventsPattern)
	}
	if m[2] == "+" {
		return fmt.Errorf("topics.agentEvents: %q must name its source: the agent publishes to it, and MQTT forbids a wildcard in a published topic", t.AgentEvents)
	}
	if t.SourceBroadcast != "" && !sourceBroadcastPattern.MatchString(t.SourceBroadcast) {
		return fmt.Errorf("topics.sourceBroadcast: %q does not match %s", t.SourceBroadcast, sourceBroadcastPattern)
	}
	if t.AgentBroadcast != "" && !agentBroadcastPattern.MatchString(t.AgentBroadcast) {
		return fmt.Errorf("topics.agentBroadcast: %q does not match %s", t.AgentBroadcast, agentBroadcastPattern)
	}
	return nil
}
