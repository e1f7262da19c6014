// Package version reports the build identity of the work binary.
//
// A release build sets the values at link time, as `make build` and the
// Dockerfile do from the file VERSION at the top of the checkout:
//
//	go build -ldflags "-X github.com/manifestwork/work/pkg/version.gitVersion=$(cat VERSION) \
//	  -X github.com/manifestwork/work/pkg/version.gitCommit=$(git rev-parse HEAD) \
//	  -X github.com/manifestwork/work/pkg/version.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)" ./cmd/work
//
// A value not set at link time comes from what the Go toolchain stamped into
// the binary: the main module's version (a tag, or a pseudo-version of the
// commit, for `go build` in a git checkout or `go install ...@version`) and
// the VCS revision and commit time. DevVersion is left only when neither
// says anything.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// DevVersion is the version of a binary that carries no version at all.
const DevVersion = "v0.0.0-dev"

// Set by -ldflags -X; empty when not.
var (
	gitVersion = ""
	gitCommit  = ""
	buildDate  = ""
)

// readBuildInfo is debug.ReadBuildInfo, replaced in tests.
var readBuildInfo = debug.ReadBuildInfo

// Info is the build identity of the running binary.
type Info struct {
	GitVersion string `json:"gitVersion"`
	GitCommit  string `json:"gitCommit"`
	BuildDate  string `json:"buildDate"`
	GoVersion  string `json:"goVersion"`
	Platform   string `json:"platform"`
}

// Get returns the build identity: the link-time values, else what the
// toolchain stamped, else DevVersion and "unknown".
func Get() Info {
	stamped := stampedInfo()
	info := Info{
		GitVersion: first(gitVersion, stamped.version, DevVersion),
		GitCommit:  first(gitCommit, stamped.revision, "unknown"),
		BuildDate:  first(buildDate, stamped.time, "unknown"),
		GoVersion:  runtime.Version(),
		Platform:   runtime.GOOS + "/" + runtime.GOARCH,
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

// stamp is what the Go toolchain recorded in the binary.
type stamp struct {
	version  string // the main module's version; "" for "(devel)"
	revision string // vcs.revision, with "-dirty" for a modified checkout
	time     string // vcs.time: when the revision was committed
}

func stampedInfo() stamp {
	bi, ok := readBuildInfo()
	if !ok || bi == nil {
		return stamp{}
	}
	var s stamp
	if v := bi.Main.Version; v != "(devel)" {
		s.version = v
	}
	dirty := false
	for _, setting := range bi.Settings {
		switch setting.Key {
		case "vcs.revision":
			s.revision = setting.Value
		case "vcs.time":
			s.time = setting.Value
		case "vcs.modified":
			dirty = setting.Value == "true"
		}
	}
	if s.revision != "" && dirty {
		s.revision += "-dirty"
	}
	return s
}

// first returns the first non-empty value.
func first(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
