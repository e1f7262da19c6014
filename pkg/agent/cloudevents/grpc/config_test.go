package grpc_test

import (
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cegrpc "github.com/manifestwork/work/pkg/agent/cloudevents/grpc"
	"github.com/manifestwork/work/test/cloudevents/cetest"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	ca := cetest.NewCA(t)
	certPEM, keyPEM := ca.Issue(t, "agent1", x509.ExtKeyUsageClientAuth)
	_, otherKeyPEM := ca.Issue(t, "other", x509.ExtKeyUsageClientAuth)
	caFile := cetest.WriteFile(t, dir, "ca.crt", ca.PEM)
	certFile := cetest.WriteFile(t, dir, "tls.crt", certPEM)
	keyFile := cetest.WriteFile(t, dir, "tls.key", keyPEM)
	tokenFile := cetest.WriteFile(t, dir, "token", []byte("file-token\n"))
	emptyFile := cetest.WriteFile(t, dir, "empty", []byte("  \n"))
	missing := filepath.Join(dir, "missing")
	b64 := base64.StdEncoding.EncodeToString

	defaults := cegrpc.KeepAliveConfig{Time: 30 * time.Second, Timeout: 10 * time.Second}
	tests := []struct {
		name    string
		yaml    string
		want    cegrpc.Config
		wantTLS bool
		wantErr string
	}{
		{
			name: "url only: every default, plain text",
			yaml: "url: grpc.example.com:8090\n",
			want: cegrpc.Config{URL: "grpc.example.com:8090", KeepAlive: defaults},
		},
		{
			name: "every key",
			yaml: `url: maestro-grpc.example.com:8090
caFile: ` + caFile + `
clientCertFile: ` + certFile + `
clientKeyFile: ` + keyFile + `
tokenFile: ` + tokenFile + `
keepAliveConfig:
  enable: true
  time: 45s
  timeout: 5s
  permitWithoutStream: true
serverHealthinessTimeout: 1m
`,
			want: cegrpc.Config{
				URL: "maestro-grpc.example.com:8090", CAFile: caFile, CAData: ca.PEM,
				ClientCertFile: certFile, ClientKeyFile: keyFile,
				TokenFile: tokenFile, Token: "file-token",
				KeepAlive:                cegrpc.KeepAliveConfig{Enable: true, Time: 45 * time.Second, Timeout: 5 * time.Second, PermitWithoutStream: true},
				ServerHealthinessTimeout: time.Minute,
			},
			wantTLS: true,
		},
		{
			name: "data keys win over files, which are then not read",
			yaml: "url: h:1\ncaFile: " + missing + "\ncaData: " + b64(ca.PEM) +
				"\nclientCertData: " + b64(certPEM) + "\nclientKeyData: " + b64(keyPEM) + "\n",
			want: cegrpc.Config{URL: "h:1", CAFile: missing, CAData: ca.PEM,
				ClientCertData: certPEM, ClientKeyData: keyPEM, KeepAlive: defaults},
			wantTLS: true,
		},
		{
			name:    "token wins over tokenFile, which is then not read",
			yaml:    "url: h:1\ncaFile: " + caFile + "\ntoken: inline\ntokenFile: " + missing + "\n",
			want:    cegrpc.Config{URL: "h:1", CAFile: caFile, CAData: ca.PEM, Token: "inline", TokenFile: missing, KeepAlive: defaults},
			wantTLS: true,
		},
		{
			name: "a CA alone leaves plain text",
			yaml: "url: h:1\ncaFile: " + caFile + "\n",
			want: cegrpc.Config{URL: "h:1", CAFile: caFile, CAData: ca.PEM, KeepAlive: defaults},
		},
		{
			name: "durations as nanoseconds, as OCM's YAML reads a number",
			yaml: "url: h:1\nkeepAliveConfig:\n  time: 20000000000\n",
			want: cegrpc.Config{URL: "h:1", KeepAlive: cegrpc.KeepAliveConfig{Time: 20 * time.Second, Timeout: 10 * time.Second}},
		},
		{
			name: "keys OCM does not know are ignored",
			yaml: "url: h:1\nsomethingNew: true\n",
			want: cegrpc.Config{URL: "h:1", KeepAlive: defaults},
		},
		{name: "no url", yaml: "caFile: " + caFile + "\n", wantErr: "url: required"},
		{name: "empty file", yaml: "", wantErr: "url: required"},
		{name: "not YAML", yaml: "url: [\n", wantErr: "yaml"},
		{name: "url of the wrong type", yaml: "url: {a: 1}\n", wantErr: "url"},
		{name: "token without a CA", yaml: "url: h:1\ntoken: t\n", wantErr: "token/tokenFile: a token needs the server's CA"},
		{name: "tokenFile without a CA", yaml: "url: h:1\ntokenFile: " + tokenFile + "\n", wantErr: "token/tokenFile: a token needs"},
		{name: "tokenFile missing", yaml: "url: h:1\ntokenFile: " + missing + "\n", wantErr: "tokenFile: open " + missing},
		{name: "tokenFile empty", yaml: "url: h:1\ntokenFile: " + emptyFile + "\n", wantErr: "tokenFile: " + emptyFile + " is empty"},
		{name: "caFile missing", yaml: "url: h:1\ncaFile: " + missing + "\n", wantErr: "caFile: open " + missing},
		{name: "caFile not PEM", yaml: "url: h:1\ncaFile: " + tokenFile + "\n", wantErr: "caFile/caData: no PEM certificate"},
		{name: "caData not base64", yaml: "url: h:1\ncaData: '%%%'\n", wantErr: "caData: not base64"},
		{name: "caData not PEM", yaml: "url: h:1\ncaData: " + b64([]byte("hello")) + "\n", wantErr: "caData: no PEM certificate"},
		{name: "clientCertData not base64", yaml: "url: h:1\nclientCertData: '%'\n", wantErr: "clientCertData: not base64"},
		{name: "clientKeyData not base64", yaml: "url: h:1\nclientKeyData: '%'\n", wantErr: "clientKeyData: not base64"},
		{name: "certificate without a key", yaml: "url: h:1\nclientCertFile: " + certFile + "\n",
			wantErr: "clientCertFile/clientCertData and clientKeyFile/clientKeyData: set both or neither"},
		{name: "key without a certificate", yaml: "url: h:1\nclientKeyData: " + b64(keyPEM) + "\n",
			wantErr: "set both or neither"},
		{name: "clientCertFile missing", yaml: "url: h:1\nclientCertFile: " + missing + "\nclientKeyFile: " + keyFile + "\n",
			wantErr: "clientCertFile: open " + missing},
		{name: "clientKeyFile missing", yaml: "url: h:1\nclientCertFile: " + certFile + "\nclientKeyFile: " + missing + "\n",
			wantErr: "clientKeyFile: open " + missing},
		{name: "key of another certificate", yaml: "url: h:1\nclientCertData: " + b64(certPEM) + "\nclientKeyData: " + b64(otherKeyPEM) + "\n",
			wantErr: "clientCertData and clientKeyData"},
		{name: "keepAliveConfig.time not a duration", yaml: "url: h:1\nkeepAliveConfig:\n  time: soon\n",
			wantErr: `keepAliveConfig.time: "soon" is not a duration`},
		{name: "keepAliveConfig.timeout negative", yaml: "url: h:1\nkeepAliveConfig:\n  timeout: -1s\n",
			wantErr: "keepAliveConfig.timeout: -1s is not positive"},
		{name: "keepAliveConfig.enable not a boolean", yaml: "url: h:1\nkeepAliveConfig:\n  enable: sometimes\n",
			wantErr: "keepAliveConfig.enable"},
		{name: "serverHealthinessTimeout not a duration", yaml: "url: h:1\nserverHealthinessTimeout: [1]\n",
			wantErr: "serverHealthinessTimeout: [1] is not a duration"},
		{name: "serverHealthinessTimeout zero", yaml: "url: h:1\nserverHealthinessTimeout: 0s\n",
			wantErr: "serverHealthinessTimeout: 0s is not positive"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := cetest.WriteFile(t, dir, fmt.Sprintf("config-%d.yaml", i), []byte(tt.yaml))
			got, err := cegrpc.Load(path)
			if tt.wantErr != "" {
				require.Error(t, err)
				require.Contains(t, err.Error(), "gRPC config "+path+": ")
				require.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			want := tt.want
			want.Path = path
			require.Equal(t, &want, got)
			require.Equal(t, tt.wantTLS, got.UseTLS())
		})
	}

	_, err := cegrpc.Load(missing)
	require.ErrorContains(t, err, "gRPC config "+missing+": open")
}

