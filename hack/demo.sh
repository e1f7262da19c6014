#!/usr/bin/env bash
# A local hub and managed cluster "cluster1" as kwok clusters (real
# kube-apiservers run as local processes), the CRDs and the RBAC of deploy/,
# `work hub` and `work agent` running as the ServiceAccounts of deploy/, and
# the tutorial's example work applied.
#
#   hack/demo.sh up     start everything (stops a previous demo first)
#   hack/demo.sh down   stop the processes and delete the clusters
#
# DEMO_TIMEOUT (seconds, default 120) bounds the wait for the work.
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

# sa_kubeconfig writes $demo/<out>.kubeconfig: the cluster's admin kubeconfig
# with its user replaced by a token of the ServiceAccount namespace/name.
sa_kubeconfig() { # cluster, namespace, name, out
  local out="$demo/$4.kubeconfig" token
  token=$("$kubectl" --kubeconfig "$demo/$1.kubeconfig" -n "$2" create token "$3" --duration 24h)
  cp "$demo/$1.kubeconfig" "$out"
  "$kubectl" --kubeconfig "$out" config set-credentials "$3" --token "$token" >/dev/null
  "$kubectl" --kubeconfig "$out" config set-context --current --user "$3" >/dev/null
}

# wait_allowed waits until RBAC lets a user do something: aggregated
# ClusterRoles are filled in by kube-controller-manager a moment later.
wait_allowed() { # cluster, user, verb, resource, flags...
  local cluster=$1 user=$2
  shift 2
  for _ in $(seq 1 60); do
    if "$kubectl" --kubeconfig "$demo/$cluster.kubeconfig" auth can-i --as "$user" "$@" >/dev/null 2>&1; then
      return 0
    fi
    sleep 1
  done
  echo "$user is still not allowed to $* on $cluster after 60s" >&2
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

# established waits for CRDs to be served. kubectl wait fails at once on a CRD
# the API server has not yet given a status, so it is asked twice.
established() {
  "$kubectl" wait --for condition=Established "$@" >/dev/null 2>&1 ||
    { sleep 2; "$kubectl" wait --for condition=Established "$@"; }
}

up() {
  down
  mkdir -p "$demo/logs"
  step "Creating the hub and cluster1 (kwok, binary runtime)"
  create_cluster hub
  create_cluster cluster1
  local hub=(--kubeconfig "$demo/hub.kubeconfig") c1=(--kubeconfig "$demo/cluster1.kubeconfig")

  step "Installing CRDs, and the identities and RBAC of deploy/"
  "$kubectl" "${hub[@]}" apply -f "$root/manifests/hub/"
  "$kubectl" "${c1[@]}" apply -f "$root/manifests/managed/"
  established "${hub[@]}" crd/manifestworks.work.open-cluster-management.io
  established "${c1[@]}" crd/appliedmanifestworks.work.open-cluster-management.io
  "$kubectl" "${hub[@]}" apply -f "$root/deploy/hub/rbac.yaml"
  "$kubectl" "${hub[@]}" apply -k "$root/deploy/cluster-namespace"
  "$kubectl" "${c1[@]}" apply -f "$root/deploy/agent/rbac.yaml"

  step "Minting kubeconfigs for the ServiceAccounts of deploy/ (the processes run as them, not as admin)"
  sa_kubeconfig hub open-cluster-management-hub work-hub hub-work-hub
  sa_kubeconfig hub cluster1 work-agent hub-work-agent
  sa_kubeconfig cluster1 open-cluster-management-agent klusterlet-work-sa cluster1-work-agent
  wait_allowed hub system:serviceaccount:open-cluster-management-hub:work-hub list manifestworks.work.open-cluster-management.io -A
  wait_allowed hub system:serviceaccount:cluster1:work-agent patch manifestworks.work.open-cluster-management.io/status -n cluster1
  wait_allowed cluster1 system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa create appliedmanifestworks.work.open-cluster-management.io

  step "Starting work hub and work agent"
  # Each on ports of its own: both would take :8081 and :8443 by default.
  # --metrics-auth=false: the demo's metrics answer anyone, on the loopback
  # address only; a real installation keeps them behind the API server's
  # TokenReview and SubjectAccessReview (docs/security.md).
  start hub hub --kubeconfig "$demo/hub-work-hub.kubeconfig" --health-probe-bind-address 127.0.0.1:18081 \
    --listen 127.0.0.1:18443 --metrics-auth=false
  start agent-cluster1 agent --spoke-cluster-name cluster1 \
    --hub-kubeconfig "$demo/hub-work-agent.kubeconfig" --kubeconfig "$demo/cluster1-work-agent.kubeconfig" \
    --health-probe-bind-address 127.0.0.1:18082 --listen 127.0.0.1:18444 --metrics-auth=false
  wait_ready hub 18081
  wait_ready agent-cluster1 18082

  step "Applying the tutorial's work (deploy/examples/example-manifestwork.yaml)"
  "$kubectl" "${hub[@]}" apply -f "$root/deploy/examples/example-manifestwork.yaml"
  wait_work

  step "kubectl get manifestwork -n cluster1"
  "$kubectl" "${hub[@]}" get manifestwork -n cluster1
  step "Per-resource status of example-manifestwork"
  "$kubectl" "${hub[@]}" get manifestwork -n cluster1 example-manifestwork -o go-template="$resource_table"
  step "On cluster1"
  "$kubectl" "${c1[@]}" get appliedmanifestwork
  "$kubectl" "${c1[@]}" get serviceaccount/my-sa deployment/nginx-deployment -n default

  step "Look around"
  cat <<LOOK
  kubectl=$kubectl
  \$kubectl --kubeconfig $demo/hub.kubeconfig -n cluster1 get manifestwork example-manifestwork -o yaml
  \$kubectl --kubeconfig $demo/hub.kubeconfig -n cluster1 edit manifestwork example-manifestwork    # e.g. change replicas
  \$kubectl --kubeconfig $demo/cluster1.kubeconfig get appliedmanifestwork,deployment -A
  \$kubectl --kubeconfig $demo/hub.kubeconfig -n cluster1 get events                                # what the agent reported
  \$kubectl --kubeconfig $demo/hub.kubeconfig -n cluster1 delete manifestwork example-manifestwork  # cleans cluster1 up
  logs: $demo/logs/
  health and metrics (open in this demo: --metrics-auth=false): http://127.0.0.1:18081/metrics (hub), http://127.0.0.1:18082/metrics (agent)
  tear down: make demo-down
LOOK
}

# resource_table prints one line per manifest: ordinal, kind, object, the
# status of each of its conditions, and its feedback values.
resource_table='{{range .status.resourceStatus.manifests}}{{printf "%-3v" .resourceMeta.ordinal}}{{printf "%-16s" .resourceMeta.kind}}{{.resourceMeta.namespace}}/{{.resourceMeta.name}}{{range .conditions}}  {{.type}}={{.status}}{{end}}{{range .statusFeedback.values}}  {{.name}}={{.fieldValue.integer}}{{end}}
{{end}}'

# wait_work waits, printing each change of the work's status, until it is
# Applied and Available and its Deployment reports 3 ready replicas.
wait_work() {
  local hub=(--kubeconfig "$demo/hub.kubeconfig") last="" now began=$SECONDS
  local deadline=$((SECONDS + ${DEMO_TIMEOUT:-120}))
  local state='{{range .status.conditions}}{{.type}}={{.status}} {{end}}{{range .status.resourceStatus.manifests}}{{range .statusFeedback.values}}{{.name}}={{.fieldValue.integer}} {{end}}{{end}}'
  while ((SECONDS < deadline)); do
    now=$("$kubectl" "${hub[@]}" get manifestwork -n cluster1 example-manifestwork -o go-template="$state" 2>/dev/null || true)
    if [[ "$now" != "$last" ]]; then
      printf '  after %2ds: %s\n' "$((SECONDS - began))" "${now:-no status yet}"
      last=$now
    fi
    if [[ "$now" == *Applied=True* && "$now" == *Available=True* && "$now" == *ReadyReplicas=3* ]]; then
      return 0
    fi
    sleep 1
  done
  echo "the work was not Applied and Available with 3 ready replicas within ${DEMO_TIMEOUT:-120}s; logs in $demo/logs/" >&2
  return 1
}

case "${1:-}" in
  up) up ;;
  down) down; echo "demo stopped" ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
