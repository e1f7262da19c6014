# The work binary (work agent, hub, manager, webhook-server) at /work on a
# distroless base: static, non-root, nothing written outside /tmp.
#   make image                      # IMAGE=quay.io/manifestwork/work:$(cat VERSION)
#   docker build -t <image> .       # the version from the file VERSION
#   docker build --build-arg VERSION=v0.1.0 -t <image> .
# Dependencies come from vendor/: the build needs no network.
#
# Both ways of starting it work: `docker run <image> agent ...` and our
# deploy/ bases (args [agent, ...]) go through the ENTRYPOINT; OCM's
# Klusterlet and ClusterManager set args ["/work", "agent", ...] and no
# command, for an image without one, so the container runs
# `/work /work agent ...`, and the binary drops a first argument naming
# itself (docs/replace-ocm-work-agent.md).

FROM golang:1.26 AS build
WORKDIR /src
# Only what ./cmd/work is built from, and the release version, so that
# changes elsewhere (tests, deploy/, docs) keep the build step cached.
COPY go.mod go.sum VERSION ./
COPY vendor/ vendor/
COPY pkg/ pkg/
COPY cmd/ cmd/
# An empty VERSION means the file VERSION of the checkout.
ARG VERSION=""
ARG GIT_COMMIT=""
ARG BUILD_DATE=""
# Static and stripped: the final image has no libc and no shell.
RUN version="${VERSION:-$(cat VERSION)}" && \
    CGO_ENABLED=0 go build -mod=vendor -trimpath \
      -ldflags "-s -w \
        -X github.com/manifestwork/work/pkg/version.gitVersion=${version} \
        -X github.com/manifestwork/work/pkg/version.gitCommit=${GIT_COMMIT} \
        -X github.com/manifestwork/work/pkg/version.buildDate=${BUILD_DATE}" \
      -o /out/work ./cmd/work

FROM gcr.io/distroless/static:nonroot
COPY --from=build /out/work /work
# 65532 is "nonroot" in the distroless image; numeric, so that the kubelet can
# check runAsNonRoot without reading /etc/passwd.
USER 65532:65532
ENTRYPOINT ["/work"]
