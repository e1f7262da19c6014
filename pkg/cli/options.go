package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/manifestwork/work/pkg/client/clientset/versioned"
)

// Options are the connection flags of every `work fleet` command, as
// kubectl names them.
type Options struct {
	Kubeconfig string // --kubeconfig; else $KUBECONFIG, else ~/.kube/config
	Context    string // --context; else the kubeconfig's current context
	Namespace  string // -n/--namespace; else the context's namespace, else "default"

	// Client, when set (by tests), is used instead of the kubeconfig, with
	// Namespace or "default".
	Client versioned.Interface
	// Kube, with Client, is the client of Kubernetes' API (ControllerRevisions).
	Kube kubernetes.Interface
	// Dynamic, with Client, reads what the hub may serve or not (OCM's
	// ManagedClusters).
	Dynamic dynamic.Interface
	// Out receives what the commands print; ErrOut what goes wrong for a
	// part of it while the rest is printed.
	Out, ErrOut io.Writer
	// Now is the clock of the AGE columns.
	Now func() time.Time
}

// NewOptions returns the defaults documented in the flag help.
func NewOptions() *Options {
	return &Options{Out: os.Stdout, ErrOut: os.Stderr, Now: time.Now}
}

// AddFlags registers the connection flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "Path to the hub's kubeconfig file; else $KUBECONFIG, else ~/.kube/config.")
	fs.StringVar(&o.Context, "context", o.Context, "The kubeconfig context to use; else its current context.")
	fs.StringVarP(&o.Namespace, "namespace", "n", o.Namespace, "The replica set's namespace; else the context's namespace, else default.")
}

// Validate has nothing to check before connecting; it is here for the
// pattern, and for flags to come.
func (o *Options) Validate() error { return nil }

// connect returns the hub's client and the namespace of the command.
func (o *Options) connect() (versioned.Interface, string, error) {
	h, err := o.connectHub()
	return h.work, h.namespace, err
}

// hub is what a command reaches the hub with: the clients of our API and of
// Kubernetes' (for ControllerRevisions), a dynamic one, and the command's
// namespace.
type hub struct {
	work      versioned.Interface
	kube      kubernetes.Interface
	dynamic   dynamic.Interface
	namespace string
}

// connectHub makes the clients from the kubeconfig (or takes o.Client,
// o.Kube and o.Dynamic).
func (o *Options) connectHub() (hub, error) {
	if o.Client != nil {
		return hub{work: o.Client, kube: o.Kube, dynamic: o.Dynamic, namespace: cmpOr(o.Namespace, "default")}, nil
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = o.Kubeconfig
	config := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: o.Context})
	h := hub{namespace: o.Namespace}
	if h.namespace == "" {
		ns, _, err := config.Namespace()
		if err != nil {
			return hub{}, usageError(fmt.Errorf("kubeconfig: %w", err))
		}
		h.namespace = ns
	}
	rest, err := config.ClientConfig()
	if err != nil {
		return hub{}, usageError(fmt.Errorf("kubeconfig: %w", err))
	}
	if h.work, err = versioned.NewForConfig(rest); err != nil {
		return hub{}, usageError(err)
	}
	if h.kube, err = kubernetes.NewForConfig(rest); err != nil {
		return hub{}, usageError(err)
	}
	if h.dynamic, err = dynamic.NewForConfig(rest); err != nil {
		return hub{}, usageError(err)
	}
	return h, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Output formats of -o: a table by default.
const (
	OutputTable = ""
	OutputWide  = "wide"
	OutputYAML  = "yaml"
	OutputJSON  = "json"
)

// OutputOptions is -o/--output.
type OutputOptions struct {
	Output string
}

// AddFlags registers -o.
func (o *OutputOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.Output, "output", "o", o.Output, "Output format: yaml, json or wide; a table by default.")
}

// Validate refuses other formats, with exit code 2.
func (o *OutputOptions) Validate() error {
	if !slices.Contains([]string{OutputTable, OutputWide, OutputYAML, OutputJSON}, o.Output) {
		return exitf(ExitUsage, "--output %q: want one of yaml, json, wide", o.Output)
	}
	return nil
}

// Wait conditions of --for.
const (
	ForRolledOut = "rolled-out"
	ForHealthy   = "healthy"
)

// WaitOptions are the flags of wait.
type WaitOptions struct {
	For     string        // --for
	Timeout time.Duration // --timeout
}

// NewWaitOptions returns the defaults documented in the flag help.
func NewWaitOptions() *WaitOptions {
	return &WaitOptions{For: ForRolledOut, Timeout: 10 * time.Minute}
}

// AddFlags registers --for and --timeout.
func (o *WaitOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.For, "for", o.For, "What to wait for: rolled-out (every selected cluster's work has what the hub writes to it now, the template or its render with WorkOverrides, and has succeeded) or healthy (rolled out, and every work Healthy).")
	fs.DurationVar(&o.Timeout, "timeout", o.Timeout, "How long to wait; past it the command exits 3.")
}

// Validate refuses an unknown --for or a timeout that is not positive.
func (o *WaitOptions) Validate() error {
	var problems []string
	if o.For != ForRolledOut && o.For != ForHealthy {
		problems = append(problems, fmt.Sprintf("--for %q: want rolled-out or healthy", o.For))
	}
	if o.Timeout <= 0 {
		problems = append(problems, fmt.Sprintf("--timeout must be positive, got %s", o.Timeout))
	}
	if len(problems) > 0 {
		return exitf(ExitUsage, "%s", strings.Join(problems, "; "))
	}
	return nil
}

// WorksOptions are the flags of get works.
type WorksOptions struct {
	OutputOptions
	Cluster string // --cluster; else every cluster
}

// AddFlags registers --cluster and -o.
func (o *WorksOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Cluster, "cluster", o.Cluster, "Only the works of this managed cluster (its namespace on the hub); else every cluster's.")
	o.OutputOptions.AddFlags(fs)
}
