// Package cli is what the `work fleet` commands do (cmd/work only wires
// their flags): status, get works, pause, resume and wait on a hub, with
// kubectl's conventions (--kubeconfig, --context, -n, -o) and one exit-code
// convention for every command (see ExitError).
package cli
