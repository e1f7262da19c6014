#!/usr/bin/env bash
# Usage: hack/webhook-certs.sh OUT_DIR [URL]
#
# Makes a self-signed CA and a serving certificate for the work hub's
# ManifestWork webhook, and a ValidatingWebhookConfiguration trusting that CA.
# Writes OUT_DIR/ca.crt, tls.crt, tls.key and validatingwebhookconfiguration.yaml.
# With URL (e.g. https://127.0.0.1:9443/validate-manifestwork, for a hub
# running outside the cluster) the configuration calls that URL; without, it
# calls the Service open-cluster-management-hub/work-webhook on port 443.
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

if [[ -n "$url" ]]; then
	client="    url: \"$url\""
else
	client="    service: {namespace: $namespace, name: $service, port: 443, path: /validate-manifestwork}"
fi
cat >"$tmp/validatingwebhookconfiguration.yaml" <<YAML
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: manifestwork.work.open-cluster-management.io
webhooks:
- name: manifestwork.work.open-cluster-management.io
  clientConfig:
$client
    caBundle: $(base64 <"$tmp/ca.crt" | tr -d '\n')
  rules:
  - apiGroups: ["work.open-cluster-management.io"]
    apiVersions: ["*"]
    operations: ["CREATE", "UPDATE"]
    resources: ["manifestworks"]
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

# Key before certificate: a hub reading in between keeps its last good pair.
chmod 600 "$tmp/tls.key"
for f in ca.crt tls.key tls.crt validatingwebhookconfiguration.yaml; do
	mv -f "$tmp/$f" "$out/$f"
done
echo "wrote $out/{ca.crt,tls.crt,tls.key,validatingwebhookconfiguration.yaml}"
