package leaderelect

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// memLock is an in-memory lease. Updates fail once failUpdates is set.
type memLock struct {
	mu          sync.Mutex
	record      *resourcelock.LeaderElectionRecord
	failUpdates bool
	updates     int
}

func (l *memLock) Get(context.Context) (*resourcelock.LeaderElectionRecord, []byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.record == nil {
		return nil, nil, apierrors.NewNotFound(schema.GroupResource{Group: "coordination.k8s.io", Resource: "leases"}, "test")
	}
	r := *l.record
	return &r, []byte(r.HolderIdentity + r.RenewTime.String()), nil
}

func (l *memLock) Create(_ context.Context, r resourcelock.LeaderElectionRecord) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.record = &r
	return nil
}

func (l *memLock) Update(_ context.Context, r resourcelock.LeaderElectionRecord) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failUpdates {
		return errors.New("injected update failure")
	}
	l.updates++
	l.record = &r
	return nil
}

func (l *memLock) holder() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.record == nil {
		return ""
	}
	return l.record.HolderIdentity
}

func (l *memLock) RecordEvent(string) {}
func (l *memLock) Describe() string   { return "test-ns/test-lease" }
func (l *memLock) Identity() string   { return "me" }
func (l *memLock) setFailUpdates(f bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failUpdates = f
}

// fastConfig shortens the timings so that losing the lease takes 200ms.
func fastConfig(lock *memLock) Config {
	return Config{Lock: lock, LeaseDuration: time.Second, RenewDeadline: 200 * time.Millisecond, RetryPeriod: 20 * time.Millisecond}
}

func runAsync(ctx context.Context, cfg Config, work func(context.Context) error) <-chan error {
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, cfg, work) }()
	return errc
}

func TestCancelWaitsForWorkThenReleases(t *testing.T) {
	lock := &memLock{}
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var holderWhenWorkEnded string
	errc := runAsync(ctx, fastConfig(lock), func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		holderWhenWorkEnded = lock.holder()
		return nil
	})

	<-started
	assert.Equal(t, "me", lock.holder())
	cancel()
	require.NoError(t, <-errc)
	assert.Equal(t, "me", holderWhenWorkEnded, "the lease is kept until the work has returned")
	assert.Empty(t, lock.holder(), "the lease is released on cancel")
}

func TestWorkErrorIsReturnedAndLeaseReleased(t *testing.T) {
	lock := &memLock{}
	err := Run(context.Background(), fastConfig(lock), func(context.Context) error {
		return errors.New("boom")
	})
	require.EqualError(t, err, "boom")
	assert.Empty(t, lock.holder())
}

func TestLostLeaseIsAnError(t *testing.T) {
	lock := &memLock{}
	err := Run(context.Background(), fastConfig(lock), func(ctx context.Context) error {
		lock.setFailUpdates(true)
		<-ctx.Done()
		return nil
	})
	require.EqualError(t, err, "lost the leader election lease test-ns/test-lease")
}

func TestStandbyCancelledBeforeLeadingNeverRunsWork(t *testing.T) {
	other := time.Now()
	lock := &memLock{}
	require.NoError(t, lock.Create(context.Background(), resourcelock.LeaderElectionRecord{
		HolderIdentity: "someone-else", LeaseDurationSeconds: 3600,
		AcquireTime: metav1.NewTime(other), RenewTime: metav1.NewTime(other),
	}))
	ctx, cancel := context.WithCancel(context.Background())
	cfg := fastConfig(lock)
	standby := make(chan struct{})
	cfg.OnStandby = func() { close(standby) }

	errc := runAsync(ctx, cfg, func(context.Context) error {
		t.Error("work must not run without the lease")
		return nil
	})
	<-standby
	cancel()
	require.NoError(t, <-errc)
	assert.Equal(t, "someone-else", lock.holder(), "a standby does not touch another holder's lease")
}

func TestInvalidTimings(t *testing.T) {
	cfg := Config{Lock: &memLock{}, LeaseDuration: time.Second, RenewDeadline: 2 * time.Second, RetryPeriod: time.Millisecond}
	err := Run(context.Background(), cfg, func(context.Context) error { return nil })
	require.EqualError(t, err, "leader election: leaseDuration must be greater than renewDeadline")
}
