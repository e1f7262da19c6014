package version

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGet(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	type linked struct{ version, commit, date string }
	tests := []struct {
		name   string
		linked linked
		build  *debug.BuildInfo // nil: no build information
		want   Info
	}{{
		name: "nothing stamped",
		want: Info{GitVersion: DevVersion, GitCommit: "unknown", BuildDate: "unknown"},
	}, {
		name:  "a development build without VCS information",
		build: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
		want:  Info{GitVersion: DevVersion, GitCommit: "unknown", BuildDate: "unknown"},
	}, {
		name: "go build in a git checkout",
		build: &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.1.1-0.20260102030405-0123456789ab+dirty"},
			Settings: vcs("vcs", "git", "vcs.revision", "0123456789abcdef", "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "true"),
		},
		want: Info{GitVersion: "v0.1.1-0.20260102030405-0123456789ab+dirty", GitCommit: "0123456789abcdef-dirty", BuildDate: "2026-01-02T03:04:05Z"},
	}, {
		name:  "go install of a tagged module",
		build: &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}},
		want:  Info{GitVersion: "v0.1.0", GitCommit: "unknown", BuildDate: "unknown"},
	}, {
		name:  "a clean checkout",
		build: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "abc", "vcs.modified", "false")},
		want:  Info{GitVersion: DevVersion, GitCommit: "abc", BuildDate: "unknown"},
	}, {
		name:   "link-time values win",
		linked: linked{"v1.2.3", "def", "2026-02-03T04:05:06Z"},
		build: &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.1.0"},
			Settings: vcs("vcs.revision", "abc", "vcs.time", "2026-01-02T03:04:05Z"),
		},
		want: Info{GitVersion: "v1.2.3", GitCommit: "def", BuildDate: "2026-02-03T04:05:06Z"},
	}, {
		name:   "only the version linked",
		linked: linked{version: "v0.1.0"},
		build:  &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "abc", "vcs.time", "2026-01-02T03:04:05Z")},
		want:   Info{GitVersion: "v0.1.0", GitCommit: "abc", BuildDate: "2026-01-02T03:04:05Z"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldVersion, oldCommit, oldDate, oldRead := gitVersion, gitCommit, buildDate, readBuildInfo
			t.Cleanup(func() { gitVersion, gitCommit, buildDate, readBuildInfo = oldVersion, oldCommit, oldDate, oldRead })
			gitVersion, gitCommit, buildDate = tt.linked.version, tt.linked.commit, tt.linked.date
			readBuildInfo = func() (*debug.BuildInfo, bool) { return tt.build, tt.build != nil }

			want := tt.want
			want.GoVersion, want.Platform = runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH
			got := Get()
			assert.Equal(t, want, got)
			assert.Equal(t, want.GitVersion, got.String())
		})
	}
}

func TestLines(t *testing.T) {
	info := Info{GitVersion: "v1.2.3", GitCommit: "abc", BuildDate: "2026-01-02T03:04:05Z", GoVersion: "go1.26.0", Platform: "linux/amd64"}
	assert.Equal(t, "gitVersion: v1.2.3\ngitCommit:  abc\nbuildDate:  2026-01-02T03:04:05Z\n"+
		"goVersion:  go1.26.0\nplatform:   linux/amd64\n", info.Lines())
}
