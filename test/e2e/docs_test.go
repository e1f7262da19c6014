package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// The install pages are run as a user runs them: every ```sh block, in the
// order written, from a copy of the checkout, against two fresh kwok
// clusters behind the contexts the pages name ("hub" and "cluster1"). A
// block that fails turns the test red, naming the page and line.
//
// kwok's fake nodes run no container. What a pod would run, the test runs
// as a local process: whenever a Deployment of ours has rolled out and
// every Secret it mounts exists, `work` starts from the Deployment's own
// arguments (see podProcess), and it stops when the Deployment goes. Two
// things of the cluster are stood in for: the pod's in-cluster credential
// (a token of its ServiceAccount, as --kubeconfig) and the network path
// from the hub's API server to the webhook's Service (the configuration is
// pointed at the local process, with a certificate for 127.0.0.1).
//
// A ```text block preceded by `<!-- docs-test: output -->` is what the
// ```sh block before it prints: each of its lines must match a line of
// that output, in order (see outputLineRegexp: ages and "..." match
// anything of their kind; other lines of the output are allowed).
//
// A block preceded by `<!-- docs-test: skip, <reason> -->` is not run; the
// reasons are what the test cannot do here (Docker, kind). A line
// `<!-- docs-test: again, <heading>, <heading> -->` runs the blocks between
// the two headings again, as the text before it tells a reader to. A block
// inside an HTML comment that opens with `<!-- docs-test: setup, <reason>`
// runs like any other, unseen by readers: what the test's clusters lack that
// a reader's have.
//
// What the test cannot see: the network of real clusters. Here every
// process reaches every API server at 127.0.0.1, so a page that gives the
// agent the address of the user's own kubeconfig would work although a
// pod could not reach it. The test therefore sets HUB_SERVER, the page's
// variable for the hub's address as the managed cluster's pods reach it,
// to a proxy in front of the hub, and requires that every agent's hub
// kubeconfig names the proxy and that the agents' requests went through it.

// TestDocsInstallPage runs docs/install.md, from the CRDs to the uninstall,
// with a second managed cluster ("More managed clusters").
func TestDocsInstallPage(t *testing.T) {
	pods := append(slices.Clone(ourPods), &docsPod{context: "cluster2", namespace: agentNamespace, name: "work-agent"})
	r := runDocsPage(t, "docs/install.md", pods, nil)
	r.requireHubThroughProxy(2)
	r.requireNothingLeft(hubNamespace, agentNamespace, "cluster1", "cluster2")
}

// TestDocsInstallWithHelmPage runs docs/install-with-helm.md: both
// releases, a work delivered, upgrades, uninstalls, and the agent of the
// kustomize base adopted by a release, which runs at the end.
func TestDocsInstallWithHelmPage(t *testing.T) {
	r := runDocsPage(t, "docs/install-with-helm.md", ourPods, nil)
	r.requireHubThroughProxy(1)
	// The namespaces were the user's, not the releases'.
	r.requireNothingLeft()
}

// TestDocsFleetRolloutsPage runs docs/fleet-rollouts.md on a hub, cluster1
// and cluster2 installed as docs/install.md installs them (its blocks up to
// its sizing): Placement CRDs, a Placement and its decision written by
// hand, a replica set whose work reaches cluster1 and reports there, its
// summary, and its deletion, which takes the work and its object with it;
// then, over both clusters, a Deployment's rollout that fails on cluster1
// and aborts, its undo with `work fleet`; a second replica set over two
// decision groups held by a bake and an approval gate, approved by a user
// bound to work-rollout-approver only; the revisions, the other `work
// fleet` commands, and the deletion. The page's output blocks are what the
// commands print.
func TestDocsFleetRolloutsPage(t *testing.T) {
	pods := append(slices.Clone(ourPods), &docsPod{context: "cluster2", namespace: agentNamespace, name: "work-agent"})
	r := runDocsPage(t, "docs/fleet-rollouts.md", pods, func(r *docsRun) {
		r.runPageUntil("docs/install.md", "## Sizing")
	})
	r.requireHubThroughProxy(2)
	works, err := r.clusters["hub"].Work.WorkV1().ManifestWorks("").List(t.Context(), metav1.ListOptions{
		LabelSelector: "work.open-cluster-management.io/manifestworkreplicaset=fleet.web",
	})
	require.NoError(t, err)
	assert.Empty(t, works.Items, "the replica set's works are gone with it")
}

