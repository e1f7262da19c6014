// The release's image and archive builder (hack/release.sh): a module of its
// own, so that go-containerregistry never enters the work binary's
// dependencies nor moves the test bed's pins.
module github.com/manifestwork/work/hack/tools/release

go 1.26.0

require (
	github.com/google/go-containerregistry v0.20.7
	golang.org/x/crypto/x509roots/fallback v0.0.0-20261030153154-30a33513ff6d
)

require (
	github.com/containerd/stargz-snapshotter/estargz v0.18.1 // indirect
	github.com/klauspost/compress v1.18.1 // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/opencontainers/image-spec v1.1.1 // indirect
	github.com/vbatts/tar-split v0.12.2 // indirect
	golang.org/x/sync v0.18.0 // indirect
)
