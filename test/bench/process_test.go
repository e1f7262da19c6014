//go:build linux

package bench

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// agentProcess is an agent started through `sh -c 'exec <command>'`: the
// shell replaces itself, so the pid is the agent's and /proc/<pid> is its.
type agentProcess struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
	log  string
}

func startAgentProcess(command, logPath string) (*agentProcess, error) {
	log, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	defer func() { _ = log.Close() }()
	_, _ = fmt.Fprintf(log, "=== %s start: %s\n", time.Now().Format(time.RFC3339), command)
	cmd := exec.Command("sh", "-c", "exec "+command)
	cmd.Stdout, cmd.Stderr = log, log
	// The agent dies with the bench, even if the bench is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	p := &agentProcess{cmd: cmd, done: make(chan struct{}), log: logPath}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *agentProcess) pid() int { return p.cmd.Process.Pid }

// exited is closed when the agent has exited.
func (p *agentProcess) exited() <-chan struct{} { return p.done }

// kill sends SIGKILL and waits until the process is gone.
func (p *agentProcess) kill() error {
	select {
	case <-p.done:
		return fmt.Errorf("agent had exited already: %v", p.err)
	default:
	}
	_ = p.cmd.Process.Kill()
	<-p.done
	return nil
}

// stop sends SIGTERM, waits at most timeout, then kills.
func (p *agentProcess) stop(timeout time.Duration) error {
	select {
	case <-p.done:
		return fmt.Errorf("agent had exited already: %v", p.err)
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(timeout):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("agent did not stop within %s of SIGTERM; killed it", timeout)
	}
}

// procStats is the footprint of a process from /proc.
type procStats struct {
	RSSMB      float64 `json:"rssMB"`      // VmRSS, now
	PeakRSSMB  float64 `json:"peakRssMB"`  // VmHWM
	CPUSeconds float64 `json:"cpuSeconds"` // utime + stime
}

// over is the footprint of a process and of those before it (before may be
// nil): the highest peak RSS, the CPU time of all.
func (s procStats) over(before *procStats) procStats {
	if before != nil {
		s.PeakRSSMB = max(s.PeakRSSMB, before.PeakRSSMB)
		s.CPUSeconds += before.CPUSeconds
	}
	return s
}

// clockTicks is USER_HZ, 100 on every Linux architecture Go supports.
const clockTicks = 100

func readProcStats(pid int) (procStats, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return procStats{}, err
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStats{}, err
	}
	return parseProcStats(string(status), string(stat))
}

func parseProcStats(status, stat string) (procStats, error) {
	var s procStats
	found := false
	for line := range strings.SplitSeq(status, "\n") {
		name, rest, _ := strings.Cut(line, ":")
		var dst *float64
		switch name {
		case "VmHWM":
			dst, found = &s.PeakRSSMB, true
		case "VmRSS":
			dst = &s.RSSMB
		default:
			continue
		}
		fields := strings.Fields(rest) // "123456 kB"
		if len(fields) == 0 {
			return s, fmt.Errorf("%s: no value", name)
		}
		kb, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return s, fmt.Errorf("%s %q: %w", name, rest, err)
		}
		*dst = kb / 1024
	}
	if !found {
		return s, fmt.Errorf("no VmHWM in /proc status")
	}
	// The command name (field 2) may hold spaces and parentheses: count
	// fields after the last ')'. utime and stime are fields 14 and 15, so 12
	// and 13 after it.
	end := strings.LastIndexByte(stat, ')')
	if end < 0 {
		return s, fmt.Errorf("malformed /proc stat")
	}
	fields := strings.Fields(stat[end+1:])
	if len(fields) < 13 {
		return s, fmt.Errorf("short /proc stat")
	}
	utime, err1 := strconv.ParseFloat(fields[11], 64)
	stime, err2 := strconv.ParseFloat(fields[12], 64)
	if err1 != nil || err2 != nil {
		return s, fmt.Errorf("utime/stime %q %q", fields[11], fields[12])
	}
	s.CPUSeconds = (utime + stime) / clockTicks
	return s, nil
}

func TestParseProcStats(t *testing.T) {
	status := "Name:\twork\nVmPeak:\t 900000 kB\nVmHWM:\t   51200 kB\nVmRSS:\t   40000 kB\n"
	stat := "4242 (wo rk)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 12 0 100 0 0"
	s, err := parseProcStats(status, stat)
	if err != nil {
		t.Fatal(err)
	}
	if s.PeakRSSMB != 50 || s.RSSMB != 40000.0/1024 || s.CPUSeconds != 3 {
		t.Errorf("got %+v", s)
	}
	// And this process, for real.
	if _, err := readProcStats(os.Getpid()); err != nil {
		t.Error(err)
	}
}

func TestProcStatsOver(t *testing.T) {
	now := procStats{RSSMB: 50, PeakRSSMB: 60, CPUSeconds: 2}
	assert.Equal(t, now, now.over(nil), "no earlier process")
	assert.Equal(t, procStats{RSSMB: 50, PeakRSSMB: 90, CPUSeconds: 5}, now.over(&procStats{RSSMB: 80, PeakRSSMB: 90, CPUSeconds: 3}),
		"the highest peak, the CPU of all, the RSS of the last")
}