// runPageUntil runs the blocks of another page, up to its heading until,
// to set the clusters up as a page expects to find them.
func (r *docsRun) runPageUntil(page, until string) {
	t := r.t
	data, err := os.ReadFile(framework.RepoPath(page))
	require.NoError(t, err)
	end := slices.Index(strings.Split(string(data), "\n"), until) + 1
	require.Positive(t, end, "%s has the heading %q", page, until)
	self := r.page
	r.page = page
	defer func() { r.page = self }()
	for _, b := range docBlocks(t, page) {
		if b.line > end {
			break
		}
		if b.skip != "" {
			continue
		}
		r.pointWebhookHere()
		r.run(b)
		r.followPods(b)
		r.pointWebhookHere()
	}
}

// docBlock is a ```sh block of a page.
type docBlock struct {
	line  int    // of the opening fence
	text  string // the commands
	skip  string // the reason it is not run, or ""
	again int    // the line of the directive that runs it again; 0 for its first run
	// want is the ```text block that shows what it prints, if any, and
	// wantLine that block's line.
	want     string
	wantLine int
}

// againDirective is the line that runs the blocks between two headings
// again: `<!-- docs-test: again, <heading>, <heading> -->`.
const againDirective = "<!-- docs-test: again, "

// docBlocks reads the ```sh blocks of a Markdown page, in the order they
// run: a block that a directive runs again comes again at the directive.
func docBlocks(t *testing.T, page string) []docBlock {
	t.Helper()
	f, err := os.Open(framework.RepoPath(page))
	require.NoError(t, err)
	defer f.Close()
	var blocks []docBlock
	var cur, output *docBlock
	skip := ""
	wantOutput := false
	headings := map[string]int{}
	scanner := bufio.NewScanner(f)
	for n := 1; scanner.Scan(); n++ {
		line := scanner.Text()
		if cur == nil && output == nil && strings.HasPrefix(line, "#") {
			headings[line] = n
		}
		switch {
		case cur == nil && strings.HasPrefix(line, againDirective):
			from, until, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(line, againDirective), " -->"), ", ")
			require.True(t, ok, "%s:%d: %s names two headings", page, n, againDirective)
			first, last := headings[from], headings[until]
			require.True(t, first > 0 && last > first, "%s:%d: the headings %q and %q come before it, in order", page, n, from, until)
			for _, b := range blocks {
				if b.again == 0 && b.line > first && b.line < last {
					b.again = n
					blocks = append(blocks, b)
				}
			}
		case output != nil && strings.TrimSpace(line) == "```":
			require.NotEmpty(t, blocks, "%s:%d: %s follows a ```sh block", page, output.wantLine, outputDirective)
			blocks[len(blocks)-1].want, blocks[len(blocks)-1].wantLine = output.want, output.wantLine
			output = nil
		case output != nil:
			output.want += line + "\n"
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		case strings.TrimSpace(line) == "```sh":
			require.False(t, wantOutput, "%s:%d: %s comes before a ```text block", page, n, outputDirective)
			cur = &docBlock{line: n, skip: skip}
			skip = ""
		case wantOutput && strings.TrimSpace(line) == "```text":
			output = &docBlock{wantLine: n}
			wantOutput = false
		case line == outputDirective:
			wantOutput = true
		case strings.HasPrefix(line, "<!-- docs-test: skip"):
			skip = strings.TrimSuffix(strings.TrimPrefix(line, "<!-- docs-test: skip, "), " -->")
			require.NotEmpty(t, skip, "%s:%d: a skipped block says why", page, n)
		case strings.TrimSpace(line) != "":
			skip = ""
		}
	}
	require.NoError(t, scanner.Err())
	require.True(t, cur == nil && output == nil, "%s: a block is not closed", page)
	require.False(t, wantOutput, "%s: %s comes before a ```text block", page, outputDirective)
	require.NotEmpty(t, blocks, "%s has no ```sh block", page)
	return blocks
}

// docsRun is a page's run: its clusters, its shell and the processes that
// stand in for the pods of its Deployments.
type docsRun struct {
	t        *testing.T
	e        *framework.E2E
	page     string
	dir      string // the copy of the checkout the commands run in
	state    string // the shell variables carried from block to block
	env      []string
	clusters map[string]*framework.Cluster // by context name
	pods     []*docsPod
	webhook  *docsWebhook
	// hubProxy stands for the hub's address as the managed clusters' pods
	// reach it (HUB_SERVER), and hubServer is its URL.
	hubProxy  *framework.Proxy
	hubServer string
	// agentHubServers are the servers named by the hub kubeconfigs our
	// agents were started with, one per start.
	agentHubServers []string
}

