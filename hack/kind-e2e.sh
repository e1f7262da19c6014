#!/usr/bin/env bash
# Usage: hack/kind-e2e.sh [up|down]
#
# The installation from deploy/, end to end, for users with Docker and kind:
# kind clusters "hub" and "cluster1", the image built from this checkout and
# loaded into both, work hub with its webhook on the hub, work agent on
# cluster1, and the tutorial's ManifestWork delivered until it is Applied and
# Available. `down` deletes both clusters. Files go to _output/kind.
#
# Needs docker, kind, make and kubectl (1.24 or later) on PATH. The image is
# quay.io/manifestwork/work tagged with the file VERSION, as deploy/ names it;
# IMAGE (with a tag) overrides it. Not part of `make test`, which needs no
# Docker.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/_output/kind"
image=${IMAGE:-quay.io/manifestwork/work:$(cat "$root/VERSION")}
hub=(--context kind-hub)
c1=(--context kind-cluster1)

step() { printf '\n==> %s\n' "$*"; }

# overlay DIR BASE: deploy/BASE with the image of this run (the images: entry
# an overlay uses to point the bases at another registry).
overlay() {
	mkdir -p "$out/$1"
	cat >"$out/$1/kustomization.yaml" <<EOF
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [../../../deploy/$2]
images: [{name: quay.io/manifestwork/work, newName: "${image%:*}", newTag: "${image##*:}"}]
EOF
}

# secret CONTEXT NAMESPACE ARGS...: create or update a Secret.
secret() {
	local ctx=$1 ns=$2
	shift 2
	kubectl --context "$ctx" -n "$ns" create secret "$@" --dry-run=client -o yaml |
		kubectl --context "$ctx" apply -f -
}

# established waits for CRDs to be served. kubectl wait fails at once on a CRD
# the API server has not yet given a status, so it is asked twice.
established() {
	kubectl wait --for condition=Established "$@" >/dev/null 2>&1 ||
		{ sleep 2; kubectl wait --for condition=Established "$@"; }
}

down() {
	for c in hub cluster1; do kind delete cluster --name "$c"; done
}

up() {
	for tool in docker kind make kubectl; do
		command -v "$tool" >/dev/null || { echo "$tool is needed on PATH" >&2; exit 1; }
	done
	mkdir -p "$out"

	step "Kind clusters hub and cluster1"
	for c in hub cluster1; do
		kind get clusters 2>/dev/null | grep -qx "$c" || kind create cluster --name "$c" --wait 2m
	done

	step "Image $image, loaded into both clusters"
	make -C "$root" image IMAGE="$image"
	make -C "$root" kind-load IMAGE="$image" KIND_CLUSTERS="hub cluster1"
	overlay hub hub
	overlay agent agent

	step "CRDs: ManifestWork on the hub, AppliedManifestWork on cluster1"
	kubectl "${hub[@]}" apply -f "$root/manifests/hub"
	kubectl "${c1[@]}" apply -f "$root/manifests/managed"
	established "${hub[@]}" crd/manifestworks.work.open-cluster-management.io
	established "${c1[@]}" crd/appliedmanifestworks.work.open-cluster-management.io

	step "work hub (deploy/hub), serving the webhook with a certificate from hack/webhook-certs.sh"
	"$root/hack/webhook-certs.sh" "$out/webhook"
	kubectl "${hub[@]}" apply -k "$out/hub"
	secret kind-hub open-cluster-management-hub tls work-webhook-tls \
		--cert="$out/webhook/tls.crt" --key="$out/webhook/tls.key"
	kubectl "${hub[@]}" -n open-cluster-management-hub rollout status deploy/work-hub --timeout 3m
	# Last: the configuration fails closed, so it waits for serving replicas.
	kubectl "${hub[@]}" apply -f "$out/webhook/validatingwebhookconfiguration.yaml"

	step "Namespace cluster1 on the hub and the agent's identity there (deploy/cluster-namespace)"
	kubectl "${hub[@]}" apply -k "$root/deploy/cluster-namespace"

	step "The agent's hub kubeconfig: a token of cluster1/work-agent, the hub as seen from the kind network"
	kind get kubeconfig --name hub --internal >"$out/hub-internal.kubeconfig"
	server=$(kubectl --kubeconfig "$out/hub-internal.kubeconfig" config view --raw -o jsonpath='{.clusters[0].cluster.server}')
	ca=$(kubectl --kubeconfig "$out/hub-internal.kubeconfig" config view --raw \
		-o jsonpath='{.clusters[0].cluster.certificate-authority-data}')
	# A TokenRequest: it expires (here after a year); run the script again to renew it.
	token=$(kubectl "${hub[@]}" -n cluster1 create token work-agent --duration 8760h)
	(umask 077 && cat >"$out/agent-hub.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters: [{name: hub, cluster: {server: "$server", certificate-authority-data: "$ca"}}]
users: [{name: work-agent, user: {token: "$token"}}]
contexts: [{name: hub, context: {cluster: hub, user: work-agent, namespace: cluster1}}]
current-context: hub
EOF
	)

	step "work agent on cluster1 (deploy/agent), with that kubeconfig in the Secret hub-kubeconfig"
	kubectl "${c1[@]}" apply -k "$out/agent"
	secret kind-cluster1 open-cluster-management-agent generic hub-kubeconfig \
		--from-file=kubeconfig="$out/agent-hub.kubeconfig"
	kubectl "${c1[@]}" -n open-cluster-management-agent rollout status deploy/work-agent --timeout 3m

	step "The tutorial's work (deploy/examples/example-manifestwork.yaml)"
	kubectl "${hub[@]}" apply -f "$root/deploy/examples/example-manifestwork.yaml"
	kubectl "${hub[@]}" -n cluster1 wait manifestwork/example-manifestwork --for condition=Applied --timeout 3m
	kubectl "${hub[@]}" -n cluster1 wait manifestwork/example-manifestwork --for condition=Available --timeout 5m
	kubectl "${hub[@]}" -n cluster1 get manifestwork example-manifestwork -o yaml | sed -n '/^status:/,$p'
	kubectl "${c1[@]}" -n default get deployment nginx-deployment
}

case ${1:-up} in
up) up ;;
down) down ;;
*)
	echo "usage: $0 [up|down]" >&2
	exit 2
	;;
esac
