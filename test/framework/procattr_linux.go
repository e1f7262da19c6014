package framework

import "syscall"

// childProcAttr makes the kernel kill a child when the test process dies, so
// a panicking test does not leave work processes behind.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