// docsPod is a Deployment of ours whose pod the test runs as a process.
type docsPod struct {
	context, namespace, name string
	process                  *framework.Process
	generation               int64
	secretsDir               string
	images                   []string // each start's, in order
	skipped                  bool     // the current start is OCM's hub program, not run
}

// docsWebhook is the certificate the local hub serves the webhook with, and
// the address it serves on.
type docsWebhook struct {
	dir, addr string
}

// ourPods are the Deployments of deploy/ and of the charts.
var ourPods = []*docsPod{
	{context: "hub", namespace: hubNamespace, name: "work-hub"},
	{context: "cluster1", namespace: agentNamespace, name: "work-agent"},
}

// runDocsPage runs the blocks of a page on fresh clusters, following the
// pods of the Deployments given; before, if not nil, sets the clusters up
// as the page expects to find them.
func runDocsPage(t *testing.T, page string, pods []*docsPod, before func(*docsRun)) *docsRun {
	e := setup(t)
	r := &docsRun{t: t, e: e, page: page, dir: t.TempDir(), clusters: map[string]*framework.Cluster{}}
	r.clusters["hub"] = e.NewCluster(t, "docs-hub", 1)
	r.clusters["cluster1"] = e.NewCluster(t, "docs-cluster1", 1)
	for _, p := range pods {
		r.pods = append(r.pods, &docsPod{context: p.context, namespace: p.namespace, name: p.name})
		if r.clusters[p.context] == nil {
			r.clusters[p.context] = e.NewCluster(t, "docs-"+p.context, 1)
		}
	}
	t.Cleanup(r.stopPods)
	r.prepare()
	if before != nil {
		before(r)
	}

	ran := 0
	for _, b := range docBlocks(t, page) {
		if b.again != 0 {
			t.Logf("%s:%d: the block of line %d again", page, b.again, b.line)
		}
		if b.skip != "" {
			t.Logf("%s:%d: not run: %s", page, b.line, b.skip)
			continue
		}
		// OCM's operator writes its configuration back to its Service when
		// it reconciles, also between blocks: it is pointed here again
		// before each block as well as after.
		r.pointWebhookHere()
		pointed := r.webhookVersions()
		if out, err := r.try(b); err == nil {
			r.checkOutput(b, out)
		} else {
			// The operator may reconcile, and write its Service back, in
			// the moment between the pointing and the block: then the
			// block's calls went to a Service kwok has no pods for.
			require.NotEqual(t, pointed, r.webhookVersions(), "%s:%d: the block fails as written: %v", page, b.line, err)
			t.Logf("%s:%d: OCM's operator rewrote a webhook configuration while the block ran; running it again", page, b.line)
			r.pointWebhookHere()
			r.run(b)
		}
		ran++
		r.followPods(b)
		r.pointWebhookHere()
	}
	t.Logf("%s: %d blocks run", page, ran)
	return r
}

// linkBuiltWork puts the work binary the test built where `make build`
// leaves it under dir (_output/bin/work), which the pages skip, and
// returns that folder.
func linkBuiltWork(t *testing.T, dir, binary string) string {
	bin := filepath.Join(dir, "_output", "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.Symlink(binary, filepath.Join(bin, "work")))
	return bin
}

// prepare copies what the commands read from the checkout, writes a
// kubeconfig with the pages' contexts, and the shell's environment.
func (r *docsRun) prepare() {
	t := r.t
	for _, p := range []string{"manifests", "deploy", "hack/webhook-certs.sh", "VERSION"} {
		from := framework.RepoPath(p)
		info, err := os.Stat(from)
		require.NoError(t, err)
		to := filepath.Join(r.dir, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
		if info.IsDir() {
			require.NoError(t, os.CopyFS(to, os.DirFS(from)))
			continue
		}
		data, err := os.ReadFile(from)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(to, data, info.Mode()))
	}

	linkBuiltWork(t, r.dir, r.e.WorkBinary)

	merged := clientcmdapi.NewConfig()
	for name, c := range r.clusters {
		cfg, err := clientcmd.LoadFromFile(c.Kubeconfig)
		require.NoError(t, err)
		kctx := cfg.Contexts[cfg.CurrentContext]
		merged.Clusters[name] = cfg.Clusters[kctx.Cluster]
		merged.AuthInfos[name] = cfg.AuthInfos[kctx.AuthInfo]
		merged.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	}
	merged.CurrentContext = "hub"
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*merged, kubeconfig))

	hub, err := url.Parse(merged.Clusters["hub"].Server)
	require.NoError(t, err)
	r.hubProxy, err = framework.StartProxy(hub.Host)
	require.NoError(t, err)
	t.Cleanup(r.hubProxy.Close)
	r.hubServer = (&url.URL{Scheme: hub.Scheme, Host: r.hubProxy.Addr()}).String()

	home := t.TempDir()
	helm, err := framework.HelmBinary()
	require.NoError(t, err)
	path := []string{r.e.Bin, filepath.Dir(helm)}
	r.env = []string{
		"PATH=" + strings.Join(append(path, os.Getenv("PATH")), string(os.PathListSeparator)),
		"HOME=" + home,
		"KUBECONFIG=" + kubeconfig,
		"LANG=C",
		"HUB_SERVER=" + r.hubServer,
	}
	r.state = filepath.Join(home, "state.sh")
	require.NoError(t, os.WriteFile(r.state, nil, 0o600))
}

