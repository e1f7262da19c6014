package cli

import (
	"errors"
	"fmt"
)

// Exit codes of every `work fleet` command.
const (
	// ExitOK: done; the rollout is as asked.
	ExitOK = 0
	// ExitFailed: the thing failed, stopped, aborted or differs.
	ExitFailed = 1
	// ExitUsage: a usage or connection error; the command could not look.
	ExitUsage = 2
	// ExitTimedOut: the condition did not hold within --timeout.
	ExitTimedOut = 3
)

// ExitError is an error with the exit code the process ends with.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

func exitf(code int, format string, args ...any) error {
	return &ExitError{Code: code, Err: fmt.Errorf(format, args...)}
}

// usageError marks err, of a request to the hub or of the arguments, as
// exit code 2, unless it carries a code already.
func usageError(err error) error {
	if err == nil {
		return nil
	}
	var e *ExitError
	if errors.As(err, &e) {
		return err
	}
	return &ExitError{Code: ExitUsage, Err: err}
}

// ExitCode is the exit code of err: its ExitError's, else fallback.
func ExitCode(err error, fallback int) int {
	var e *ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &e):
		return e.Code
	}
	return fallback
}
