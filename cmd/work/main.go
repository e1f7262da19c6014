// Command work runs the ManifestWork hub or the work agent.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/cli"
)

func main() {
	os.Exit(run())
}

func run() int {
	// SIGTERM or SIGINT cancels ctx and the command shuts down cleanly. The
	// signal handler is then removed, so a second signal ends the process at once.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()

	root := newRootCommand(os.Args[0])
	root.SetArgs(withoutOwnPath(os.Args[1:]))
	cmd, err := root.ExecuteContextC(ctx)
	klog.Flush()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error: "+oneLine(err.Error()))
	}
	return exitCode(cmd, err)
}

// exitCode is 0 without an error. The fleet commands exit as their
// cli.ExitError says, and 2 (usage) on any other error, such as a flag
// cobra refused; the other commands exit 1.
func exitCode(cmd *cobra.Command, err error) int {
	fallback := 1
	for c := cmd; c != nil; c = c.Parent() {
		if c.Name() == "fleet" && c.Parent() != nil && !c.Parent().HasParent() {
			fallback = cli.ExitUsage
		}
	}
	return cli.ExitCode(err, fallback)
}

// withoutOwnPath drops a first argument naming this binary itself. OCM's
// operators start the image with args ["/work", "agent", ...] and no
// command, for an image whose binary is /work and that has no entrypoint;
// with this image's ENTRYPOINT ["/work"] that runs `/work /work agent ...`.
func withoutOwnPath(args []string) []string {
	if len(args) == 0 || !strings.ContainsRune(args[0], filepath.Separator) {
		return args
	}
	self, err := os.Executable()
	if err != nil {
		return args
	}
	selfInfo, err := os.Stat(self)
	if err != nil {
		return args
	}
	if argInfo, err := os.Stat(args[0]); err == nil && os.SameFile(selfInfo, argInfo) {
		return args[1:]
	}
	return args
}

// oneLine keeps the error on the single line promised to users and scripts.
func oneLine(msg string) string {
	var parts []string
	for _, line := range strings.Split(msg, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, "; ")
}
