package framework

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
)

// Suite is an environment shared by the tests of one package, set up once in
// TestMain by Main. Teardown must cope with a Setup that failed half way or
// is still running (Main calls it from a signal handler too).
type Suite interface {
	Setup() error
	Teardown(failed bool)
}

// mainActive is set by Main; only then can the framework re-execute the test
// binary as a reaper.
var mainActive bool

// Main is the body of TestMain for packages that use a Suite:
//
//	func TestMain(m *testing.M) { framework.Main(m, suite) }
//
// It sets the suite up, runs the tests and tears the suite down, also on
// SIGINT or SIGTERM (a second signal exits at once). A panic or a SIGKILL
// skips teardown in this process, but then the reaper (see RunDir) or the
// next run cleans up. Without a test bed (see SkipReason) the suite is not set
// up and the tests are expected to skip.
func Main(m *testing.M, suite Suite) {
	if dir := os.Getenv(envReaper); dir != "" {
		os.Exit(runReaper(dir))
	}
	mainActive = true
	flag.Parse()
	if reason := SkipReason(); reason != "" {
		fmt.Fprintln(os.Stderr, "framework: tests will skip:", reason)
		os.Exit(m.Run())
	}
	if listing() {
		os.Exit(m.Run())
	}
	os.Exit(runSuite(m, suite))
}

// listing reports whether go test was asked only to list the tests.
func listing() bool {
	f := flag.Lookup("test.list")
	return f != nil && f.Value.String() != ""
}

func runSuite(m *testing.M, suite Suite) int {
	// A broken stdout (go test interrupted first) must not kill us mid-teardown.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	var once sync.Once
	teardown := func(failed bool) { once.Do(func() { suite.Teardown(failed) }) }
	stop := onSignal(teardown)
	defer stop()
	if err := suite.Setup(); err != nil {
		fmt.Fprintf(os.Stderr, "framework: setup failed: %v\n", err)
		teardown(true)
		return 1
	}
	code := m.Run()
	teardown(code != 0)
	return code
}

// onSignal tears down and exits on SIGINT or SIGTERM. The returned function
// stops listening.
func onSignal(teardown func(failed bool)) func() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			fmt.Fprintf(os.Stderr, "framework: got %v, tearing down (send it again to exit at once)\n", sig)
			go func() {
				<-sigs
				os.Exit(1)
			}()
			teardown(true)
			os.Exit(1)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
