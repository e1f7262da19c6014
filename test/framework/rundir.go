package framework

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

const (
	// EnvRunsRoot overrides the shared folder under which every test run keeps
	// its private folder (default $TMPDIR/manifestwork-e2e).
	EnvRunsRoot = "WORK_TEST_RUNS_ROOT"
	// envReaper tells a re-executed test binary to act as the reaper of a run.
	envReaper = "WORK_TEST_REAPER_FOR"

	ownerFile = "owner"
	claimFile = "reaping"
	stateFile = "state.json"
	runPrefix = "run-"
)

// RunDir is a folder private to one test run. It records the pid of the run
// so that a later run can remove it if this one was killed, and (under Main) a
// reaper process removes it as soon as the test process dies without tearing
// down, whether by a panic, a timeout or a signal.
type RunDir struct {
	// Path is the absolute folder of the run.
	Path string
	// ID is a short random suffix, unique among live runs.
	ID string

	reaper *os.File
}

// runState is what a reaper needs to know besides the run folder.
type runState struct {
	Kwokctl     string         `json:"kwokctl,omitempty"`
	KwokWorkdir string         `json:"kwokWorkdir,omitempty"`
	Clusters    []stateCluster `json:"clusters,omitempty"`
	LogDir      string         `json:"logDir,omitempty"`
}

type stateCluster struct {
	Name       string `json:"name"`
	Kubeconfig string `json:"kubeconfig"`
}

// RunsRoot returns the shared folder holding the folders of all runs.
func RunsRoot() string {
	if dir := os.Getenv(EnvRunsRoot); dir != "" {
		return dir
	}
	return filepath.Join(os.TempDir(), "manifestwork-e2e")
}

// NewRunDir reaps the folders of dead runs, then makes a folder for this run.
func NewRunDir() (*RunDir, error) {
	root, err := filepath.Abs(RunsRoot())
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	ReapStaleRuns(root)
	run, err := makeRunDir(root)
	if err != nil {
		return nil, err
	}
	if mainActive {
		if run.reaper, err = startReaper(run.Path); err != nil {
			_ = os.RemoveAll(run.Path)
			return nil, err
		}
	}
	return run, nil
}

// makeRunDir makes the run folder complete with its owner file under a
// temporary name, then renames it, so that no other run ever sees it without
// an owner and reaps it.
func makeRunDir(root string) (*RunDir, error) {
	for range 10 {
		id, err := randomID()
		if err != nil {
			return nil, err
		}
		tmp, err := os.MkdirTemp(root, ".new-")
		if err != nil {
			return nil, err
		}
		if err := writeOwner(filepath.Join(tmp, ownerFile), os.Getpid()); err != nil {
			_ = os.RemoveAll(tmp)
			return nil, err
		}
		path := filepath.Join(root, runPrefix+id)
		if err := os.Rename(tmp, path); err != nil {
			_ = os.RemoveAll(tmp)
			continue // taken by another run
		}
		return &RunDir{Path: path, ID: id}, nil
	}
	return nil, errors.New("framework: could not make a unique run folder")
}

func randomID() (string, error) {
	b := make([]byte, 3)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// Join returns a path inside the run folder.
func (r *RunDir) Join(elem ...string) string {
	return filepath.Join(append([]string{r.Path}, elem...)...)
}

// Mkdir makes (if needed) and returns a folder inside the run folder.
func (r *RunDir) Mkdir(elem ...string) (string, error) {
	dir := r.Join(elem...)
	return dir, os.MkdirAll(dir, 0o755)
}

// saveState records what a reaper needs to clean this run up.
func (r *RunDir) saveState(s runState) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := r.Join(stateFile + ".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, r.Join(stateFile))
}

// Remove kills every process still running from the run folder, removes the
// folder and lets the reaper go.
func (r *RunDir) Remove() error {
	killProcessesUnder(r.Path)
	err := os.RemoveAll(r.Path)
	if r.reaper != nil {
		_ = r.reaper.Close()
		r.reaper = nil
	}
	return err
}

// writeOwner records pid and its start time, so a recycled pid is not taken
// for the live owner.
func writeOwner(path string, pid int) error {
	start, _ := processStartTime(pid)
	return os.WriteFile(path, []byte(fmt.Sprintf("%d %s\n", pid, start)), 0o644)
}

// ownerAlive reads an owner file and says whether that process still runs.
func ownerAlive(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return false
	}
	pid, err := strconv.Atoi(fields[0])
	if err != nil || pid <= 0 {
		return false
	}
	start := ""
	if len(fields) > 1 {
		start = fields[1]
	}
	return processAlive(pid, start)
}

