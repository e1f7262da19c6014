package mqtt

import (
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/test/cloudevents/cetest"
)

const topicsYAML = `
topics:
  sourceEvents: sources/maestro/consumers/+/sourceevents
  agentEvents: sources/maestro/consumers/+/agentevents
`

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	ca := cetest.NewCA(t)
	certPEM, keyPEM := ca.Issue(t, "agent", x509.ExtKeyUsageClientAuth)
	caFile := cetest.WriteFile(t, dir, "ca.crt", ca.PEM)
	certFile := cetest.WriteFile(t, dir, "tls.crt", certPEM)
	keyFile := cetest.WriteFile(t, dir, "tls.key", keyPEM)
	notPEM := cetest.WriteFile(t, dir, "garbage", []byte("not a PEM"))
	missing := filepath.Join(dir, "missing")
	b64 := base64.StdEncoding.EncodeToString
	// The placeholders the cases use in their files.
	expand := strings.NewReplacer(
		"$CAFILE", caFile, "$CERTFILE", certFile, "$KEYFILE", keyFile, "$NOTPEM", notPEM, "$MISSING", missing,
		"$CADATA", b64(ca.PEM), "$CERTDATA", b64(certPEM), "$KEYDATA", b64(keyPEM), "$GARBAGE64", b64([]byte("garbage")),
	)
	defaults := Topics{
		SourceEvents: "sources/maestro/consumers/+/sourceevents",
		AgentEvents:  "sources/maestro/consumers/+/agentevents",
	}

	cases := []struct {
		name string
		file string
		// want is checked field by field where set; Path is filled in.
		want    *Config
		wantTLS bool
		// wantErr lists what the error must name beside the file.
		wantErr []string
	}{
		{
			name: "the defaults",
			file: "brokerHost: broker:1883\n" + topicsYAML,
			want: &Config{
				BrokerHost: "broker:1883", KeepAlive: 60, DialTimeout: 60 * time.Second,
				PubQoS: 1, SubQoS: 1, Topics: defaults,
			},
		},
		{
			name: "every key in YAML, certificates from files",
			file: `brokerHost: broker.example.com:8883
username: cluster1
password: s3cret
keepAlive: 30
dialTimeout: 10s
pubQoS: 0
subQoS: 2
caFile: $CAFILE
clientCertFile: $CERTFILE
clientKeyFile: $KEYFILE
topics:
  sourceEvents: sources/maestro/consumers/+/sourceevents
  agentEvents: sources/maestro/consumers/+/agentevents
  sourceBroadcast: sources/+/sourcebroadcast
  agentBroadcast: clusters/+/agentbroadcast
`,
			want: &Config{
				BrokerHost: "broker.example.com:8883", Username: "cluster1", Password: "s3cret",
				KeepAlive: 30, DialTimeout: 10 * time.Second, PubQoS: 0, SubQoS: 2,
				Topics: Topics{
					SourceEvents: defaults.SourceEvents, AgentEvents: defaults.AgentEvents,
					SourceBroadcast: "sources/+/sourcebroadcast", AgentBroadcast: "clusters/+/agentbroadcast",
				},
				CAData: ca.PEM, ClientCertData: certPEM, ClientKeyData: keyPEM,
				ClientCertFile: certFile, ClientKeyFile: keyFile, caFromFile: true,
			},
			wantTLS: true,
		},
		{
			name: "JSON, certificates as data",
			file: `{"brokerHost": "10.0.0.1:1883", "keepAlive": 0, "dialTimeout": "1m30s",
"caData": "$CADATA", "clientCertData": "$CERTDATA", "clientKeyData": "$KEYDATA",
"topics": {"sourceEvents": "sources/maestro/consumers/+/sourceevents", "agentEvents": "sources/maestro/consumers/+/agentevents"}}`,
			want: &Config{
				BrokerHost: "10.0.0.1:1883", KeepAlive: 0, DialTimeout: 90 * time.Second, PubQoS: 1, SubQoS: 1,
				Topics: defaults, CAData: ca.PEM, ClientCertData: certPEM, ClientKeyData: keyPEM,
			},
			wantTLS: true,
		},
		{
			name: "data wins over a file, even a missing one",
			file: "brokerHost: broker:1883\ncaData: $CADATA\ncaFile: $MISSING\nclientCertData: $CERTDATA\nclientCertFile: $MISSING\n" +
				"clientKeyData: $KEYDATA\nclientKeyFile: $MISSING\n" + topicsYAML,
			want: &Config{
				BrokerHost: "broker:1883", KeepAlive: 60, DialTimeout: 60 * time.Second, PubQoS: 1, SubQoS: 1,
				Topics: defaults, CAData: ca.PEM, ClientCertData: certPEM, ClientKeyData: keyPEM,
			},
			wantTLS: true,
		},
		{
			name: "a CA alone is no TLS, and is not read as PEM",
			file: "brokerHost: broker:1883\ncaFile: $NOTPEM\n" + topicsYAML,
			want: &Config{
				BrokerHost: "broker:1883", KeepAlive: 60, DialTimeout: 60 * time.Second, PubQoS: 1, SubQoS: 1,
				Topics: defaults, CAData: []byte("not a PEM"), caFromFile: true,
			},
		},
		{
			name: "shared subscriptions and keys OCM does not know",
			file: `brokerHost: broker:1883
somethingElse: ignored
topics:
  sourceEvents: $share/agents/sources/+/consumers/+/sourceevents
  agentEvents: sources/maestro/consumers/+/agentevents
  sourceBroadcast: $share/agents/sources/+/sourcebroadcast
  agentBroadcast: $share/sources/clusters/+/agentbroadcast
`,
			want: &Config{
				BrokerHost: "broker:1883", KeepAlive: 60, DialTimeout: 60 * time.Second, PubQoS: 1, SubQoS: 1,
				Topics: Topics{
					SourceEvents: "$share/agents/sources/+/consumers/+/sourceevents", AgentEvents: defaults.AgentEvents,
					SourceBroadcast: "$share/agents/sources/+/sourcebroadcast", AgentBroadcast: "$share/sources/clusters/+/agentbroadcast",
				},
			},
		},

		{name: "not YAML", file: "brokerHost: [", wantErr: []string{"yaml"}},
		{name: "brokerHost missing", file: topicsYAML, wantErr: []string{"brokerHost", "required"}},
		{name: "brokerHost without port", file: "brokerHost: broker\n" + topicsYAML, wantErr: []string{"brokerHost", "host:port"}},
		{name: "keepAlive negative", file: "brokerHost: b:1\nkeepAlive: -1\n" + topicsYAML, wantErr: []string{"keepAlive", "-1"}},
		{name: "keepAlive too large", file: "brokerHost: b:1\nkeepAlive: 65536\n" + topicsYAML, wantErr: []string{"keepAlive", "65536"}},
		{name: "keepAlive not a number", file: "brokerHost: b:1\nkeepAlive: soon\n" + topicsYAML, wantErr: []string{"keepAlive", "soon", "not a whole number"}},
		{name: "keepAlive a fraction", file: "brokerHost: b:1\nkeepAlive: 1.5\n" + topicsYAML, wantErr: []string{"keepAlive", "1.5"}},
		{name: "pubQoS not a number", file: "brokerHost: b:1\npubQoS: once\n" + topicsYAML, wantErr: []string{"pubQoS", "once"}},
		{name: "dialTimeout not a duration", file: "brokerHost: b:1\ndialTimeout: soon\n" + topicsYAML, wantErr: []string{"dialTimeout", "soon"}},
		{name: "dialTimeout a bare number", file: "brokerHost: b:1\ndialTimeout: 10\n" + topicsYAML, wantErr: []string{"dialTimeout", "10s"}},
		{name: "dialTimeout not positive", file: "brokerHost: b:1\ndialTimeout: 0s\n" + topicsYAML, wantErr: []string{"dialTimeout", "positive"}},
		{name: "pubQoS 3", file: "brokerHost: b:1\npubQoS: 3\n" + topicsYAML, wantErr: []string{"pubQoS", "3"}},
		{name: "subQoS -1", file: "brokerHost: b:1\nsubQoS: -1\n" + topicsYAML, wantErr: []string{"subQoS", "-1"}},
		{name: "caData not base64", file: "brokerHost: b:1\ncaData: '%%%'\n" + topicsYAML, wantErr: []string{"caData", "base64"}},
		{name: "caFile missing", file: "brokerHost: b:1\ncaFile: $MISSING\n" + topicsYAML, wantErr: []string{"caFile", missing}},
		{name: "clientCertFile missing", file: "brokerHost: b:1\nclientCertFile: $MISSING\nclientKeyFile: $KEYFILE\n" + topicsYAML, wantErr: []string{"clientCertFile", missing}},
		{name: "clientKeyFile missing", file: "brokerHost: b:1\nclientCertFile: $CERTFILE\nclientKeyFile: $MISSING\n" + topicsYAML, wantErr: []string{"clientKeyFile", missing}},
		{name: "certificate without key", file: "brokerHost: b:1\nclientCertFile: $CERTFILE\n" + topicsYAML, wantErr: []string{"clientKeyFile or clientKeyData", "clientCertFile"}},
		{name: "key without certificate", file: "brokerHost: b:1\nclientKeyData: $KEYDATA\n" + topicsYAML, wantErr: []string{"clientCertFile or clientCertData", "clientKeyData"}},
		{name: "certificate not PEM", file: "brokerHost: b:1\nclientCertData: $GARBAGE64\nclientKeyFile: $KEYFILE\n" + topicsYAML, wantErr: []string{"clientCertData and clientKeyFile"}},
		{name: "key of another certificate", file: "brokerHost: b:1\nclientCertFile: $CERTFILE\nclientKeyData: $CADATA\n" + topicsYAML, wantErr: []string{"clientCertFile and clientKeyData"}},
		{name: "CA not PEM with TLS", file: "brokerHost: b:1\ncaFile: $NOTPEM\nclientCertFile: $CERTFILE\nclientKeyFile: $KEYFILE\n" + topicsYAML, wantErr: []string{"caFile", "no PEM certificate"}},
		{name: "topics missing", file: "brokerHost: b:1\n", wantErr: []string{"topics", "required"}},
		{name: "sourceEvents missing", file: "brokerHost: b:1\ntopics:\n  agentEvents: sources/maestro/consumers/+/agentevents\n", wantErr: []string{"topics.sourceEvents", "required"}},
		{name: "agentEvents missing", file: "brokerHost: b:1\ntopics:\n  sourceEvents: sources/maestro/consumers/+/sourceevents\n", wantErr: []string{"topics.agentEvents", "required"}},
		{
			name:    "sourceEvents of the wrong kind",
			file:    "brokerHost: b:1\ntopics:\n  sourceEvents: sources/maestro/consumers/+/agentevents\n  agentEvents: sources/maestro/consumers/+/agentevents\n",
			wantErr: []string{"topics.sourceEvents", "does not match"},
		},
		{
			name:    "sourceEvents with an uppercase source",
			file:    "brokerHost: b:1\ntopics:\n  sourceEvents: sources/Maestro/consumers/+/sourceevents\n  agentEvents: sources/maestro/consumers/+/agentevents\n",
			wantErr: []string{"topics.sourceEvents", "does not match"},
		},
		{
			name:    "agentEvents with a multi-level wildcard",
			file:    "brokerHost: b:1\ntopics:\n  sourceEvents: sources/maestro/consumers/+/sourceevents\n  agentEvents: sources/maestro/consumers/#\n",
			wantErr: []string{"topics.agentEvents", "does not match"},
		},
		{
			name:    "agentEvents without its source",
			file:    "brokerHost: b:1\ntopics:\n  sourceEvents: sources/+/consumers/+/sourceevents\n  agentEvents: sources/+/consumers/+/agentevents\n",
			wantErr: []string{"topics.agentEvents", "must name its source"},
		},
		{
			name:    "sourceBroadcast of the wrong kind",
			file:    "brokerHost: b:1\n" + topicsYAML + "  sourceBroadcast: sources/+/agentbroadcast\n",
			wantErr: []string{"topics.sourceBroadcast", "does not match"},
		},
		{
			name:    "agentBroadcast of the wrong kind",
			file:    "brokerHost: b:1\n" + topicsYAML + "  agentBroadcast: clusters/+/+/agentbroadcast\n",
			wantErr: []string{"topics.agentBroadcast", "does not match"},
		},
		{
			name:    "a bad shared-subscription group",
			file:    "brokerHost: b:1\ntopics:\n  sourceEvents: $share/A_B/sources/+/consumers/+/sourceevents\n  agentEvents: sources/maestro/consumers/+/agentevents\n",
			wantErr: []string{"topics.sourceEvents", "does not match"},
		},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := cetest.WriteFile(t, dir, fmt.Sprintf("config-%02d.yaml", i), []byte(expand.Replace(tc.file)))
			got, err := Load(path)
			if tc.wantErr != nil {
				require.Error(t, err)
				t.Log(err)
				assert.Contains(t, err.Error(), path, "the error names the file")
				for _, s := range tc.wantErr {
					assert.Contains(t, err.Error(), s)
				}
				return
			}
			require.NoError(t, err)
			want := *tc.want
			want.Path = path
			assert.Equal(t, &want, got)
			assert.Equal(t, tc.wantTLS, got.TLS())
			tlsCfg, err := got.TLSConfig()
			require.NoError(t, err)
			assert.Equal(t, tc.wantTLS, tlsCfg != nil)
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	_, err := Load(missing)
	require.Error(t, err)
	assert.Contains(t, err.Error(), missing)
}

// What travels in clear is said for a config without TLS, the password
// first: with a CA alone, as OCM's loader reads it, the connection is plain
// TCP too.
func TestClearText(t *testing.T) {
	assert.Equal(t, "the works and their status", (&Config{BrokerHost: "b:1883"}).ClearText())
	assert.Equal(t, "the username and password, the works and their status (a CA alone does not turn TLS on: it takes a client certificate and key)",
		(&Config{BrokerHost: "b:1883", Username: "u", Password: "p", CAData: []byte("ca")}).ClearText())
	assert.Empty(t, (&Config{BrokerHost: "b:8883", Username: "u", Password: "p", ClientCertData: []byte("c"), ClientKeyData: []byte("k")}).ClearText())
}
