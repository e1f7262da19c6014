package agent

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/cloudevents"
	cegrpc "github.com/manifestwork/work/pkg/agent/cloudevents/grpc"
	"github.com/manifestwork/work/pkg/agent/cloudevents/mqtt"
	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/kubeconn/outage"
	"github.com/manifestwork/work/pkg/startup"
)

// hubConnection is the agent's way to the hub it takes works from: where the
// works of its cluster namespace are listed, watched and written, where the
// Events on them go, and the address its AppliedManifestWorks know the hub
// by. The hub's kube-apiserver (kubeHub, --workload-source-driver=kube) is
// one implementation; a driver that delivers works as messages would be
// another, chosen in dialHub, and nothing past this interface changes.
type hubConnection interface {
	// WatchClient lists and watches the works for the informers; its
	// requests wait through an outage of the hub.
	WatchClient() versioned.Interface
	// Client writes the works' status and finalizers; it fails at once, as
	// its errors belong on the works.
	Client() versioned.Interface
	// EventSink takes the Events on works.
	EventSink() record.EventSink
	// Address names the hub in logs and, hashed, in the names of the
	// AppliedManifestWorks (appliedwork.HubHash).
	Address() string
	// Monitor tells when the hub answers again after an outage; it runs
	// before the informers start.
	Monitor() outage.Connection
}

// dialHub returns the connection to the hub named by the agent's options.
// It only builds clients: the hub was probed once at startup (connect), or
// the source's config file was loaded then.
func dialHub(d agentDeps) (hubConnection, error) {
	if d.Source != nil {
		return newCloudEventsHub(d)
	}
	return newKubeHub(d.Hub)
}

// source is a driver that delivers works as CloudEvents: its transport,
// built from the config file but not connected, and the agent's client ID.
type source struct {
	Transport cloudevents.Transport
	ClientID  string
}

// sourceConfig is what the agent learns from a CloudEvents driver's config
// file besides its transport: the credentials it holds, and what travels
// in clear ("" over TLS).
type sourceConfig struct {
	credentials []startup.Credential
	clearText   string
}

// transports are the drivers that deliver works as CloudEvents, by
// --workload-source-driver: each loads its config file and builds a
// transport that has not connected yet.
var transports = map[string]func(config, cluster, clientID string) (cloudevents.Transport, sourceConfig, error){
	MQTTDriver: func(config, cluster, clientID string) (cloudevents.Transport, sourceConfig, error) {
		cfg, err := mqtt.Load(config)
		if err != nil {
			return nil, sourceConfig{}, err
		}
		t, err := mqtt.New(cfg, cluster, clientID)
		return t, sourceConfig{
			credentials: startup.CertificateCredential(cloudEventsClientCert, cfg.ClientCertFile, cfg.ClientCertData),
			clearText:   cfg.ClearText(),
		}, err
	},
	GRPCDriver: func(config, cluster, clientID string) (cloudevents.Transport, sourceConfig, error) {
		cfg, err := cegrpc.Load(config)
		if err != nil {
			return nil, sourceConfig{}, err
		}
		t, err := cegrpc.New(cfg, cluster, clientID)
		return t, sourceConfig{
			credentials: append(startup.CertificateCredential(cloudEventsClientCert, cfg.ClientCertFile, cfg.ClientCertData),
				startup.TokenCredential("cloudevents-token", cfg.TokenFile, cfg.Token)...),
			clearText: cfg.ClearText(),
		}, err
	},
}

// cloudEventsClientCert names the client certificate of a CloudEvents
// driver in work_credential_expiry_timestamp_seconds.
const cloudEventsClientCert = "cloudevents-client-cert"

// dialSource loads the config file of a CloudEvents driver and builds its
// transport. The broker need not answer yet: the Hub connects once the
// agent runs. It warns once when the works, or credentials, would travel
// in clear, and follows the expiry of the credentials the config names.
func dialSource(ctx context.Context, o *Options) (*source, error) {
	newTransport, ok := transports[o.WorkloadSourceDriver]
	if !ok {
		return nil, fmt.Errorf("--workload-source-driver %q is not supported", o.WorkloadSourceDriver)
	}
	t, cfg, err := newTransport(o.WorkloadSourceConfig, o.ClusterName, o.cloudEventsClientID())
	if err != nil {
		return nil, fmt.Errorf("--workload-source-config: %w", err)
	}
	if cfg.clearText != "" {
		klog.FromContext(ctx).Info("Warning: the connection to the source is not encrypted: "+cfg.clearText+" travel in clear",
			"driver", o.WorkloadSourceDriver, "config", o.WorkloadSourceConfig)
	}
	o.WatchCredentials(ctx, cfg.credentials...)
	return &source{Transport: t, ClientID: o.cloudEventsClientID()}, nil
}

// newCloudEventsHub is the Hub of a CloudEvents driver. It names new works
// by the AppliedManifestWorks it finds on the managed cluster, so that it
// takes over from any version of OCM's agent.
func newCloudEventsHub(d agentDeps) (*cloudevents.Hub, error) {
	spoke, err := versioned.NewForConfig(d.Spoke)
	if err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	applied := spoke.WorkV1().AppliedManifestWorks()
	hash := appliedwork.HubHash(d.Source.Transport.Address())
	return cloudevents.NewHub(cloudevents.Deps{
		ClusterName: d.ClusterName, ClientID: d.Source.ClientID, Transport: d.Source.Transport,
		Applied: func(ctx context.Context, workName string) (bool, error) {
			_, err := applied.Get(ctx, appliedwork.Name(hash, workName), metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return err == nil, err
		},
	}), nil
}

// kubeHub is the hub's kube-apiserver.
type kubeHub struct {
	address       string
	watch, client versioned.Interface
	kube          kubernetes.Interface // Events
	monitor       *outage.Monitor
}

func newKubeHub(cfg *rest.Config) (*kubeHub, error) {
	h := &kubeHub{address: cfg.Host}
	var err error
	if h.client, err = versioned.NewForConfig(cfg); err != nil {
		return nil, fmt.Errorf("hub client: %w", err)
	}
	if h.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, fmt.Errorf("hub client: %w", err)
	}
	monitor, httpClient, err := monitored("hub", cfg)
	if err != nil {
		return nil, err
	}
	h.monitor = monitor
	if h.watch, err = versioned.NewForConfigAndClient(cfg, httpClient); err != nil {
		return nil, fmt.Errorf("hub client: %w", err)
	}
	return h, nil
}

func (h *kubeHub) WatchClient() versioned.Interface { return h.watch }
func (h *kubeHub) Client() versioned.Interface      { return h.client }
func (h *kubeHub) Address() string                  { return h.address }
func (h *kubeHub) Monitor() outage.Connection       { return h.monitor }

func (h *kubeHub) EventSink() record.EventSink {
	return &corev1client.EventSinkImpl{Interface: h.kube.CoreV1().Events("")}
}
