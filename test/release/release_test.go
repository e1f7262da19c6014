// Package release checks what hack/release.sh wrote (make release-dry-run
// runs it after the dry run; after a full release, run it on that folder):
//
//	WORK_RELEASE_DIR=_output/release/v0.1.0 WORK_RELEASE_VERSION=v0.1.0 go test ./test/release/
//
// Every artefact must be there and carry the version: the archives and the
// binaries in them, the image's index, its platforms, entrypoint, user and
// labels, the charts, SHA256SUMS and the changelog's section. It reads the
// files with the standard library only, not with the code that wrote them.
package release

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// platforms are those of a release; the image has the linux ones.
var platforms = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

var charts = []string{"work-hub", "work-agent"}

// release is the folder under test and what it must say.
type release struct {
	dir     string
	version string // v1.2.3
	dryRun  bool
}

func (r release) path(name ...string) string {
	return filepath.Join(append([]string{r.dir}, name...)...)
}

// archiveName is the archive of a platform.
func (r release) archiveName(platform string) string {
	os, arch, _ := strings.Cut(platform, "/")
	ext := ".tar.gz"
	if os == "windows" {
		ext = ".zip"
	}
	return "work_" + r.version + "_" + os + "_" + arch + ext
}

// changelogName is the version's section of CHANGELOG.md, beside the
// archives and in each.
func (r release) changelogName() string {
	return "CHANGELOG-" + r.version + ".md"
}

// proved is whether a dry run proved, instead of building, the platform.
func (r release) proved(t *testing.T, platform string) bool {
	if !r.dryRun {
		return false
	}
	data, err := os.ReadFile(r.path("proof", strings.ReplaceAll(platform, "/", "_")+".deps"))
	if err != nil {
		return false
	}
	assert.Contains(t, strings.Fields(string(data)), "github.com/manifestwork/work/cmd/work", "%s: the proof lists cmd/work's packages", platform)
	return true
}

func setup(t *testing.T) release {
	dir := os.Getenv("WORK_RELEASE_DIR")
	if dir == "" {
		t.Skip("WORK_RELEASE_DIR is not set: make release-dry-run runs this test")
	}
	v := os.Getenv("WORK_RELEASE_VERSION")
	if v == "" {
		data, err := os.ReadFile(filepath.Join("..", "..", "VERSION"))
		require.NoError(t, err)
		v = strings.TrimSpace(string(data))
	}
	r := release{dir: dir, version: "v" + strings.TrimPrefix(v, "v")}
	_, err := os.Stat(r.path("DRY-RUN"))
	r.dryRun = err == nil
	return r
}

func TestArchives(t *testing.T) {
	r := setup(t)
	host := runtime.GOOS + "/" + runtime.GOARCH
	for _, p := range platforms {
		t.Run(p, func(t *testing.T) {
			name := r.archiveName(p)
			if _, err := os.Stat(r.path(name)); err != nil && p != host && r.proved(t, p) {
				return
			}
			files := readArchive(t, r.path(name))
			exe := ""
			if strings.HasPrefix(p, "windows/") {
				exe = ".exe"
			}
			work := files["work"+exe]
			require.NotEmpty(t, work, "%s has work%s", name, exe)
			assert.Equal(t, work, files["kubectl-work"+exe], "kubectl-work%s is work%s", exe, exe)
			assert.NotEmpty(t, files["LICENSE"])
			assert.NotEmpty(t, files["README.md"])
			notes, err := os.ReadFile(r.path(r.changelogName()))
			require.NoError(t, err)
			assert.Equal(t, string(notes), string(files[r.changelogName()]), "%s has the version's changelog", name)
			assert.Equal(t, binaryPlatform(t, work), p)
			if p == host {
				assert.Equal(t, r.version, workVersion(t, work), "work version")
			}
		})
	}
}

