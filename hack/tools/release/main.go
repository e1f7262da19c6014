// Command release writes the artefacts of a release that need more than the
// go and helm commands (hack/release.sh runs it):
//
//	release image -out DIR -version V -revision R -source URL -created T linux/amd64=BIN linux/arm64=BIN
//	release archive -out FILE -created T NAME=PATH...
//
// image writes an OCI image layout: an index with one image per platform,
// each from scratch with the binary at /work (the entrypoint), a numeric
// non-root user, the CA bundle and an /etc/passwd; no Docker engine and no
// network. archive writes a .tar.gz, or a .zip when FILE ends in .zip; a
// PATH given under two NAMEs is a hard link in a tar. Both stamp every file
// with the commit time, so that one commit gives the same bytes.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"golang.org/x/crypto/x509roots/fallback/bundle"
)

// user is the image's user and group: numeric, so that the kubelet checks
// runAsNonRoot without reading /etc/passwd; 65532 is distroless's nonroot.
const user = 65532

func main() {
	if len(os.Args) < 2 {
		fail(errors.New("usage: release image|archive [flags] ARGS"))
	}
	var err error
	switch os.Args[1] {
	case "image":
		err = imageCommand(os.Args[2:])
	case "archive":
		err = archiveCommand(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: image or archive", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "release:", err)
	os.Exit(1)
}

// pairs splits NAME=VALUE arguments, in order.
func pairs(args []string) ([][2]string, error) {
	var out [][2]string
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("%q: want NAME=PATH", a)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

// parseTime reads -created: seconds since the epoch (git's %ct, what
// hack/release.sh passes).
func parseTime(s string) (time.Time, error) {
	secs, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("-created %q: seconds since the epoch", s)
	}
	return time.Unix(secs, 0).UTC(), nil
}

func imageCommand(args []string) error {
	fs := flag.NewFlagSet("image", flag.ExitOnError)
	out := fs.String("out", "", "folder of the OCI image layout (must not exist)")
	version := fs.String("version", "", "the release version: label, annotation and the layout's ref name")
	revision := fs.String("revision", "", "the commit")
	source := fs.String("source", "", "the source repository's URL")
	created := fs.String("created", "", "the commit time")
	_ = fs.Parse(args)
	if *out == "" || *version == "" || *revision == "" || *source == "" || *created == "" {
		return errors.New("image: -out, -version, -revision, -source and -created are required")
	}
	when, err := parseTime(*created)
	if err != nil {
		return err
	}
	bins, err := pairs(fs.Args())
	if err != nil {
		return err
	}
	if len(bins) == 0 {
		return errors.New("image: no PLATFORM=BINARY")
	}
	labels := map[string]string{
		"org.opencontainers.image.version":  *version,
		"org.opencontainers.image.revision": *revision,
		"org.opencontainers.image.source":   *source,
		"org.opencontainers.image.created":  when.Format(time.RFC3339),
		"org.opencontainers.image.title":    "work",
	}
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, b := range bins {
		osName, arch, ok := strings.Cut(b[0], "/")
		if !ok || osName != "linux" {
			return fmt.Errorf("image: platform %q: want linux/ARCH", b[0])
		}
		img, err := platformImage(b[1], arch, labels, when)
		if err != nil {
			return fmt.Errorf("image %s: %w", b[0], err)
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{
			Add:        img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: osName, Architecture: arch}},
		})
	}
	idx = mutate.Annotations(idx, labels).(v1.ImageIndex)
	if _, err := os.Stat(*out); err == nil {
		return fmt.Errorf("image: %s exists", *out)
	}
	p, err := layout.Write(*out, empty.Index)
	if err != nil {
		return err
	}
	// skopeo copy oci:DIR:VERSION finds the index by this name.
	if err := p.AppendIndex(idx, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": *version,
	})); err != nil {
		return err
	}
	digest, err := idx.Digest()
	if err != nil {
		return err
	}
	fmt.Println(digest)
	return nil
}

// platformImage is one platform's image: a single layer over scratch.
func platformImage(binary, arch string, labels map[string]string, when time.Time) (v1.Image, error) {
	data, err := os.ReadFile(binary)
	if err != nil {
		return nil, err
	}
	files, err := rootFiles(data)
	if err != nil {
		return nil, err
	}
	layerTar, err := tarOf(files, when)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	base := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	base = mutate.ConfigMediaType(base, types.OCIConfigJSON)
	base, err = mutate.ConfigFile(base, &v1.ConfigFile{
		Architecture: arch,
		OS:           "linux",
		Config: v1.Config{
			Entrypoint: []string{"/work"},
			User:       fmt.Sprintf("%d:%d", user, user),
			WorkingDir: "/",
			Env:        []string{"PATH=/", "HOME=/home/nonroot"},
			Labels:     labels,
		},
		RootFS: v1.RootFS{Type: "layers"},
	})
	if err != nil {
		return nil, err
	}
	img, err := mutate.Append(base, mutate.Addendum{
		Layer:     layer,
		MediaType: types.OCILayer,
		History:   v1.History{Created: v1.Time{Time: when}, CreatedBy: "hack/release.sh", Comment: "the work binary at /work"},
	})
	if err != nil {
		return nil, err
	}
	return mutate.CreatedAt(img, v1.Time{Time: when})
}