func processAlive(pid int, start string) bool {
	now, zombie, err := procStat(pid)
	if err == nil {
		return !zombie && (start == "" || now == start)
	}
	if _, statErr := os.Stat("/proc/self/stat"); statErr == nil {
		return false // there is a /proc, and pid is not in it
	}
	err = syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// processStartTime returns the start time of pid in clock ticks since boot.
func processStartTime(pid int) (string, error) {
	start, _, err := procStat(pid)
	return start, err
}

// procStat reads the start time (field 22) and whether pid is a zombie
// (field 3) from /proc/<pid>/stat. A killed process stays a zombie until its
// parent reaps it, and is dead all the same.
func procStat(pid int) (start string, zombie bool, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", false, err
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 20 {
		return "", false, fmt.Errorf("framework: short /proc/%d/stat", pid)
	}
	return fields[19], fields[0] == "Z" || fields[0] == "X", nil
}

// ReapStaleRuns removes the run folders under root whose owner process is
// gone (a run killed by SIGKILL), deleting their kwok clusters and killing
// the processes they started.
func ReapStaleRuns(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, entry := range entries {
		if !entry.IsDir() || !strings.HasPrefix(entry.Name(), runPrefix) {
			continue
		}
		dir := filepath.Join(root, entry.Name())
		if ownerAlive(filepath.Join(dir, ownerFile)) || !claimRun(dir) {
			continue
		}
		fmt.Fprintf(os.Stderr, "framework: reaping the folder of a dead test run: %s\n", dir)
		reapRun(dir)
	}
}

// claimRun makes this process the one reaping dir, unless a live process
// already is.
func claimRun(dir string) bool {
	path := filepath.Join(dir, claimFile)
	for range 2 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			start, _ := processStartTime(os.Getpid())
			_, _ = fmt.Fprintf(f, "%d %s\n", os.Getpid(), start)
			_ = f.Close()
			return true
		}
		if !errors.Is(err, os.ErrExist) || ownerAlive(path) {
			return false
		}
		_ = os.Remove(path)
	}
	return false
}

// reapRun tears a dead run down from what its folder records.
func reapRun(dir string) {
	state := readState(dir)
	if state.LogDir != "" {
		note := "the test process ended without tearing down; its reaper deleted its clusters\n"
		_ = os.WriteFile(filepath.Join(state.LogDir, "ABORTED.txt"), []byte(note), 0o644)
		for _, c := range state.Clusters {
			copyKwokLogs(state.KwokWorkdir, c.Name, state.LogDir)
		}
	}
	deleteKwokClusters(state)
	killProcessesUnder(dir)
	_ = os.RemoveAll(dir)
}

func readState(dir string) runState {
	var s runState
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err == nil {
		_ = json.Unmarshal(data, &s)
	}
	return s
}

// killProcessesUnder sends SIGKILL to every process (but this one) whose
// command line names a path inside dir: the API servers, etcds, kwok
// components and work processes of a run all do.
func killProcessesUnder(dir string) {
	marker := []byte(filepath.Clean(dir) + "/")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, entry := range entries {
		pid, err := strconv.Atoi(entry.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", entry.Name(), "cmdline"))
		if err == nil && containsBytes(cmdline, marker) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func containsBytes(haystack, needle []byte) bool {
	return strings.Contains(string(haystack), string(needle))
}

// startReaper starts this test binary again as a reaper for dir. The reaper
// waits for the end of a pipe that only this process holds open; when this
// process dies, however, the pipe closes and the reaper removes what is left
// of the run.
func startReaper(dir string) (*os.File, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer func() { _ = r.Close() }()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), envReaper+"="+dir)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("framework: start reaper: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	return w, nil
}

// runReaper is the body of a reaper process.
func runReaper(dir string) int {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	_, _ = io.Copy(io.Discard, os.Stdin)
	if _, err := os.Stat(dir); err != nil {
		return 0
	}
	if claimRun(dir) {
		reapRun(dir)
	}
	return 0
}