// The image: an OCI layout whose index.json names the version's index,
// which has one image per linux platform.
func TestImage(t *testing.T) {
	r := setup(t)
	var layout ociIndex
	readJSON(t, &layout, r.path("image", "index.json"))
	require.Len(t, layout.Manifests, 1, "index.json names one index")
	top := layout.Manifests[0]
	assert.Equal(t, "application/vnd.oci.image.index.v1+json", top.MediaType)
	assert.Equal(t, r.version, top.Annotations["org.opencontainers.image.ref.name"], "ref name")
	digest, err := os.ReadFile(r.path("image", "DIGEST"))
	require.NoError(t, err)
	assert.Equal(t, top.Digest, strings.TrimSpace(string(digest)), "DIGEST is the index's")

	var index ociIndex
	readJSON(t, &index, r.blob(t, top.Digest))
	assert.Equal(t, r.version, index.Annotations["org.opencontainers.image.version"])
	images := map[string]ociDescriptor{}
	for _, m := range index.Manifests {
		require.NotNil(t, m.Platform, m.Digest)
		images[m.Platform.OS+"/"+m.Platform.Architecture] = m
	}
	for _, p := range platforms[:2] {
		t.Run(p, func(t *testing.T) {
			m, ok := images[p]
			if !ok {
				require.True(t, r.proved(t, p), "the index has %s, or a dry run proved it", p)
				return
			}
			var manifest struct {
				MediaType string          `json:"mediaType"`
				Config    ociDescriptor   `json:"config"`
				Layers    []ociDescriptor `json:"layers"`
			}
			readJSON(t, &manifest, r.blob(t, m.Digest))
			assert.Equal(t, "application/vnd.oci.image.manifest.v1+json", manifest.MediaType)
			var config struct {
				OS           string `json:"os"`
				Architecture string `json:"architecture"`
				Config       struct {
					Entrypoint []string          `json:"Entrypoint"`
					Cmd        []string          `json:"Cmd"`
					User       string            `json:"User"`
					Labels     map[string]string `json:"Labels"`
				} `json:"config"`
			}
			readJSON(t, &config, r.blob(t, manifest.Config.Digest))
			assert.Equal(t, p, config.OS+"/"+config.Architecture)
			// OCM's operators set args ["/work", "agent", ...] and no command.
			assert.Equal(t, []string{"/work"}, config.Config.Entrypoint)
			assert.Empty(t, config.Config.Cmd)
			assert.Regexp(t, `^[1-9][0-9]*(:[0-9]+)?$`, config.Config.User, "a numeric user, not root")
			assert.Equal(t, r.version, config.Config.Labels["org.opencontainers.image.version"])
			assert.Regexp(t, `^[0-9a-f]{40}$`, config.Config.Labels["org.opencontainers.image.revision"])
			assert.Regexp(t, `^https://`, config.Config.Labels["org.opencontainers.image.source"])

			files := map[string]tarFile{}
			for _, l := range manifest.Layers {
				assert.Equal(t, "application/vnd.oci.image.layer.v1.tar+gzip", l.MediaType)
				f, err := os.Open(r.blob(t, l.Digest))
				require.NoError(t, err)
				zr, err := gzip.NewReader(f)
				require.NoError(t, err)
				for name, tf := range readTar(t, zr) {
					files[strings.TrimPrefix(name, "/")] = tf
				}
				_ = f.Close()
			}
			work, ok := files["work"]
			require.True(t, ok, "/work in the layers")
			assert.NotZero(t, work.mode&0o111, "/work is executable")
			assert.Equal(t, p, binaryPlatform(t, work.data))
			assert.Contains(t, string(files["etc/ssl/certs/ca-certificates.crt"].data), "BEGIN CERTIFICATE", "the CA bundle")
			if p == runtime.GOOS+"/"+runtime.GOARCH {
				assert.Equal(t, r.version, workVersion(t, work.data), "/work version")
			}
		})
	}
}

func TestCharts(t *testing.T) {
	r := setup(t)
	for _, c := range charts {
		t.Run(c, func(t *testing.T) {
			f, err := os.Open(r.path("charts", c+"-"+strings.TrimPrefix(r.version, "v")+".tgz"))
			require.NoError(t, err)
			defer f.Close()
			zr, err := gzip.NewReader(f)
			require.NoError(t, err)
			files := readTar(t, zr)
			var meta struct {
				Name       string `json:"name"`
				Version    string `json:"version"`
				AppVersion string `json:"appVersion"`
			}
			require.Contains(t, files, c+"/Chart.yaml")
			require.NoError(t, yaml.Unmarshal(files[c+"/Chart.yaml"].data, &meta))
			assert.Equal(t, c, meta.Name)
			assert.Equal(t, strings.TrimPrefix(r.version, "v"), meta.Version, "version")
			assert.Equal(t, r.version, meta.AppVersion, "appVersion: the image tag")
		})
	}
}

// SHA256SUMS lists every archive and chart, with the hash of its bytes.
func TestChecksums(t *testing.T) {
	r := setup(t)
	data, err := os.ReadFile(r.path("SHA256SUMS"))
	require.NoError(t, err)
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		require.True(t, ok, "%q: sha256sum's format", sc.Text())
		content, err := os.ReadFile(r.path(name))
		if !assert.NoError(t, err, "SHA256SUMS lists %s", name) {
			continue
		}
		h := sha256.Sum256(content)
		assert.Equal(t, hex.EncodeToString(h[:]), sum, name)
		listed[name] = true
	}
	want, err := filepath.Glob(r.path("work_*"))
	require.NoError(t, err)
	tgz, err := filepath.Glob(r.path("charts", "*.tgz"))
	require.NoError(t, err)
	require.NotEmpty(t, want)
	for _, f := range append(want, tgz...) {
		rel, err := filepath.Rel(r.dir, f)
		require.NoError(t, err)
		assert.True(t, listed[rel], "SHA256SUMS lists %s", rel)
	}
}

