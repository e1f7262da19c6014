// Package cetest holds what the tests of the CloudEvents transports share:
// a throw-away certificate authority and a Handler that records what a
// transport tells it. Only tests import it.
package cetest
