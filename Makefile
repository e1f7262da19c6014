# The two commands of README.md are `make demo` and `make test`.
SHELL := /usr/bin/env bash -o pipefail
GO ?= go
OUTPUT ?= _output
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo v0.0.0-dev)
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

.PHONY: all build test test-unit test-integration test-e2e test-demo verify demo demo-down testbed helm ocm-agent update-codegen ocm-differences clean webhook-certs image bench

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(OUTPUT)/bin/work ./cmd/work

testbed:
	@hack/testbed.sh

helm:
	@hack/helm.sh

ocm-agent:
	@hack/ocm-agent.sh

test: testbed helm ocm-agent test-unit test-integration test-e2e test-demo

test-unit:
	$(GO) test -count=1 ./cmd/... ./pkg/...
	@# OCM's published Go types read the status our agent writes (its own module, pinned).
	cd hack/tools/ocm-api && $(GO) test -count=1 ./...

test-integration: testbed
	WORK_TESTBED_BIN=$(TESTBED) $(GO) test -count=1 -timeout 20m ./test/integration/...

test-e2e: testbed helm ocm-agent
	WORK_TESTBED_BIN=$(TESTBED) WORK_HELM=$(HELM) WORK_OCM_AGENT=$(OCM_AGENT) $(GO) test -count=1 -timeout 45m -v ./test/e2e/...

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

# The container image (Dockerfile); needs a Docker engine, so it is not part
# of test. deploy/ refers to quay.io/manifestwork/work:latest.
IMAGE ?= quay.io/manifestwork/work:latest
image:
	docker build --build-arg VERSION=$(VERSION) --build-arg GIT_COMMIT=$$(git rev-parse HEAD 2>/dev/null) \
		--build-arg BUILD_DATE=$$(date -u +%Y-%m-%dT%H:%M:%SZ) -t $(IMAGE) .

clean:
	rm -rf $(OUTPUT)

# Benchmark of the agent on a kwok hub and cluster1 (issue 7); not part of
# test. Sizes and agents from BENCH_WORKS, BENCH_MANIFESTS, BENCH_IDLE,
# BENCH_QPS, BENCH_AGENTS, BENCH_OUT and more (test/bench/params_test.go);
# the table is printed and written, with the JSON, to _output/bench.
bench: testbed
	WORK_TESTBED_BIN=$(TESTBED) WORK_BENCH=1 $(GO) test -count=1 -timeout 90m -v ./test/bench/...
