package framework

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// APIServer is a real kube-apiserver and etcd from the test bed, started by
// controller-runtime's envtest, with CRDs installed. It is a Suite.
type APIServer struct {
	// CRDDirs are installed at start, and must hold at least one CRD each.
	CRDDirs []string
	// Clients are admin clientsets, set by Setup.
	*Clients
	// KubeconfigPath is an admin kubeconfig file, set by Setup.
	KubeconfigPath string
	// Run is the folder of this run (etcd data, certificates, kubeconfigs).
	Run *RunDir

	env *envtest.Environment
}

// NewAPIServer returns an APIServer that Setup (or Start) will start with
// crdDirs installed.
func NewAPIServer(crdDirs ...string) *APIServer {
	return &APIServer{CRDDirs: crdDirs}
}

// StartAPIServer starts an API server with crdDirs installed; Stop stops it.
func StartAPIServer(crdDirs ...string) (*APIServer, error) {
	s := NewAPIServer(crdDirs...)
	if err := s.Start(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Setup implements Suite.
func (s *APIServer) Setup() error { return s.Start() }

// Teardown implements Suite.
func (s *APIServer) Teardown(bool) { s.Stop() }

// Start starts etcd and kube-apiserver, installs the CRDs and writes an admin
// kubeconfig.
func (s *APIServer) Start() error {
	// envtest logs through controller-runtime, which complains unless a logger is set.
	ctrllog.SetLogger(logr.Discard())
	bin, err := TestbedBin()
	if err != nil {
		return err
	}
	if err := checkCRDDirs(s.CRDDirs); err != nil {
		return err
	}
	if s.Run, err = NewRunDir(); err != nil {
		return err
	}
	if s.env, err = s.newEnvironment(bin); err != nil {
		return err
	}
	config, err := s.env.Start()
	if err != nil {
		return fmt.Errorf("framework: start envtest: %w", err)
	}
	if s.Clients, err = NewClients(config); err != nil {
		return err
	}
	s.KubeconfigPath = s.Run.Join("admin.kubeconfig")
	return os.WriteFile(s.KubeconfigPath, s.env.KubeConfig, 0o600)
}

func (s *APIServer) newEnvironment(bin string) (*envtest.Environment, error) {
	etcdDir, err := s.Run.Mkdir("etcd")
	if err != nil {
		return nil, err
	}
	certDir, err := s.Run.Mkdir("apiserver")
	if err != nil {
		return nil, err
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory:    bin,
		CRDDirectoryPaths:        s.CRDDirs,
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	env.ControlPlane.Etcd = &envtest.Etcd{DataDir: etcdDir}
	env.ControlPlane.GetAPIServer().CertDir = certDir
	return env, nil
}

// Stop stops the API server and etcd and removes the run folder. It is safe
// to call on a server that did not (fully) start.
func (s *APIServer) Stop() {
	if s.env != nil {
		if err := s.env.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "framework: stop envtest: %v\n", err)
		}
	}
	if s.Run != nil {
		if err := s.Run.Remove(); err != nil {
			fmt.Fprintf(os.Stderr, "framework: remove %s: %v\n", s.Run.Path, err)
		}
	}
}

// UserKubeconfig provisions a user with the given groups (authenticated by a
// client certificate) and writes a kubeconfig file for it into the run folder.
func (s *APIServer) UserKubeconfig(name string, groups ...string) (string, *rest.Config, error) {
	user, err := s.env.AddUser(envtest.User{Name: name, Groups: groups}, nil)
	if err != nil {
		return "", nil, err
	}
	data, err := user.KubeConfig()
	if err != nil {
		return "", nil, err
	}
	path := s.Run.Join("user-" + name + ".kubeconfig")
	return path, user.Config(), os.WriteFile(path, data, 0o600)
}

// checkCRDDirs fails early, and clearly, when a CRD folder is missing or empty.
func checkCRDDirs(dirs []string) error {
	for _, dir := range dirs {
		yamls, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			return err
		}
		if len(yamls) == 0 {
			return fmt.Errorf("framework: no CRDs (*.yaml) in %s", dir)
		}
	}
	return nil
}
