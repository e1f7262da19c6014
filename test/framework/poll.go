package framework

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// PollInterval is how often the polling helpers check their condition.
const PollInterval = 200 * time.Millisecond

// Eventually calls cond every PollInterval until it returns nil, and fails t
// with cond's last error if that has not happened within timeout.
func Eventually(t testing.TB, timeout time.Duration, cond func() error, msgAndArgs ...any) {
	t.Helper()
	var last error
	err := poll(context.Background(), timeout, func(context.Context) (bool, error) {
		last = cond()
		return last == nil, nil
	})
	if err != nil {
		t.Fatalf("%s: not true within %s; last: %v", message(msgAndArgs), timeout, last)
	}
}

func message(msgAndArgs []any) string {
	if len(msgAndArgs) == 0 {
		return "condition"
	}
	if format, ok := msgAndArgs[0].(string); ok {
		return fmt.Sprintf(format, msgAndArgs[1:]...)
	}
	return fmt.Sprint(msgAndArgs...)
}

// poll calls cond every PollInterval, at once first, until it returns true or
// an error, ctx ends, or timeout passes.
func poll(ctx context.Context, timeout time.Duration, cond func(context.Context) (bool, error)) error {
	err := wait.PollUntilContextTimeout(ctx, PollInterval, timeout, true, cond)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("timed out after %s", timeout)
	}
	return err
}

// Consistently calls cond every PollInterval for the whole duration and fails
// t as soon as it returns an error: for what must stay true for a while, such
// as an object that nothing may delete.
func Consistently(t testing.TB, duration time.Duration, cond func() error, msgAndArgs ...any) {
	t.Helper()
	var failed error
	err := poll(context.Background(), duration, func(context.Context) (bool, error) {
		failed = cond()
		return failed != nil, nil
	})
	if failed != nil {
		t.Fatalf("%s: stopped holding: %v", message(msgAndArgs), failed)
	}
	if err != nil && !strings.HasPrefix(err.Error(), "timed out") {
		t.Fatalf("%s: %v", message(msgAndArgs), err)
	}
}