// run runs a block in bash (-euo pipefail) in the copy of the checkout,
// with the variables earlier blocks set, and fails the test if it fails or
// does not print what the page shows.
func (r *docsRun) run(b docBlock) {
	out, err := r.try(b)
	require.NoError(r.t, err, "%s:%d: the block fails as written", r.page, b.line)
	r.checkOutput(b, out)
}

// try runs a block as run does, and returns what it printed and its error.
func (r *docsRun) try(b docBlock) (string, error) {
	t := r.t
	script := fmt.Sprintf(`set -euo pipefail
set -a
source %q
%s
export -p | grep -vE '^declare -x (PWD|OLDPWD|SHLVL|_)=' > %q.new
mv %q.new %q
`, r.state, b.text, r.state, r.state, r.state)
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = r.dir
	cmd.Env = r.env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s:%d (%s):\n%s\n%s", r.page, b.line, time.Since(start).Round(time.Millisecond), b.text, out)
	return string(out), err
}

// webhookVersions are the resource versions of the pages' webhook
// configurations, by name.
func (r *docsRun) webhookVersions() map[string]string {
	out := map[string]string{}
	configs := r.clusters["hub"].Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	for _, c := range docsWebhookConfigs {
		if config, err := configs.Get(r.t.Context(), c.name, metav1.GetOptions{}); err == nil {
			out[c.name] = config.ResourceVersion
		}
	}
	return out
}

// followPods does for each Deployment of ours what the cluster would do
// for its pod: (re)start it when it has rolled out anew and its Secrets
// exist, stop it when the Deployment is gone. A block that waits for a
// rollout whose pod could not start (a Secret it mounts is missing) fails.
func (r *docsRun) followPods(b docBlock) {
	t := r.t
	for _, p := range r.pods {
		c := r.clusters[p.context]
		d, err := c.Kube.AppsV1().Deployments(p.namespace).Get(t.Context(), p.name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			r.stopPod(p)
			continue
		}
		require.NoError(t, err)
		missing, secrets := r.podSecrets(c, d)
		waited := strings.Contains(b.text, "rollout status deploy/"+p.name) ||
			strings.Contains(b.text, "rollout status deployment/"+p.name)
		if len(missing) > 0 {
			require.False(t, waited, "%s:%d: the pod of deploy/%s would not start: it mounts the missing Secrets %v",
				r.page, b.line, p.name, missing)
			continue
		}
		if (p.skipped || p.process != nil && p.process.Running()) && p.generation == d.Generation {
			r.writeSecrets(p, secrets)
			continue
		}
		if !deploymentRolledOut(d) {
			require.False(t, waited, "%s:%d: deploy/%s has not rolled out", r.page, b.line, p.name)
			continue
		}
		r.stopPod(p)
		r.startPod(p, c, d, secrets)
	}
}

// deploymentRolledOut is what `kubectl rollout status` waits for.
func deploymentRolledOut(d *appsv1.Deployment) bool {
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	return d.Status.ObservedGeneration >= d.Generation && d.Status.UpdatedReplicas == want &&
		d.Status.AvailableReplicas == want && d.Status.Replicas == want
}

