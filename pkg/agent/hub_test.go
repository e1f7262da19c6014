package agent

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"
)

// A CloudEvents config that names only a CA connects in clear, as OCM's
// loader reads it: the agent says so once, at start, naming what travels
// so; over TLS it says nothing.
func TestDialSourceWarnsOfClearText(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		return path
	}
	ca := write("ca.crt", "") // a CA alone does not turn TLS on
	tests := []struct {
		driver, config string
		want           string
	}{
		{MQTTDriver, "brokerHost: broker:1883\nusername: cluster1\npassword: s3cret\ncaFile: " + ca +
			"\ntopics: {sourceEvents: sources/maestro/consumers/+/sourceevents, agentEvents: sources/maestro/consumers/+/agentevents}\n",
			"the connection to the source is not encrypted: the username and password, the works and their status"},
		{GRPCDriver, "url: grpc:8090\n", "the connection to the source is not encrypted: the works and their status travel in clear"},
	}
	for _, tt := range tests {
		t.Run(tt.driver, func(t *testing.T) {
			var log bytes.Buffer
			ctx := klog.NewContext(t.Context(), textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(&log))))
			o := NewOptions()
			o.ClusterName, o.WorkloadSourceDriver = "cluster1", tt.driver
			o.WorkloadSourceConfig = write(tt.driver+".yaml", tt.config)
			_, err := dialSource(ctx, o)
			require.NoError(t, err)
			assert.Equal(t, 1, strings.Count(log.String(), "Warning: "+tt.want), log.String())
		})
	}
}
