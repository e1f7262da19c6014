package framework

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is a long-running program (work hub or work agent) started by the
// framework, with its output in a log file and a health endpoint on a free
// local port. It can be stopped, or killed, and started again with the same
// arguments and environment.
type Process struct {
	// Name identifies the process in messages, e.g. "hub" or "agent-cluster1".
	Name string
	// LogPath receives stdout and stderr of every start, appended.
	LogPath string
	// HealthAddr is host:port of --health-probe-bind-address (of
	// --health-probe-port for work webhook-server) for the current start.
	HealthAddr string
	// SecureAddr is host:port of --listen, the HTTPS probe port, for the
	// current start; empty for work webhook-server, which has none.
	SecureAddr string

	binary string
	args   []string
	env    []string // NAME=value, on top of the test's own environment
	// httpsOnly is for a program with its probes on --listen alone, over
	// HTTPS (OCM's work agent): readiness is GET /healthz there.
	httpsOnly bool
	// plain is for a program without probes (the MQTT broker): its
	// arguments are all its own.
	plain bool

	mu    sync.Mutex
	cmd   *exec.Cmd
	done  chan struct{}
	state *os.ProcessState
}

// ErrNotRunning is returned by Stop and Kill for a process that has exited.
var ErrNotRunning = errors.New("framework: process is not running")

func newProcess(name, binary, logPath string, args, env []string) *Process {
	return &Process{Name: name, LogPath: logPath, binary: binary, args: args, env: env}
}

// Args returns the arguments of the next start, without the health address.
func (p *Process) Args() []string { return slices.Clone(p.args) }

// Env returns the variables (NAME=value) every start adds to the test's
// environment.
func (p *Process) Env() []string { return slices.Clone(p.env) }

// Start starts the process on fresh probe ports; it does not wait for it to
// be ready (see WaitReady).
func (p *Process) Start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil && p.state == nil {
		return fmt.Errorf("framework: %s is already running", p.Name)
	}
	flags, err := p.probeFlags()
	if err != nil {
		return err
	}
	return p.spawn(append(p.Args(), flags...))
}

// probeFlags put the probes of a start on free local ports, so that
// processes never collide on the defaults (:8081, :8443; :8000 for the
// webhook server, as OCM runs it).
func (p *Process) probeFlags() ([]string, error) {
	if p.plain {
		return nil, nil
	}
	if p.httpsOnly {
		secure, err := FreePort()
		if err != nil {
			return nil, err
		}
		p.HealthAddr = ""
		p.SecureAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(secure))
		return []string{"--listen", p.SecureAddr}, nil
	}
	health, err := FreePort()
	if err != nil {
		return nil, err
	}
	p.HealthAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(health))
	if len(p.args) > 0 && p.args[0] == "webhook-server" {
		p.SecureAddr = ""
		return []string{"--health-probe-port", strconv.Itoa(health)}, nil
	}
	secure, err := FreePort()
	if err != nil {
		return nil, err
	}
	p.SecureAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(secure))
	return []string{"--health-probe-bind-address", p.HealthAddr, "--listen", p.SecureAddr}, nil
}

func (p *Process) spawn(args []string) error {
	log, err := os.OpenFile(p.LogPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer func() { _ = log.Close() }()
	_, _ = fmt.Fprintf(log, "=== %s start: %s\n", time.Now().Format(time.RFC3339),
		strings.Join(slices.Concat(p.env, []string{p.binary}, args), " "))
	cmd := exec.Command(p.binary, args...)
	if len(p.env) > 0 {
		cmd.Env = append(os.Environ(), p.env...)
	}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("framework: start %s: %w", p.Name, err)
	}
	p.cmd, p.state, p.done = cmd, nil, make(chan struct{})
	go p.wait(cmd, p.done)
	return nil
}

func (p *Process) wait(cmd *exec.Cmd, done chan struct{}) {
	_ = cmd.Wait()
	p.mu.Lock()
	p.state = cmd.ProcessState
	p.mu.Unlock()
	close(done)
}

