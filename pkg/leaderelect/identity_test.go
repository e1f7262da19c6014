package leaderelect

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"
)

func TestIdentityIsThePodNameWhenSet(t *testing.T) {
	t.Setenv(PodNameEnv, "work-agent-5d8f7-x2k9q")
	for range 2 {
		got, err := Identity()
		require.NoError(t, err)
		assert.Equal(t, "work-agent-5d8f7-x2k9q", got, "every start in the pod has the same identity")
	}
}

// unsetPodName removes POD_NAME for the test.
func unsetPodName(t *testing.T) {
	t.Setenv(PodNameEnv, "") // restores it when t ends
	require.NoError(t, os.Unsetenv(PodNameEnv))
}

func TestIdentityIsUniquePerProcessWithoutPodName(t *testing.T) {
	unsetPodName(t)
	host, err := os.Hostname()
	require.NoError(t, err)
	first, err := Identity()
	require.NoError(t, err)
	second, err := Identity()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(first, host+"_"), "%q starts with the hostname", first)
	assert.NotEqual(t, first, second, "each start has an identity of its own")
}

// A lease renewed just now by holder, for an hour: only holder may take it
// before it expires.
func heldLease(holder string) *coordinationv1.Lease {
	now := metav1.NewMicroTime(time.Now())
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "work-agent"},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity: &holder, LeaseDurationSeconds: ptr.To[int32](3600),
			AcquireTime: &now, RenewTime: &now,
		},
	}
}

// countLeaseGets counts the reads of the lease, each a try to acquire it.
func countLeaseGets(client *fake.Clientset) func() int {
	return func() int {
		n := 0
		for _, a := range client.Actions() {
			if a.Matches("get", "leases") {
				n++
			}
		}
		return n
	}
}

// A process started again in the pod that held the lease, after a crash that
// left the lease unexpired, leads at once; any other process waits for the
// lease to expire.
func TestRestartedPodTakesItsLeaseBackAtOnce(t *testing.T) {
	cases := map[string]struct {
		podName string
		leads   bool
	}{
		"same pod":    {podName: "work-agent-a", leads: true},
		"another pod": {podName: "work-agent-b", leads: false},
		"no pod name": {podName: "", leads: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.podName == "" {
				unsetPodName(t)
			} else {
				t.Setenv(PodNameEnv, tc.podName)
			}
			client := fake.NewClientset(heldLease("work-agent-a"))
			lock, err := newLeaseLock(client, "ns", "work-agent")
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			led := make(chan struct{})
			cfg := Config{Lock: lock, LeaseDuration: 10 * time.Second, RenewDeadline: 5 * time.Second, RetryPeriod: 20 * time.Millisecond}
			errc := runAsync(ctx, cfg, func(ctx context.Context) error {
				close(led)
				<-ctx.Done()
				return nil
			})

			if tc.leads {
				select {
				case <-led:
				case <-time.After(10 * time.Second):
					t.Fatal("the restarted holder did not take its unexpired lease back")
				}
			} else {
				gets := countLeaseGets(client)
				require.Eventually(t, func() bool { return gets() >= 5 }, 10*time.Second, 10*time.Millisecond,
					"the standby keeps trying")
				select {
				case <-led:
					t.Fatal("another identity took a lease that has not expired")
				default:
				}
			}
			cancel()
			require.NoError(t, <-errc)
			if !tc.leads {
				lease, err := client.CoordinationV1().Leases("ns").Get(context.Background(), "work-agent", metav1.GetOptions{})
				require.NoError(t, err)
				assert.Equal(t, "work-agent-a", *lease.Spec.HolderIdentity, "a standby leaves the holder's lease alone")
			}
		})
	}
}
