// Package version reports the build identity of the work binary.
//
// The values are set at link time, for example:
//
//	go build -ldflags "-X github.com/manifestwork/work/pkg/version.gitVersion=v0.1.0 \
//	  -X github.com/manifestwork/work/pkg/version.gitCommit=$(git rev-parse HEAD) \
//	  -X github.com/manifestwork/work/pkg/version.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)" ./cmd/work
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by -ldflags -X; the defaults mark a development build.
var (
	gitVersion = "v0.0.0-dev"
	gitCommit  = ""
	buildDate  = ""
)

// Info is the build identity of the running binary.
type Info struct {
	GitVersion string `json:"gitVersion"`
	GitCommit  string `json:"gitCommit"`
	BuildDate  string `json:"buildDate"`
	GoVersion  string `json:"goVersion"`
	Platform   string `json:"platform"`
}

// Get returns the build identity. When the commit was not set at link time it
// falls back to the VCS revision the Go toolchain stamped into the binary, if any.
func Get() Info {
	info := Info{
		GitVersion: gitVersion,
		GitCommit:  gitCommit,
		BuildDate:  buildDate,
		GoVersion:  runtime.Version(),
		Platform:   runtime.GOOS + "/" + runtime.GOARCH,
	}
	if info.GitCommit == "" {
		info.GitCommit = stampedRevision()
	}
	if info.BuildDate == "" {
		info.BuildDate = "unknown"
	}
	return info
}

// String is the short form used in user agents and log lines, e.g. "v0.1.0".
func (i Info) String() string {
	return i.GitVersion
}

// Lines renders the identity as "key: value" lines for `work version`.
func (i Info) Lines() string {
	return fmt.Sprintf("gitVersion: %s\ngitCommit:  %s\nbuildDate:  %s\ngoVersion:  %s\nplatform:   %s\n",
		i.GitVersion, i.GitCommit, i.BuildDate, i.GoVersion, i.Platform)
}

func stampedRevision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	revision, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if revision == "" {
		return "unknown"
	}
	if dirty {
		revision += "-dirty"
	}
	return revision
}
