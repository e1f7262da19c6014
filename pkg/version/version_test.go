package version

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDefaults(t *testing.T) {
	info := Get()
	assert.Equal(t, "v0.0.0-dev", info.GitVersion)
	assert.Equal(t, "v0.0.0-dev", info.String())
	assert.NotEmpty(t, info.GitCommit, "falls back to the stamped revision or unknown")
	assert.Equal(t, "unknown", info.BuildDate)
	assert.Equal(t, runtime.Version(), info.GoVersion)
}

func TestLinkTimeValues(t *testing.T) {
	oldVersion, oldCommit, oldDate := gitVersion, gitCommit, buildDate
	t.Cleanup(func() { gitVersion, gitCommit, buildDate = oldVersion, oldCommit, oldDate })
	gitVersion, gitCommit, buildDate = "v1.2.3", "abc", "2026-01-02T03:04:05Z"

	assert.Equal(t, "gitVersion: v1.2.3\ngitCommit:  abc\nbuildDate:  2026-01-02T03:04:05Z\n"+
		"goVersion:  "+runtime.Version()+"\nplatform:   "+runtime.GOOS+"/"+runtime.GOARCH+"\n", Get().Lines())
}
