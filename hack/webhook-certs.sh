#!/usr/bin/env bash
# Usage: hack/webhook-certs.sh OUT_DIR [URL]
#
# Makes a self-signed CA and a serving certificate for the work hub's
# ManifestWork and WorkOverride webhook, and a ValidatingWebhookConfiguration
# trusting that CA.
# Writes OUT_DIR/ca.crt, tls.crt, tls.key and validatingwebhookconfiguration.yaml.
# With URL (e.g. https://127.0.0.1:9443/validate-manifestwork, for a hub
# running outside the cluster) the configuration calls that URL for
# ManifestWorks, and /validate-workoverride of the same host for
# WorkOverrides; without, it calls the Service
# open-cluster-management-hub/work-webhook on port 443.
# Running it again over the same OUT_DIR rotates everything; a running hub
# picks up the new tls.crt and tls.key by itself.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
	echo "usage: $0 OUT_DIR [URL]" >&2
	exit 2
fi
out=$1
url=${2:-}
days=${WEBHOOK_CERT_DAYS:-365}
service=work-webhook
namespace=open-cluster-management-hub

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -days "$days" -subj "/CN=work-webhook-ca" \
	-keyout "$tmp/ca.key" -out "$tmp/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=$service.$namespace.svc" \
	-keyout "$tmp/tls.key" -out "$tmp/tls.csr" 2>/dev/null
cat >"$tmp/ext.cnf" <<EXT
basicConstraints = CA:FALSE
keyUsage = digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost, DNS:$service.$namespace.svc, DNS:$service.$namespace.svc.cluster.local
EXT
openssl x509 -req -in "$tmp/tls.csr" -CA "$tmp/ca.crt" -CAkey "$tmp/ca.key" -CAcreateserial \
	-days "$days" -extfile "$tmp/ext.cnf" -out "$tmp/tls.crt" 2>/dev/null

ca_bundle=$(base64 <"$tmp/ca.crt" | tr -d '\n')

# webhook NAME PATH GROUP RESOURCE writes the entry of webhooks: that
# reviews CREATE and UPDATE of spec of the resource at PATH: of the URL's
# host when a URL is given, else of the Service.
webhook() {
	local client
	if [[ -n "$url" ]]; then
		client="url: \"$(sed -E 's#^(https://[^/]+).*#\1#' <<<"$url")$2\""
	else
		client="service: {namespace: $namespace, name: $service, port: 443, path: $2}"
	fi
	cat <<YAML
- name: $1
  clientConfig:
    $client
    caBundle: $ca_bundle
  rules:
  - apiGroups: ["$3"]
    apiVersions: ["*"]
    operations: ["CREATE", "UPDATE"]
    resources: ["$4"]
  matchPolicy: Equivalent
  # Only writes of spec reach the webhook: finalizers, labels, deletions and
  # (as a subresource, unmatched anyway) status never wait on it.
  matchConditions:
  - name: spec-written
    expression: "request.operation == 'CREATE' || !has(object.spec) || !has(oldObject.spec) || object.spec != oldObject.spec"
  sideEffects: None
  admissionReviewVersions: ["v1"]
  failurePolicy: Fail
  timeoutSeconds: 5
YAML
}

# ManifestWorks at the URL's path (ours or OCM's), WorkOverrides at theirs.
work_path=/validate-manifestwork
if [[ -n "$url" ]]; then
	work_path=$(sed -E 's#^https://[^/]+##' <<<"$url")
fi
{
	cat <<YAML
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: manifestwork.work.open-cluster-management.io
webhooks:
YAML
	webhook manifestwork.work.open-cluster-management.io "$work_path" work.open-cluster-management.io manifestworks
	webhook workoverride.fleet.manifestwork.io /validate-workoverride fleet.manifestwork.io workoverrides
} >"$tmp/validatingwebhookconfiguration.yaml"

# Key before certificate: a hub reading in between keeps its last good pair.
chmod 600 "$tmp/tls.key"
for f in ca.crt tls.key tls.crt validatingwebhookconfiguration.yaml; do
	mv -f "$tmp/$f" "$out/$f"
done
echo "wrote $out/{ca.crt,tls.crt,tls.key,validatingwebhookconfiguration.yaml}"