// file is an entry of a tar or zip: a folder when dir is set, in a tar a
// hard link to the file named link when that is set.
type file struct {
	name string
	mode int64
	dir  bool
	data []byte
	uid  int
	link string
}

// rootFiles is the image's file system. The agent and the hub reach their
// API servers with the CA of their kubeconfig, but the CloudEvents clients
// (MQTT, gRPC) trust the system's roots plus the broker's CA, as OCM's
// agent does, so a broker with a public certificate needs the bundle at
// the path Go reads on Linux. Roots NSS constrains (distrust after a date)
// cannot be written as PEM and are left out.
func rootFiles(binary []byte) ([]file, error) {
	var cas bytes.Buffer
	for r := range bundle.Roots() {
		if r.Constraint != nil {
			continue
		}
		if err := pem.Encode(&cas, &pem.Block{Type: "CERTIFICATE", Bytes: r.Certificate}); err != nil {
			return nil, err
		}
	}
	if cas.Len() == 0 {
		return nil, errors.New("no CA certificates in the bundle")
	}
	return []file{
		{name: "etc/", dir: true, mode: 0o755},
		{name: "etc/group", mode: 0o644, data: []byte(fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", user))},
		{name: "etc/passwd", mode: 0o644, data: []byte(fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:/home/nonroot:/sbin/nologin\n", user, user))},
		{name: "etc/ssl/", dir: true, mode: 0o755},
		{name: "etc/ssl/certs/", dir: true, mode: 0o755},
		{name: "etc/ssl/certs/ca-certificates.crt", mode: 0o644, data: cas.Bytes()},
		{name: "home/", dir: true, mode: 0o755},
		{name: "home/nonroot/", dir: true, mode: 0o700, uid: user},
		{name: "tmp/", dir: true, mode: 0o1777},
		{name: "work", mode: 0o755, data: binary},
	}, nil
}

// tarOf is an uncompressed tar of files, each stamped with when.
func tarOf(files []file, when time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		h := &tar.Header{
			Name: f.name, Mode: f.mode, ModTime: when, Uid: f.uid, Gid: f.uid,
			Typeflag: tar.TypeReg, Size: int64(len(f.data)), Format: tar.FormatPAX,
		}
		data := f.data
		switch {
		case f.dir:
			h.Typeflag, h.Size, data = tar.TypeDir, 0, nil
		case f.link != "":
			h.Typeflag, h.Size, h.Linkname, data = tar.TypeLink, 0, f.link, nil
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func archiveCommand(args []string) error {
	fs := flag.NewFlagSet("archive", flag.ExitOnError)
	out := fs.String("out", "", "the archive: .tar.gz or .zip")
	created := fs.String("created", "", "the commit time")
	_ = fs.Parse(args)
	when, err := parseTime(*created)
	if err != nil {
		return err
	}
	entries, err := pairs(fs.Args())
	if err != nil {
		return err
	}
	var files []file
	// A PATH named twice (kubectl-work is work) is read once and, in a
	// tar, the later NAME is a hard link to the first, so that the archive
	// holds the binary once (a zip has no links: a copy).
	first := map[string]file{}
	for _, e := range entries {
		if f, ok := first[e[1]]; ok {
			files = append(files, file{name: e[0], mode: f.mode, data: f.data, link: f.name})
			continue
		}
		fi, err := os.Stat(e[1])
		if err != nil {
			return err
		}
		data, err := os.ReadFile(e[1])
		if err != nil {
			return err
		}
		mode := int64(0o644)
		if fi.Mode()&0o111 != 0 {
			mode = 0o755
		}
		f := file{name: e[0], mode: mode, data: data}
		first[e[1]] = f
		files = append(files, f)
	}
	var data []byte
	switch {
	case strings.HasSuffix(*out, ".zip"):
		data, err = zipOf(files, when)
	case strings.HasSuffix(*out, ".tar.gz"):
		data, err = tarGzOf(files, when)
	default:
		err = fmt.Errorf("archive: %s: want .tar.gz or .zip", *out)
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(*out, data, 0o644)
}

func tarGzOf(files []file, when time.Time) ([]byte, error) {
	raw, err := tarOf(files, when)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.ModTime = when
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipOf(files []file, when time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: when}
		h.SetMode(os.FileMode(f.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
