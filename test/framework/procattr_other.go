//go:build !linux

package framework

import "syscall"

// childProcAttr has nothing to add outside Linux; the reaper cleans up.
func childProcAttr() *syscall.SysProcAttr { return nil }