func TestNewChecksTheConfig(t *testing.T) {
	_, err := cegrpc.New(&cegrpc.Config{}, "cluster1", "agent1")
	require.ErrorContains(t, err, "gRPC config: url: required")
	_, err = cegrpc.New(&cegrpc.Config{URL: "h:1"}, "", "agent1")
	require.ErrorContains(t, err, "no cluster name")
	_, err = cegrpc.New(nil, "cluster1", "agent1")
	require.ErrorContains(t, err, "no config")
	_, err = cegrpc.New(&cegrpc.Config{Path: "/etc/grpc.yaml", URL: "h:1", Token: "t"}, "cluster1", "agent1")
	require.ErrorContains(t, err, "gRPC config /etc/grpc.yaml: token/tokenFile")
}

// What travels in clear is said for a config without TLS: with a CA alone,
// as OCM's loader reads it, the connection is plain text too.
func TestClearText(t *testing.T) {
	assert.Equal(t, "the works and their status", (&cegrpc.Config{URL: "grpc:8090"}).ClearText())
	assert.Equal(t, "the works and their status (a CA alone does not turn TLS on: it takes a token or a client certificate)",
		(&cegrpc.Config{URL: "grpc:8090", CAData: []byte("ca")}).ClearText())
	assert.Empty(t, (&cegrpc.Config{URL: "grpc:8090", CAData: []byte("ca"), Token: "t"}).ClearText())
	assert.Empty(t, (&cegrpc.Config{URL: "grpc:8090", ClientCertFile: "tls.crt"}).ClearText())
}
