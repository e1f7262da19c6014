//go:build linux

package bench

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fleet is the agent processes of the simulated clusters, one each.
type fleet struct {
	mu     sync.Mutex
	agents []*agentProcess
	// anyExit is closed when the first agent exits: the fleet's phases wait
	// on it as TestBench's wait on its one agent.
	anyExit chan struct{}
	once    sync.Once
	// lowMemory is MemAvailable, in MB, when the guard stopped the fleet.
	lowMemory atomic.Int64
}

func newFleet() *fleet { return &fleet{anyExit: make(chan struct{})} }

// start starts one agent and watches for its exit.
func (f *fleet) start(command, logPath string) error {
	a, err := startAgentProcess(command, logPath)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.agents = append(f.agents, a)
	f.mu.Unlock()
	go func() {
		<-a.exited()
		f.once.Do(func() { close(f.anyExit) })
	}()
	return nil
}

// exited is closed once any agent has exited.
func (f *fleet) exited() <-chan struct{} { return f.anyExit }

func (f *fleet) list() []*agentProcess {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*agentProcess(nil), f.agents...)
}

// stop stops every agent at once, each with SIGTERM and then SIGKILL past
// timeout, and reports the agents that had exited or had to be killed.
func (f *fleet) stop(timeout time.Duration) error {
	agents := f.list()
	errs := make([]error, len(agents))
	var wg sync.WaitGroup
	for i, a := range agents {
		wg.Go(func() {
			if err := a.stop(timeout); err != nil {
				errs[i] = fmt.Errorf("agent %d (log %s): %w", i, a.log, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// fleetFootprint is the agents' footprint, from /proc.
type fleetFootprint struct {
	Agents        int     `json:"agents"`
	CPUSeconds    float64 `json:"cpuSeconds"`    // sum of utime + stime
	SumRSSMB      float64 `json:"sumRssMB"`      // sum of VmRSS
	MaxRSSMB      float64 `json:"maxRssMB"`      // largest VmRSS
	MaxPeakRSSMB  float64 `json:"maxPeakRssMB"`  // largest VmHWM
	MeanPeakRSSMB float64 `json:"meanPeakRssMB"` // mean VmHWM
}

// footprint reads every agent's /proc.
func (f *fleet) footprint() (fleetFootprint, error) {
	var fp fleetFootprint
	var sumPeak float64
	for _, a := range f.list() {
		s, err := readProcStats(a.pid())
		if err != nil {
			return fp, fmt.Errorf("agent %s: %w", a.log, err)
		}
		fp.Agents++
		fp.CPUSeconds += s.CPUSeconds
		fp.SumRSSMB += s.RSSMB
		fp.MaxRSSMB = max(fp.MaxRSSMB, s.RSSMB)
		fp.MaxPeakRSSMB = max(fp.MaxPeakRSSMB, s.PeakRSSMB)
		sumPeak += s.PeakRSSMB
	}
	if fp.Agents > 0 {
		fp.MeanPeakRSSMB = sumPeak / float64(fp.Agents)
	}
	return fp, nil
}

// cpuSeconds is the agents' CPU time so far, summed.
func (f *fleet) cpuSeconds() (float64, error) {
	fp, err := f.footprint()
	return fp.CPUSeconds, err
}

// minAvailableMB is the machine's MemAvailable below which the memory guard
// kills the fleet: a fleet too large for the machine then fails the bench
// instead of taking the machine down with it.
const minAvailableMB = 1536

// guardMemory checks MemAvailable every second until stop is closed, and
// kills every agent when it falls below minMB. A watchdog of the machine,
// not a wait for a state of the test.
func (f *fleet) guardMemory(stop <-chan struct{}, minMB int) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		if mb := meminfoMB("MemAvailable"); mb > 0 && mb < minMB {
			f.lowMemory.Store(int64(mb))
			for _, a := range f.list() {
				_ = a.kill()
			}
			return
		}
	}
}

// stoppedForMemory explains why the guard stopped the fleet, or is "".
func (f *fleet) stoppedForMemory() string {
	if mb := f.lowMemory.Load(); mb > 0 {
		return fmt.Sprintf("the memory guard killed every agent: MemAvailable fell to %d MB", mb)
	}
	return ""
}

// The guard kills the fleet once memory is short: here, with a floor above
// the machine's memory, at its first look.
func TestMemoryGuard(t *testing.T) {
	f := newFleet()
	for range 2 {
		if err := f.start("sleep 600", filepath.Join(t.TempDir(), "agent.log")); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	defer close(stop)
	go f.guardMemory(stop, memTotalMB()+1)
	select {
	case <-f.exited():
	case <-time.After(30 * time.Second):
		_ = f.stop(time.Second)
		t.Fatal("the guard did not stop the fleet")
	}
	if f.stoppedForMemory() == "" {
		t.Error("no reason given")
	}
	for _, a := range f.list() {
		<-a.exited()
	}
}
