# The two commands of README.md are `make demo` and `make test`.
SHELL := /usr/bin/env bash -o pipefail
GO ?= go
OUTPUT ?= _output
# The release version, from the file VERSION: the binary's `work version`, the
# image tag, and the charts' version and appVersion (cmd/work's tests check
# that they agree).
VERSION ?= $(shell cat VERSION)
LDFLAGS := -X github.com/manifestwork/work/pkg/version.gitVersion=$(VERSION) \
	-X github.com/manifestwork/work/pkg/version.gitCommit=$(shell git rev-parse HEAD 2>/dev/null) \
	-X github.com/manifestwork/work/pkg/version.buildDate=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)
# The test bed (kube-apiserver, etcd, kube-controller-manager, kube-scheduler,
# kubectl, kwok, kwokctl) is built once into a cache outside the checkout.
TESTBED = $(shell hack/testbed.sh)
# helm, for the chart tests, is built once into its own cache folder beside it.
HELM = $(shell hack/helm.sh)
# OCM's work agent, for the take-over tests, likewise.
OCM_AGENT = $(shell hack/ocm-agent.sh)
# The MQTT broker of the CloudEvents tests and bench, likewise.
MQTT_BROKER = $(shell hack/mqtt-broker.sh)

.PHONY: all build test test-unit test-integration test-e2e test-demo verify demo demo-down testbed helm ocm-agent mqtt-broker update-codegen ocm-differences clean webhook-certs image kind-load push bench release release-dry-run

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(OUTPUT)/bin/work ./cmd/work

testbed:
	@hack/testbed.sh

helm:
	@hack/helm.sh

ocm-agent:
	@hack/ocm-agent.sh

mqtt-broker:
	@hack/mqtt-broker.sh

test: testbed helm ocm-agent mqtt-broker test-unit release-dry-run test-integration test-e2e test-demo

test-unit:
	$(GO) test -count=1 ./cmd/... ./pkg/...
	@# OCM's published Go types read the status our agent writes (its own module, pinned).
	cd hack/tools/ocm-api && $(GO) test -count=1 ./...

test-integration: testbed
	WORK_TESTBED_BIN=$(TESTBED) $(GO) test -count=1 -timeout 20m ./test/integration/...

test-e2e: testbed helm ocm-agent mqtt-broker
	WORK_TESTBED_BIN=$(TESTBED) WORK_HELM=$(HELM) WORK_OCM_AGENT=$(OCM_AGENT) WORK_MQTT_BROKER=$(MQTT_BROKER) $(GO) test -count=1 -timeout 45m -v ./test/e2e/...

update-codegen:
	hack/update-codegen.sh

# docs/replace-ocm-work-agent.md's table of the differences from OCM's agent,
# from docs/ocm-differences.yaml.
ocm-differences:
	$(GO) run ./hack/ocmdifferences

verify:
	@echo "gofmt"; test -z "$$(gofmt -l cmd pkg test | tee /dev/stderr)"
	@echo "go vet"; $(GO) vet ./...
	@echo "go mod verify"; $(GO) mod verify
	@echo "vendor"; hack/verify-vendor.sh
	@echo "generated code and CRDs"; hack/verify-codegen.sh
	@echo "OCM differences"; $(GO) run ./hack/ocmdifferences -verify

demo: build testbed
	hack/demo.sh up

demo-down:
	hack/demo.sh down

# The README's first command, as CI runs it: bounded, and always torn down.
test-demo: build testbed
	rc=0; timeout 600 hack/demo.sh up || rc=$$?; hack/demo.sh down; exit $$rc

# Serving certificate and ValidatingWebhookConfiguration for the hub webhook;
# WEBHOOK_URL=https://127.0.0.1:9443/validate-manifestwork for a local hub.
webhook-certs:
	hack/webhook-certs.sh $(OUTPUT)/webhook $(WEBHOOK_URL)

# The container image (Dockerfile) and where it goes; these need Docker (and
# kind, or a registry login), so they are not part of test. deploy/ and the
# charts run quay.io/manifestwork/work:$(VERSION) unless pointed at another
# image (docs/install-with-helm.md); IMAGE_REPO or IMAGE names it here.
IMAGE_REPO ?= quay.io/manifestwork/work
IMAGE ?= $(IMAGE_REPO):$(VERSION)
# The kind clusters kind-load loads the image into (hack/kind-e2e.sh's).
KIND_CLUSTERS ?= hub cluster1
image:
	docker build --build-arg VERSION=$(VERSION) --build-arg GIT_COMMIT=$$(git rev-parse HEAD 2>/dev/null) \
		--build-arg BUILD_DATE=$$(date -u +%Y-%m-%dT%H:%M:%SZ) -t $(IMAGE) .

kind-load:
	for c in $(KIND_CLUSTERS); do kind load docker-image $(IMAGE) --name $$c; done

push:
	docker push $(IMAGE)

# A release (docs/releasing.md): binaries, archives and SHA256SUMS, the image
# for linux/amd64 and linux/arm64 as an OCI layout, both charts, the
# changelog's section, in $(OUTPUT)/release/$(VERSION), and the tag; then the
# steps that need credentials are printed (PUSH=1 runs them). No Docker.
release:
	OUTPUT=$(OUTPUT) IMAGE_REPO=$(IMAGE_REPO) hack/release.sh $(if $(PUSH),--push) $(VERSION)

# The release rehearsed, offline, as make test runs it: the host's platform
# and linux/arm64 built, the others proved with go list; no tag, no push.
# test/release checks every artefact against VERSION.
release-dry-run: helm
	OUTPUT=$(OUTPUT) IMAGE_REPO=$(IMAGE_REPO) hack/release.sh --dry-run $(VERSION)
	WORK_RELEASE_DIR=$(abspath $(OUTPUT))/release/v$(patsubst v%,%,$(VERSION)) WORK_RELEASE_VERSION=$(VERSION) $(GO) test -count=1 ./test/release/...

clean:
	rm -rf $(OUTPUT)

# Benchmark of the agent on a kwok hub and cluster1 (issue 7), of many
# agents on one hub, and of a fleet rollout by the hub's controller, ours and
# OCM's (WORK_OCM_AGENT); not part of test. Sizes and agents from
# BENCH_WORKS, BENCH_MANIFESTS, BENCH_IDLE, BENCH_QPS, BENCH_AGENTS,
# BENCH_OUT and more (test/bench/params_test.go); the tables are printed and
# written, with the JSON, to _output/bench.
bench: testbed ocm-agent mqtt-broker
	WORK_TESTBED_BIN=$(TESTBED) WORK_OCM_AGENT=$(OCM_AGENT) WORK_MQTT_BROKER=$(MQTT_BROKER) WORK_BENCH=1 $(GO) test -count=1 -timeout 120m -v ./test/bench/...
