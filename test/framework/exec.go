package framework

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Result is what a finished command printed and how it ended.
type Result struct {
	Stdout   string
	Stderr   string
	ExitCode int
}

// command describes one run of an external program.
type command struct {
	name    string
	args    []string
	env     []string // added to this process's environment
	dir     string
	timeout time.Duration
	logPath string // if set, the command line and its output are appended here
}

// run runs c, bounded by ctx and c.timeout. It returns an error when the
// program cannot start, is stopped by the bound, or exits non-zero; the error
// then carries the end of its stderr.
func (c command) run(ctx context.Context) (Result, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, c.name, c.args...)
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Dir = c.dir
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Programs that start daemons (kwokctl) may leave the pipes open.
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	res := Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: cmd.ProcessState.ExitCode()}
	c.log(res, err)
	if err != nil {
		return res, fmt.Errorf("%s %s: %w: %s", c.name, strings.Join(c.args, " "), err, lastLines(res.Stderr, 20))
	}
	return res, nil
}

func (c command) log(res Result, err error) {
	if c.logPath == "" {
		return
	}
	f, ferr := os.OpenFile(c.logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if ferr != nil {
		return
	}
	defer func() { _ = f.Close() }()
	_, _ = fmt.Fprintf(f, "=== %s $ %s %s\n%s%s=== exit %d err=%v\n",
		time.Now().Format(time.RFC3339), c.name, strings.Join(c.args, " "),
		res.Stdout, res.Stderr, res.ExitCode, err)
}

// lastLines returns at most n trailing lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// tailFile returns at most n trailing lines of a file, or a note why it cannot.
func tailFile(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", path, err)
	}
	return lastLines(string(data), n)
}
