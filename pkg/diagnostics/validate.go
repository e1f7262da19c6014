package diagnostics

import (
	"fmt"
	"net"
	"strconv"
)

// ValidateAddress checks the value of an address flag such as
// --health-probe-bind-address: "0" (disabled) or host:port with a port in
// 0-65535 (0 picks a free port).
func ValidateAddress(flag, addr string) error {
	if addr == Disabled {
		return nil
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q: want host:port, :port or 0 to disable", flag, addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%s %q: invalid port %q", flag, addr, port)
	}
	return nil
}