// podSecrets reads the Secrets a Deployment's pod mounts, naming those
// that do not exist.
func (r *docsRun) podSecrets(c *framework.Cluster, d *appsv1.Deployment) (missing []string, secrets map[string]*corev1.Secret) {
	secrets = map[string]*corev1.Secret{}
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Secret == nil {
			continue
		}
		s, err := c.Kube.CoreV1().Secrets(d.Namespace).Get(r.t.Context(), v.Secret.SecretName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			missing = append(missing, v.Secret.SecretName)
			continue
		}
		require.NoError(r.t, err)
		secrets[v.Secret.SecretName] = s
	}
	return missing, secrets
}

// startPod starts the pod of a Deployment as a local process, from its
// arguments, and waits until it is ready.
func (r *docsRun) startPod(p *docsPod, c *framework.Cluster, d *appsv1.Deployment, secrets map[string]*corev1.Secret) {
	t := r.t
	p.secretsDir = t.TempDir()
	r.writeSecrets(p, secrets)
	files := map[string]map[string]string{}
	for name, s := range secrets {
		files[name] = map[string]string{}
		for key := range s.Data {
			files[name][key] = filepath.Join(p.secretsDir, name, key)
		}
	}
	serving := false
	if s, ok := secrets["work-webhook-tls"]; ok && p.name == "work-hub" {
		// The API server reaches the local process, not the Service: the
		// process serves a certificate for 127.0.0.1 instead.
		require.Contains(t, s.Data, "tls.crt")
		files["work-webhook-tls"] = map[string]string{
			"tls.crt": filepath.Join(r.localWebhook().dir, "tls.crt"),
			"tls.key": filepath.Join(r.localWebhook().dir, "tls.key"),
		}
		serving = true
	}
	if s, ok := secrets["hub-kubeconfig"]; ok && p.name == "work-agent" {
		cfg, err := clientcmd.Load(s.Data["kubeconfig"])
		require.NoError(t, err, "the Secret hub-kubeconfig holds a kubeconfig")
		for _, c := range cfg.Clusters {
			r.agentHubServers = append(r.agentHubServers, c.Server)
		}
	}
	env, args := podProcess(t, d.Spec.Template.Spec, p.name+"-docs-0", p.namespace, files)
	sa := d.Spec.Template.Spec.ServiceAccountName
	require.NotEmpty(t, sa, "deploy/%s names its ServiceAccount", p.name)
	kubeconfig, err := r.e.TokenKubeconfig(c, p.namespace, sa, nil)
	require.NoError(t, err)
	kubeconfigFile := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(kubeconfigFile, kubeconfig, 0o600))
	args = append(args, "--kubeconfig="+kubeconfigFile)
	if serving {
		args = append(args, "--webhook-bind-address="+r.webhook.addr)
	}
	// OCM's operators name the binary in the arguments, with no command.
	if len(args) > 0 && args[0] == "/work" {
		args = args[1:]
	}
	image := d.Spec.Template.Spec.Containers[0].Image
	if len(args) > 0 && args[0] == "webhook-server" {
		// The serving certificate is read from a folder no argument names
		// (OCM's default), and the port is the cluster's: both are the
		// local webhook's here.
		args = slices.DeleteFunc(args, func(a string) bool {
			return strings.HasPrefix(a, "port=") || strings.HasPrefix(a, "--port=")
		})
		_, port, _ := strings.Cut(r.localWebhook().addr, ":")
		args = append(args, "--port="+port, "--certdir="+r.webhook.dir)
	}
	if strings.HasPrefix(image, ocmWorkImage+":") && len(args) > 0 && args[0] != "agent" {
		// OCM's hub programs are not run here; OCM's agent is.
		t.Logf("deploy/%s runs OCM's %q: not run by the test", p.name, args[0])
		p.generation = d.Generation
		p.images = append(p.images, image)
		p.process = nil
		p.skipped = true
		return
	}
	p.skipped = false
	switch {
	// The pod's namespace, which a pod reads from its ServiceAccount's
	// files, is given as each program takes it outside a pod.
	case strings.HasPrefix(image, ourImage+":"):
		if !slices.ContainsFunc(env, func(v string) bool { return strings.HasPrefix(v, "POD_NAMESPACE=") }) {
			env = append(env, "POD_NAMESPACE="+p.namespace)
		}
		p.process, err = r.e.StartWork("docs-"+p.name, env, args...)
	case strings.HasPrefix(image, ocmWorkImage+":"):
		args = append(args, "--namespace="+p.namespace)
		p.process, err = r.e.StartOCMWork("docs-ocm-"+p.name, framework.OCMAgentBinary(t), env, args...)
	default:
		t.Fatalf("deploy/%s runs the image %q, neither ours nor OCM's", p.name, image)
	}
	require.NoError(t, err, "the pod of deploy/%s runs its arguments", p.name)
	p.generation = d.Generation
	p.images = append(p.images, image)
}

