//go:build linux

package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/manifestwork/work/test/framework"
)

// cpuUse is CPU seconds of the kube-apiservers and of the agents.
type cpuUse struct {
	HubAPIServer     float64 `json:"hubApiserver"`
	ManagedAPIServer float64 `json:"managedApiserver"`
	Agents           float64 `json:"agents"` // summed
}

func (c cpuUse) minus(o cpuUse) cpuUse {
	return cpuUse{HubAPIServer: c.HubAPIServer - o.HubAPIServer, ManagedAPIServer: c.ManagedAPIServer - o.ManagedAPIServer, Agents: c.Agents - o.Agents}
}

// apiServers are the kube-apiserver processes of the hub and of cluster1,
// whose CPU time the bench reads from /proc.
type apiServers struct{ hubPID, managedPID int }

func findAPIServers(e *framework.E2E) (apiServers, error) {
	var s apiServers
	var err error
	if s.hubPID, err = apiServerPID(e.Hub.KwokName); err != nil {
		return s, err
	}
	s.managedPID, err = apiServerPID(managedCluster(e).KwokName)
	return s, err
}

// cpu reads the CPU time both kube-apiservers have used so far (Agents is 0).
func (s apiServers) cpu() (cpuUse, error) {
	var c cpuUse
	var err error
	if c.HubAPIServer, err = cpuSeconds(s.hubPID); err != nil {
		return c, fmt.Errorf("hub kube-apiserver: %w", err)
	}
	if c.ManagedAPIServer, err = cpuSeconds(s.managedPID); err != nil {
		return c, fmt.Errorf("managed kube-apiserver: %w", err)
	}
	return c, nil
}

// apiServerPID finds the kube-apiserver of a kwok cluster among the
// processes: kwokctl's binary runtime runs it from the cluster's own folder,
// .../clusters/<kwok name>/bin/kube-apiserver, so its first argument names
// the cluster.
func apiServerPID(kwokName string) (int, error) {
	pid, err := findProcess("/proc", isAPIServerOf(kwokName))
	if err != nil {
		return 0, fmt.Errorf("kube-apiserver of %s: %w", kwokName, err)
	}
	return pid, nil
}

// isAPIServerOf matches the first argument of the cluster's kube-apiserver.
func isAPIServerOf(kwokName string) func(argv0 string) bool {
	dir := string(filepath.Separator) + filepath.Join("clusters", kwokName, "bin")
	return func(argv0 string) bool {
		return filepath.Base(argv0) == "kube-apiserver" && strings.HasSuffix(filepath.Dir(argv0), dir)
	}
}

// findProcess returns the only process under procRoot whose first argument
// matches.
func findProcess(procRoot string, match func(argv0 string) bool) (int, error) {
	entries, err := os.ReadDir(procRoot)
	if err != nil {
		return 0, err
	}
	var found []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join(procRoot, e.Name(), "cmdline"))
		if err != nil {
			continue // gone meanwhile, or not ours to read
		}
		argv0, _, _ := bytes.Cut(cmdline, []byte{0})
		if match(string(argv0)) {
			found = append(found, pid)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return 0, fmt.Errorf("no such process")
	default:
		return 0, fmt.Errorf("%d processes match: %v", len(found), found)
	}
}

// cpuSeconds is the CPU time (utime + stime) a process has used so far.
func cpuSeconds(pid int) (float64, error) {
	s, err := readProcStats(pid)
	return s.CPUSeconds, err
}

func TestFindProcess(t *testing.T) {
	root := t.TempDir()
	write := func(pid, argv0 string) {
		if err := os.MkdirAll(filepath.Join(root, pid), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, pid, "cmdline"), []byte(argv0+"\x00--secure-port=1\x00"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("10", "/tmp/run/kwok/clusters/hub-abc/bin/kube-apiserver")
	write("11", "/tmp/run/kwok/clusters/cluster1-abc/bin/kube-apiserver")
	write("12", "/tmp/run/kwok/clusters/hub-abc/bin/etcd")
	write("13", "/tmp/run/kwok/clusters/xhub-abc/bin/kube-apiserver")
	if err := os.MkdirAll(filepath.Join(root, "self"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"hub-abc": 10, "cluster1-abc": 11} {
		if got, err := findProcess(root, isAPIServerOf(name)); err != nil || got != want {
			t.Errorf("%s: got %d, %v; want %d", name, got, err, want)
		}
	}
	if _, err := findProcess(root, isAPIServerOf("cluster2-abc")); err == nil {
		t.Error("a cluster without a kube-apiserver was found")
	}
	if _, err := findProcess(root, func(string) bool { return true }); err == nil {
		t.Error("several matches did not fail")
	}
}
