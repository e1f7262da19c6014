#!/usr/bin/env bash
# A local hub and managed cluster "cluster1" as kwok clusters (real
# kube-apiservers run as local processes), with `work hub` and `work agent`
# running against them.
#
#   hack/demo.sh up     start everything (stops a previous demo first)
#   hack/demo.sh down   stop the processes and delete the clusters
#
# Everything lives under _output/demo: kubeconfigs, logs, kwok's state.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
demo="$root/_output/demo"
work="$root/_output/bin/work"
export KWOK_WORKDIR="$demo/kwok"

step() { printf '\n==> %s\n' "$*"; }

bin=$("$root/hack/testbed.sh")
kubectl="$bin/kubectl"

create_cluster() { # name
  HOME="$demo/home" "$bin/kwokctl" create cluster --name "work-demo-$1" --runtime binary \
    --kubeconfig "$demo/$1.kubeconfig" \
    --kube-apiserver-binary "$bin/kube-apiserver" \
    --kube-controller-manager-binary "$bin/kube-controller-manager" \
    --kube-scheduler-binary "$bin/kube-scheduler" \
    --etcd-binary "$bin/etcd" \
    --kwok-controller-binary "$bin/kwok" \
    --wait 2m >"$demo/logs/kwokctl-$1.log" 2>&1
  HOME="$demo/home" "$bin/kwokctl" scale node --name "work-demo-$1" --replicas 2 >>"$demo/logs/kwokctl-$1.log" 2>&1
}

start() { # name, args...
  local name=$1
  shift
  nohup "$work" "$@" >"$demo/logs/$name.log" 2>&1 &
  echo $! >"$demo/$name.pid"
}

wait_ready() { # name, port
  for _ in $(seq 1 60); do
    if curl -fsS "http://127.0.0.1:$2/readyz" >/dev/null 2>&1; then
      echo "$1 is ready (http://127.0.0.1:$2/readyz)"
      return 0
    fi
    if ! kill -0 "$(cat "$demo/$1.pid")" 2>/dev/null; then
      echo "$1 exited; its log ends with:" >&2
      tail -20 "$demo/logs/$1.log" >&2
      return 1
    fi
    sleep 1
  done
  echo "$1 did not become ready within 60s; see $demo/logs/$1.log" >&2
  return 1
}

down() {
  for name in agent-cluster1 hub; do
    if [[ -f "$demo/$name.pid" ]]; then
      kill "$(cat "$demo/$name.pid")" 2>/dev/null || true
      rm -f "$demo/$name.pid"
    fi
  done
  for c in hub cluster1; do
    if [[ -d "$KWOK_WORKDIR/clusters/work-demo-$c" ]]; then
      "$bin/kwokctl" delete cluster --name "work-demo-$c" --kubeconfig "$demo/$c.kubeconfig" >/dev/null 2>&1 || true
    fi
  done
}

up() {
  down
  mkdir -p "$demo/logs"
  step "Creating the hub and cluster1 (kwok, binary runtime)"
  create_cluster hub
  create_cluster cluster1
  local hub=(--kubeconfig "$demo/hub.kubeconfig") c1=(--kubeconfig "$demo/cluster1.kubeconfig")

  step "Installing CRDs and namespaces"
  "$kubectl" "${hub[@]}" apply -f "$root/manifests/hub/"
  "$kubectl" "${c1[@]}" apply -f "$root/manifests/managed/"
  "$kubectl" "${hub[@]}" wait --for condition=Established crd/manifestworks.work.open-cluster-management.io
  "$kubectl" "${c1[@]}" wait --for condition=Established crd/appliedmanifestworks.work.open-cluster-management.io
  "$kubectl" "${hub[@]}" create namespace cluster1
  "$kubectl" "${hub[@]}" create namespace open-cluster-management-hub
  "$kubectl" "${c1[@]}" create namespace open-cluster-management-agent

  step "Starting work hub and work agent"
  start hub hub --kubeconfig "$demo/hub.kubeconfig" --health-probe-bind-address 127.0.0.1:18081
  start agent-cluster1 agent --spoke-cluster-name cluster1 \
    --hub-kubeconfig "$demo/hub.kubeconfig" --kubeconfig "$demo/cluster1.kubeconfig" \
    --health-probe-bind-address 127.0.0.1:18082
  wait_ready hub 18081
  wait_ready agent-cluster1 18082

  step "Look around"
  cat <<EOF
  kubectl --kubeconfig $demo/hub.kubeconfig get manifestwork -A
  kubectl --kubeconfig $demo/cluster1.kubeconfig get appliedmanifestwork
  logs: $demo/logs/
  kubectl: $kubectl
  tear down: make demo-down
EOF
}

case "${1:-}" in
  up) up ;;
  down) down; echo "demo stopped" ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