// The images the pods run: ours, and OCM's work image.
const (
	ourImage     = "quay.io/manifestwork/work"
	ocmWorkImage = "quay.io/open-cluster-management/work"
)

// writeSecrets lays out the Secrets of a pod as the kubelet keeps them:
// one folder per Secret, one file per key, replaced when the Secret
// changes.
func (r *docsRun) writeSecrets(p *docsPod, secrets map[string]*corev1.Secret) {
	for name, s := range secrets {
		dir := filepath.Join(p.secretsDir, name)
		require.NoError(r.t, os.MkdirAll(dir, 0o700))
		for key, value := range s.Data {
			file := filepath.Join(dir, key)
			if old, err := os.ReadFile(file); err == nil && string(old) == string(value) {
				continue
			}
			tmp := file + ".new"
			require.NoError(r.t, os.WriteFile(tmp, value, 0o600))
			require.NoError(r.t, os.Rename(tmp, file))
		}
	}
}

func (r *docsRun) stopPod(p *docsPod) {
	p.skipped = false
	if p.process != nil && p.process.Running() {
		_, err := p.process.Stop(30 * time.Second)
		assert.NoError(r.t, err, "stop %s", p.process.Name)
	}
	p.process = nil
}

func (r *docsRun) stopPods() {
	for _, p := range r.pods {
		r.stopPod(p)
	}
}

// localWebhook makes, once, a serving certificate for the address the
// local hub serves its webhook on.
func (r *docsRun) localWebhook() *docsWebhook {
	if r.webhook != nil {
		return r.webhook
	}
	port, err := framework.FreePort()
	require.NoError(r.t, err)
	w := &docsWebhook{dir: r.t.TempDir(), addr: "127.0.0.1:" + strconv.Itoa(port)}
	out, err := exec.Command(framework.RepoPath("hack", "webhook-certs.sh"), w.dir,
		"https://"+w.addr+framework.WebhookPath).CombinedOutput()
	require.NoError(r.t, err, "%s", out)
	r.webhook = w
	return w
}

// docsWebhookConfigs are the webhook configurations the pages make: ours
// (hack/webhook-certs.sh), and the one OCM's ClusterManager registers.
var docsWebhookConfigs = []struct{ name, service, path string }{
	{"manifestwork.work.open-cluster-management.io", "work-webhook", framework.WebhookPath},
	{"manifestworkvalidators.admission.work.open-cluster-management.io", "cluster-manager-work-webhook", framework.OCMWebhookPath},
}

// pointWebhookHere sends the calls of the pages' webhook configurations to
// the local webhook: the network path from the API server to the Service's
// pods is what kwok does not have.
func (r *docsRun) pointWebhookHere() {
	for _, c := range docsWebhookConfigs {
		r.pointConfigHere(c.name, c.service, c.path)
	}
}

