package healthz

import (
	"fmt"
	"net"
	"strconv"
)

// ValidateAddress checks a --health-probe-bind-address value: "0" (disabled)
// or host:port with a port in 0-65535 (0 picks a free port).
func ValidateAddress(addr string) error {
	if addr == Disabled {
		return nil
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--health-probe-bind-address %q: want host:port, :port or 0 to disable", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("--health-probe-bind-address %q: invalid port %q", addr, port)
	}
	return nil
}