func TestChangelog(t *testing.T) {
	r := setup(t)
	data, err := os.ReadFile(r.path(r.changelogName()))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Greater(t, len(lines), 1, "a heading and what changed")
	cv := regexp.QuoteMeta(strings.TrimPrefix(r.version, "v"))
	assert.Regexp(t, `^## \[?v?`+cv+`(\]| |$)`, lines[0], "the version's section")
	for _, l := range lines[1:] {
		assert.False(t, strings.HasPrefix(l, "## "), "only the version's section: %q", l)
	}
}

// The steps with credentials name what goes where; a full release tagged
// the commit.
func TestPushPlanAndTag(t *testing.T) {
	r := setup(t)
	data, err := os.ReadFile(r.path("PUSH-PLAN"))
	require.NoError(t, err)
	plan := string(data)
	assert.Regexp(t, `(?m)^skopeo copy --all oci:\S+/image:`+regexp.QuoteMeta(r.version)+` docker://\S+:`+regexp.QuoteMeta(r.version)+`$`, plan)
	assert.Regexp(t, `(?m)^cosign sign --yes \S+@sha256:[0-9a-f]{64}$`, plan)
	for _, c := range charts {
		assert.Regexp(t, `(?m)^\S+ push \S+/`+c+`-`+regexp.QuoteMeta(strings.TrimPrefix(r.version, "v"))+`\.tgz oci://`, plan)
	}
	assert.Contains(t, plan, "git push origin refs/tags/"+r.version)
	assert.Contains(t, plan, "gh release create "+r.version+" ")
	if r.dryRun {
		return
	}
	out, err := exec.Command("git", "cat-file", "-t", r.version).Output()
	require.NoError(t, err, "tag %s", r.version)
	assert.Equal(t, "tag", strings.TrimSpace(string(out)), "an annotated tag")
}

type ociDescriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Annotations map[string]string `json:"annotations"`
	Platform    *struct {
		OS           string `json:"os"`
		Architecture string `json:"architecture"`
	} `json:"platform"`
}

type ociIndex struct {
	MediaType   string            `json:"mediaType"`
	Manifests   []ociDescriptor   `json:"manifests"`
	Annotations map[string]string `json:"annotations"`
}

// blob is the path of a blob of the layout, whose content has its digest.
func (r release) blob(t *testing.T, digest string) string {
	t.Helper()
	algo, hash, ok := strings.Cut(digest, ":")
	require.True(t, ok && algo == "sha256", digest)
	p := r.path("image", "blobs", algo, hash)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	require.Equal(t, hash, hex.EncodeToString(sum[:]), "the blob's content has its digest")
	return p
}

func readJSON(t *testing.T, v any, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, v), path)
}

type tarFile struct {
	mode int64
	data []byte
}

func readTar(t *testing.T, r io.Reader) map[string]tarFile {
	t.Helper()
	files := map[string]tarFile{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		require.NoError(t, err)
		data, err := io.ReadAll(tr)
		require.NoError(t, err)
		if h.Typeflag == tar.TypeLink {
			target, ok := files[h.Linkname]
			require.True(t, ok, "%s links to %s, earlier in the archive", h.Name, h.Linkname)
			data = target.data
		}
		files[h.Name] = tarFile{mode: h.Mode, data: data}
	}
}

// readArchive is the files of a .tar.gz or a .zip.
func readArchive(t *testing.T, path string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.OpenReader(path)
		require.NoError(t, err)
		defer zr.Close()
		for _, f := range zr.File {
			rc, err := f.Open()
			require.NoError(t, err)
			data, err := io.ReadAll(rc)
			require.NoError(t, err)
			_ = rc.Close()
			files[f.Name] = data
		}
		return files
	}
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	for name, tf := range readTar(t, zr) {
		files[name] = tf.data
	}
	return files
}

// binaryPlatform is the os/arch an executable was built for.
func binaryPlatform(t *testing.T, data []byte) string {
	t.Helper()
	r := bytes.NewReader(data)
	if f, err := elf.NewFile(r); err == nil {
		arch := map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64"}[f.Machine]
		return "linux/" + arch
	}
	if f, err := macho.NewFile(r); err == nil {
		arch := map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}[f.Cpu]
		return "darwin/" + arch
	}
	if f, err := pe.NewFile(r); err == nil {
		arch := map[uint16]string{pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64"}[f.Machine]
		return "windows/" + arch
	}
	t.Fatal("not an ELF, Mach-O or PE executable")
	return ""
}

// workVersion runs `work version` of a binary for this host and returns
// its gitVersion.
func workVersion(t *testing.T, binary []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "work")
	require.NoError(t, os.WriteFile(path, binary, 0o755))
	out, err := exec.Command(path, "version").Output()
	require.NoError(t, err)
	for _, line := range strings.Split(string(out), "\n") {
		if key, value, ok := strings.Cut(line, ":"); ok && key == "gitVersion" {
			return strings.TrimSpace(value)
		}
	}
	t.Fatalf("no gitVersion in %q", out)
	return ""
}