// Running reports whether the process has been started and not exited.
func (p *Process) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil && p.state == nil
}

// Pid returns the pid of the current (or last) start, or 0.
func (p *Process) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// WaitReady polls GET /readyz on the health address (GET /healthz on the
// HTTPS address of a program that has no other) until it answers 200, the
// process exits, or timeout passes.
func (p *Process) WaitReady(timeout time.Duration) error {
	url := "http://" + p.HealthAddr + "/readyz"
	client := &http.Client{Timeout: 2 * time.Second}
	if p.httpsOnly {
		url = "https://" + p.SecureAddr + "/healthz"
		client.Transport = &http.Transport{
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // a self-signed probe port, as the kubelet probes it
		}
	}
	last := "no answer yet"
	err := poll(context.Background(), timeout, func(context.Context) (bool, error) {
		if !p.Running() {
			return false, fmt.Errorf("exited (%s) before it was ready", p.exitDescription())
		}
		status, err := httpStatus(client, url)
		if err != nil {
			last = err.Error()
			return false, nil
		}
		last = "status " + strconv.Itoa(status)
		return status == http.StatusOK, nil
	})
	if err != nil {
		return fmt.Errorf("framework: %s not ready at %s (%s): %w\n%s", p.Name, url, last, err, p.Tail(30))
	}
	return nil
}

func httpStatus(client *http.Client, url string) (int, error) {
	resp, err := client.Get(url)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// Wait waits at most timeout for the process to exit by itself and returns
// its exit code (-1 when a signal ended it).
func (p *Process) Wait(timeout time.Duration) (int, error) {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done == nil {
		return -1, ErrNotRunning
	}
	select {
	case <-done:
		return p.exitCode(), nil
	case <-time.After(timeout):
		return -1, fmt.Errorf("framework: %s did not exit within %s", p.Name, timeout)
	}
}

// Stop sends SIGTERM and waits at most timeout for the process to exit; past
// that it kills it and returns an error. It returns the exit code.
func (p *Process) Stop(timeout time.Duration) (int, error) {
	if err := p.signal(syscall.SIGTERM); err != nil {
		return p.exitCode(), err
	}
	code, err := p.Wait(timeout)
	if err != nil {
		_, _ = p.Kill()
		return code, fmt.Errorf("%w after SIGTERM; killed it", err)
	}
	return code, nil
}

// Kill sends SIGKILL and waits for the process to exit.
func (p *Process) Kill() (int, error) {
	if err := p.signal(syscall.SIGKILL); err != nil {
		return p.exitCode(), err
	}
	return p.Wait(time.Minute)
}

// Restart stops the process (SIGTERM, bounded by timeout), starts it again and
// waits for it to be ready, again bounded by timeout.
func (p *Process) Restart(timeout time.Duration) error {
	if p.Running() {
		if _, err := p.Stop(timeout); err != nil {
			return err
		}
	}
	if err := p.Start(); err != nil {
		return err
	}
	return p.WaitReady(timeout)
}

// KillAndStart kills the process with SIGKILL, as a crash or the kubelet
// killing a container would end it (no shutdown code runs, no lease is
// released), starts it again with the same arguments and environment, and
// waits at most timeout for it to be ready.
func (p *Process) KillAndStart(timeout time.Duration) error {
	if _, err := p.Kill(); err != nil && !errors.Is(err, ErrNotRunning) {
		return err
	}
	if err := p.Start(); err != nil {
		return err
	}
	return p.WaitReady(timeout)
}

func (p *Process) signal(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.state != nil {
		return ErrNotRunning
	}
	return p.cmd.Process.Signal(sig)
}

func (p *Process) exitCode() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state.ExitCode()
}

func (p *Process) exitDescription() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state == nil {
		return "running"
	}
	return p.state.String()
}

// Tail returns the last n lines of the log file.
func (p *Process) Tail(n int) string {
	return tailFile(p.LogPath, n)
}

// FreePort asks the kernel for a free TCP port on 127.0.0.1.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}
