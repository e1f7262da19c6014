package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func execute(args ...string) (string, error) {
	root := newRootCommand()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

func TestSubcommands(t *testing.T) {
	var names []string
	for _, c := range newRootCommand().Commands() {
		names = append(names, c.Name())
	}
	assert.ElementsMatch(t, []string{"agent", "hub", "version"}, names)
}

func TestVersion(t *testing.T) {
	out, err := execute("version")
	require.NoError(t, err)
	assert.Contains(t, out, "gitVersion: v0.0.0-dev\n")
	assert.Contains(t, out, "gitCommit:")
	assert.Contains(t, out, "buildDate:")
}

func TestErrors(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"agent"}, "--spoke-cluster-name is required; --hub-kubeconfig is required"},
		{[]string{"agent", "--bogus"}, "unknown flag: --bogus (see 'work agent --help')"},
		{[]string{"hub", "extra"}, `unknown command "extra" for "work hub"`},
		{[]string{"hub", "--kube-api-qps=0", "--health-probe-bind-address=0"}, "--kube-api-qps must be positive, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.wantErr, func(t *testing.T) {
			out, err := execute(tt.args...)
			require.EqualError(t, err, tt.wantErr)
			assert.Empty(t, out, "no usage dump on errors")
		})
	}
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, `unknown command "x"; Did you mean this?; y`, oneLine("unknown command \"x\"\n\nDid you mean this?\n\ty\n"))
}
