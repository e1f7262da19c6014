// Command work runs the ManifestWork hub or the work agent.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"k8s.io/klog/v2"
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

	err := newRootCommand().ExecuteContext(ctx)
	klog.Flush()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error: "+oneLine(err.Error()))
		return 1
	}
	return 0
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
