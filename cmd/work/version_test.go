package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/manifestwork/work/pkg/version"
)

// repoRoot is the top of the checkout, from this package's folder.
var repoRoot = filepath.Join("..", "..")

// imageRepo is the image that deploy/ and the charts name.
const imageRepo = "quay.io/manifestwork/work"

func TestVersion(t *testing.T) {
	out, err := execute("version")
	require.NoError(t, err)
	assert.Equal(t, version.Get().Lines(), out)
	for _, key := range []string{"gitVersion", "gitCommit", "buildDate", "goVersion", "platform"} {
		assert.Regexp(t, `(?m)^`+key+`: +\S+$`, out)
	}
}

// A release has one version, in the file VERSION: `make build` and
// `make image` stamp it into the binary and tag the image with it, the
// charts carry it as appVersion (the image tag they run) and as their own
// version without the "v", and the kustomize bases set it as the image tag.
func TestReleaseVersionAgrees(t *testing.T) {
	want := releaseVersion(t)
	require.Regexp(t, `^v[0-9]+\.[0-9]+\.[0-9]+$`, want, "VERSION is a release tag")

	for _, chart := range []string{"work-hub", "work-agent"} {
		t.Run("chart "+chart, func(t *testing.T) {
			var meta struct {
				Version    string `json:"version"`
				AppVersion string `json:"appVersion"`
			}
			readYAML(t, &meta, "deploy", "charts", chart, "Chart.yaml")
			assert.Equal(t, strings.TrimPrefix(want, "v"), meta.Version, "version")
			assert.Equal(t, want, meta.AppVersion, "appVersion")
			var values struct {
				Image struct {
					Repository string `json:"repository"`
					Tag        string `json:"tag"`
				} `json:"image"`
			}
			readYAML(t, &values, "deploy", "charts", chart, "values.yaml")
			assert.Equal(t, imageRepo, values.Image.Repository)
			assert.Empty(t, values.Image.Tag, "an empty image.tag runs appVersion")
		})
	}

	for _, base := range []string{"hub", "agent"} {
		t.Run("deploy/"+base, func(t *testing.T) {
			var k struct {
				Images []struct {
					Name    string `json:"name"`
					NewName string `json:"newName"`
					NewTag  string `json:"newTag"`
				} `json:"images"`
			}
			readYAML(t, &k, "deploy", base, "kustomization.yaml")
			require.Len(t, k.Images, 1)
			assert.Equal(t, imageRepo, k.Images[0].Name)
			assert.Empty(t, k.Images[0].NewName)
			assert.Equal(t, want, k.Images[0].NewTag)
			// The name the images entry matches is the Deployment's.
			var d struct {
				Spec struct {
					Template struct {
						Spec struct {
							Containers []struct {
								Image string `json:"image"`
							} `json:"containers"`
						} `json:"spec"`
					} `json:"template"`
				} `json:"spec"`
			}
			readYAML(t, &d, "deploy", base, "deployment.yaml")
			require.Len(t, d.Spec.Template.Spec.Containers, 1)
			assert.Equal(t, imageRepo, d.Spec.Template.Spec.Containers[0].Image)
		})
	}

	t.Run("deploy/hub-without-webhook runs the image of deploy/hub", func(t *testing.T) {
		var k map[string]any
		readYAML(t, &k, "deploy", "hub-without-webhook", "kustomization.yaml")
		assert.Equal(t, []any{"../hub"}, k["resources"])
		assert.NotContains(t, k, "images")
	})

	t.Run("Makefile", func(t *testing.T) {
		out := makeDryRun(t, "build", "image")
		assert.Contains(t, out, "pkg/version.gitVersion="+want+" ", "make build")
		assert.Contains(t, out, "--build-arg VERSION="+want+" ", "make image")
		assert.Regexp(t, `-t `+regexp.QuoteMeta(imageRepo+":"+want)+`( |$)`, out, "make image")
	})
}

// A binary built without the Makefile's -ldflags, by a plain `go build` in
// the checkout, reports the module version and commit the Go toolchain
// stamps from git, not the development default. (-buildvcs=true is the
// default, auto, made explicit against a GOFLAGS that turns it off.)
func TestPlainBuildVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	// The Go toolchain stamps a checkout whose .git is a folder only: not
	// a git worktree, whose .git is a file.
	if fi, err := os.Stat(filepath.Join(repoRoot, ".git")); err != nil || !fi.IsDir() {
		t.Skip("not a git clone")
	}
	head, err := exec.Command("git", "-C", repoRoot, "rev-parse", "HEAD").Output()
	require.NoError(t, err)

	bin := filepath.Join(t.TempDir(), "work")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/work")
	build.Dir = repoRoot
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	out, err = exec.Command(bin, "version").Output()
	require.NoError(t, err)

	lines := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		key, value, _ := strings.Cut(line, ":")
		lines[key] = strings.TrimSpace(value)
	}
	assert.NotEqual(t, version.DevVersion, lines["gitVersion"])
	assert.Regexp(t, `^v[0-9]+\.[0-9]+\.[0-9]+`, lines["gitVersion"], "a module version")
	assert.Regexp(t, `^`+strings.TrimSpace(string(head))+`(-dirty)?$`, lines["gitCommit"])
	assert.NotEqual(t, "unknown", lines["buildDate"], "the commit time")
}

// releaseVersion is the content of the file VERSION.
func releaseVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "VERSION"))
	require.NoError(t, err)
	return strings.TrimSpace(string(data))
}

// readYAML decodes a file of the checkout into v.
func readYAML(t *testing.T, v any, path ...string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{repoRoot}, path...)...))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, v), filepath.Join(path...))
}

// makeDryRun prints the commands of make targets without running them,
// with the Makefile's defaults: none of its variables comes from the
// environment or from a make this test runs under.
func makeDryRun(t *testing.T, targets ...string) string {
	t.Helper()
	cmd := exec.Command("make", append([]string{"--no-print-directory", "-n"}, targets...)...)
	cmd.Dir = repoRoot
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "VERSION", "IMAGE", "IMAGE_REPO", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "GNUMAKEFLAGS":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	return string(out)
}