func (r *docsRun) pointConfigHere(name, service, path string) {
	t := r.t
	configs := r.clusters["hub"].Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	config, err := configs.Get(t.Context(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return
	}
	require.NoError(t, err)
	local := r.localWebhook()
	ca, err := os.ReadFile(filepath.Join(local.dir, "ca.crt"))
	require.NoError(t, err)
	url := "https://" + local.addr + path
	changed := false
	for i := range config.Webhooks {
		cc := &config.Webhooks[i].ClientConfig
		if cc.Service == nil {
			continue
		}
		require.Equal(t, service, cc.Service.Name, "%s calls the hub's Service", name)
		cc.Service, cc.URL, cc.CABundle = nil, &url, ca
		changed = true
	}
	if !changed {
		return
	}
	// What kubectl apply recorded is changed alike, so that the page's
	// next apply of its file turns the URL back into the Service (rather
	// than adding the Service beside the URL).
	if last, ok := config.Annotations[corev1.LastAppliedConfigAnnotation]; ok {
		var applied map[string]any
		require.NoError(t, json.Unmarshal([]byte(last), &applied))
		webhooks, _ := applied["webhooks"].([]any)
		for i, w := range webhooks {
			cc, _ := w.(map[string]any)["clientConfig"].(map[string]any)
			if cc == nil || i >= len(config.Webhooks) {
				continue
			}
			delete(cc, "service")
			cc["url"] = *config.Webhooks[i].ClientConfig.URL
			cc["caBundle"] = config.Webhooks[i].ClientConfig.CABundle
		}
		data, err := json.Marshal(applied)
		require.NoError(t, err)
		config.Annotations[corev1.LastAppliedConfigAnnotation] = string(data)
	}
	_, err = configs.Update(t.Context(), config, metav1.UpdateOptions{})
	require.NoError(t, err)
}

// requireHubThroughProxy checks that the page gave each agent the hub's
// address from HUB_SERVER, not the one of the user's kubeconfig (which only
// the machine running the commands may reach), and that agents reached the
// hub through it: at least agents connections, one per agent.
func (r *docsRun) requireHubThroughProxy(agents int) {
	t := r.t
	require.NotEmpty(t, r.agentHubServers, "%s: an agent was started with a hub kubeconfig", r.page)
	for _, server := range r.agentHubServers {
		require.Equal(t, r.hubServer, server, "%s: the agent's hub kubeconfig names HUB_SERVER, the hub's address as pods reach it", r.page)
	}
	require.GreaterOrEqual(t, r.hubProxy.Forwarded(), int64(agents), "%s: the agents reached the hub at HUB_SERVER", r.page)
}

// requireNothingLeft checks what a page's last section, uninstall, leaves:
// none of our CRDs (the work group's, and the Placement CRDs of
// manifests/placement), Deployments, cluster-scoped RBAC or of the
// namespaces given, on either cluster, and no pod of ours running.
func (r *docsRun) requireNothingLeft(namespaces ...string) {
	t := r.t
	var left []error
	for name, c := range r.clusters {
		crds, err := c.APIExtensions.ApiextensionsV1().CustomResourceDefinitions().List(t.Context(), metav1.ListOptions{})
		require.NoError(t, err)
		for _, crd := range crds.Items {
			if crd.Spec.Group == "work.open-cluster-management.io" || crd.Spec.Group == "cluster.open-cluster-management.io" {
				left = append(left, fmt.Errorf("%s: CRD %s", name, crd.Name))
			}
		}
		for _, ns := range namespaces {
			_, err := c.Kube.CoreV1().Namespaces().Get(t.Context(), ns, metav1.GetOptions{})
			if err == nil {
				left = append(left, fmt.Errorf("%s: namespace %s", name, ns))
			}
		}
		deployments, err := c.Kube.AppsV1().Deployments("").List(t.Context(), metav1.ListOptions{})
		require.NoError(t, err)
		for _, d := range deployments.Items {
			if strings.HasPrefix(d.Name, "work-") {
				left = append(left, fmt.Errorf("%s: Deployment %s/%s", name, d.Namespace, d.Name))
			}
		}
		roles, err := c.Kube.RbacV1().ClusterRoles().List(t.Context(), metav1.ListOptions{})
		require.NoError(t, err)
		for _, role := range roles.Items {
			if strings.Contains(role.Name, "work-hub") || strings.Contains(role.Name, "work-agent") {
				left = append(left, fmt.Errorf("%s: ClusterRole %s", name, role.Name))
			}
		}
	}
	for _, p := range r.pods {
		if p.process != nil && p.process.Running() {
			left = append(left, fmt.Errorf("the pod of deploy/%s runs", p.name))
		}
	}
	require.NoError(t, errors.Join(left...), "%s: uninstall leaves these behind", r.page)
}

// TestDocsReplaceOCMWorkAgentPage runs docs/replace-ocm-work-agent.md where
// a user of OCM runs it: OCM's own operator reconciles a Klusterlet whose
// work agent, OCM's image, applied a work. The page's switch makes the
// operator render our image, whose pod runs our agent from the arguments
// the operator renders; the roll back makes it OCM's again. Through both,
// the work stays available and its object is the same one.
func TestDocsReplaceOCMWorkAgentPage(t *testing.T) {
	operator := framework.OCMOperatorBinary(t)
	pods := []*docsPod{{context: "cluster1", namespace: framework.KlusterletAgentNamespace, name: framework.KlusterletWorkAgent}}
	var before *corev1.ConfigMap
	r := runDocsPage(t, "docs/replace-ocm-work-agent.md", pods, func(r *docsRun) {
		hub, managed := r.clusters["hub"], r.clusters["cluster1"]
		crds, err := hub.InstallCRDs(framework.HubCRDDir())
		require.NoError(t, err)
		require.NoError(t, hub.WaitCRDsEstablished(t.Context(), time.Minute, crds...))
		r.e.StartKlusterletOperator(t, operator, hub, managed, framework.KlusterletOptions{WorkImage: ocmWorkImage + ":v1.0.0"})
		framework.Eventually(t, convergeTimeout, func() error {
			r.followPods(docBlock{})
			if r.pods[0].process == nil {
				return errors.New("the Klusterlet's work agent has not rolled out")
			}
			return nil
		}, "OCM's work agent runs")

		work := fixture.NewWork("cluster1", "docs-ocm").
			WithManifest(fixture.ConfigMap("default", "docs-ocm", map[string]string{"a": "1"})).Build()
		_, err = hub.Work.WorkV1().ManifestWorks("cluster1").Create(t.Context(), work, metav1.CreateOptions{})
		require.NoError(t, err)
		framework.Eventually(t, convergeTimeout, func() error {
			w, err := hub.Work.WorkV1().ManifestWorks("cluster1").Get(t.Context(), work.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			if c := framework.ConditionOf(w, workv1.WorkAvailable); c == nil || c.Status != metav1.ConditionTrue {
				return fmt.Errorf("not available: %v", w.Status.Conditions)
			}
			return nil
		}, "OCM's agent applies the work")
		before, err = managed.Kube.CoreV1().ConfigMaps("default").Get(t.Context(), "docs-ocm", metav1.GetOptions{})
		require.NoError(t, err)
	})

	version, err := os.ReadFile(framework.RepoPath("VERSION"))
	require.NoError(t, err)
	ours := ourImage + ":" + strings.TrimSpace(string(version))
	assert.Equal(t, []string{ocmWorkImage + ":v1.0.0", ours, ocmWorkImage + ":v1.0.0"}, r.pods[0].images,
		"the pod ran OCM's agent, ours after the switch, OCM's after the roll back")
	after, err := r.clusters["cluster1"].Kube.CoreV1().ConfigMaps("default").Get(t.Context(), "docs-ocm", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, before.UID, after.UID, "the work's object is the one OCM's agent created")
	assert.Equal(t, before.Data, after.Data)
}

// TestDocsReplaceOCMWorkHubPage runs docs/replace-ocm-work-hub.md on a hub
// where OCM's own operator runs a ClusterManager: the switch makes it
// render our image, whose webhook, run from the arguments the operator
// renders, refuses what OCM's refuses; the roll back makes it OCM's again.
// The test runs OCM's agent, not OCM's hub programs: before the switch and
// after the roll back, the webhook's pod is not run.
func TestDocsReplaceOCMWorkHubPage(t *testing.T) {
	operator := framework.OCMOperatorBinary(t)
	pods := []*docsPod{{context: "hub", namespace: framework.ClusterManagerNamespace, name: framework.ClusterManagerWorkWebhook}}
	r := runDocsPage(t, "docs/replace-ocm-work-hub.md", pods, func(r *docsRun) {
		hub := r.clusters["hub"]
		require.NoError(t, hub.EnsureNamespaces(t.Context(), "cluster1"))
		r.e.StartClusterManagerOperator(t, operator, hub, framework.ClusterManagerOptions{WorkImage: ocmWorkImage + ":v1.0.0"})
		framework.Eventually(t, convergeTimeout, func() error {
			r.followPods(docBlock{})
			if !r.pods[0].skipped {
				return errors.New("the ClusterManager's work webhook has not rolled out")
			}
			return nil
		}, "OCM's work webhook rolled out")
		// A user's hub has the operator's webhook configuration already:
		// the operator registers it once the webhook has rolled out.
		configs := hub.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations()
		framework.Eventually(t, convergeTimeout, func() error {
			_, err := configs.Get(t.Context(), docsWebhookConfigs[1].name, metav1.GetOptions{})
			return err
		}, "the operator registers its webhook configuration")
	})
	version, err := os.ReadFile(framework.RepoPath("VERSION"))
	require.NoError(t, err)
	ours := ourImage + ":" + strings.TrimSpace(string(version))
	assert.Equal(t, []string{ocmWorkImage + ":v1.0.0", ours, ocmWorkImage + ":v1.0.0"}, r.pods[0].images,
		"the webhook's pod ran OCM's image, ours after the switch, OCM's after the roll back")
}
