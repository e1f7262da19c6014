package framework

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvTestbedBin names the folder holding the test-bed binaries. When it is
// unset the framework runs hack/testbed.sh and reads the folder from its output.
const EnvTestbedBin = "WORK_TESTBED_BIN"

// testbedBuildTimeout bounds a first build of the test bed by hack/testbed.sh.
const testbedBuildTimeout = 45 * time.Minute

// testbedBinaries are the programs the framework runs from the test bed.
var testbedBinaries = []string{
	"kube-apiserver", "kube-controller-manager", "kube-scheduler",
	"etcd", "kubectl", "kwok", "kwokctl",
}

var (
	rootOnce sync.Once
	rootDir  string
	rootErr  error

	testbedOnce sync.Once
	testbedDir  string
	testbedErr  error
)

// RepoRoot returns the folder holding go.mod, found by walking up from the
// working directory (go test runs a package's tests in its own folder).
func RepoRoot() (string, error) {
	rootOnce.Do(func() { rootDir, rootErr = findRepoRoot() })
	return rootDir, rootErr
}

func findRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("framework: no go.mod in the working directory or above it")
		}
		dir = parent
	}
}

// RepoPath joins elem to the repository root. It panics outside the module,
// which only a misplaced test binary can cause.
func RepoPath(elem ...string) string {
	root, err := RepoRoot()
	if err != nil {
		panic(err)
	}
	return filepath.Join(append([]string{root}, elem...)...)
}

// HubCRDDir is the folder of the CRDs installed on hubs (ManifestWork and
// ManifestWorkReplicaSet).
func HubCRDDir() string { return RepoPath("manifests", "hub") }

// ManagedCRDDir is the folder of the CRDs installed on managed clusters (AppliedManifestWork).
func ManagedCRDDir() string { return RepoPath("manifests", "managed") }

// SkipReason says why the integration and e2e tests cannot run here, or
// returns "" when they can: they need WORK_TESTBED_BIN or hack/testbed.sh.
func SkipReason() string {
	if os.Getenv(EnvTestbedBin) != "" {
		return ""
	}
	root, err := RepoRoot()
	if err != nil {
		return err.Error()
	}
	if _, err := os.Stat(filepath.Join(root, "hack", "testbed.sh")); err != nil {
		return "no test bed: " + EnvTestbedBin + " is unset and hack/testbed.sh is absent " +
			"(set " + EnvTestbedBin + " to a folder holding kube-apiserver, etcd, kubectl, kwok and kwokctl)"
	}
	return ""
}

// SkipWithoutTestbed skips t when SkipReason gives a reason.
func SkipWithoutTestbed(t testing.TB) {
	t.Helper()
	if reason := SkipReason(); reason != "" {
		t.Skip(reason)
	}
}

// TestbedBin returns the absolute folder of the test-bed binaries, running
// hack/testbed.sh (which builds them on its first run) unless
// WORK_TESTBED_BIN is set.
func TestbedBin() (string, error) {
	testbedOnce.Do(func() { testbedDir, testbedErr = findTestbed() })
	return testbedDir, testbedErr
}

func findTestbed() (string, error) {
	dir := os.Getenv(EnvTestbedBin)
	if dir == "" {
		var err error
		if dir, err = runTestbedScript(); err != nil {
			return "", err
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return dir, checkTestbed(dir)
}

func runTestbedScript() (string, error) {
	return runBuildScript("testbed.sh", testbedBuildTimeout)
}

// runBuildScript runs a script of hack/ that builds something into a cache
// (its progress goes to stderr) and returns the last line it printed: the
// path of what it built.
func runBuildScript(name string, timeout time.Duration) (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "hack", name))
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("framework: hack/%s: %w", name, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	path := strings.TrimSpace(lines[len(lines)-1])
	if path == "" {
		return "", fmt.Errorf("framework: hack/%s printed no path", name)
	}
	return path, nil
}

func checkTestbed(dir string) error {
	for _, name := range testbedBinaries {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("framework: test bed %s: %w", dir, err)
		}
		if info.Mode()&0o111 == 0 {
			return fmt.Errorf("framework: test bed %s: %s is not executable", dir, name)
		}
	}
	return nil
}

// TestbedBinary returns the path of one test-bed binary, e.g. "kubectl".
func TestbedBinary(name string) (string, error) {
	dir, err := TestbedBin()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}
