#!/usr/bin/env bash
# A release of the payout gateway with kubectl, in order (docs/operations.md, "Deploying on Kubernetes"):
#   1. what the migration needs: the Namespace, ConfigMaps, ServiceAccount (and the Secret where the overlay
#      ships one; in production the operator's Secret must already exist);
#   2. the migration Job: the last release's deleted first (a Job's pod template cannot change), this one
#      created and waited for; a failure stops the release with its log and nothing rolled;
#   3. everything else, and the Deployments' rollouts waited for.
# Each step says what failed and stops. Running it again is safe: every step converges. Before anything is
# applied, the rendering is refused when an object of a namespaced kind has no namespace (it would land in
# whatever namespace the kubectl context points at), or when a value the operator must fill in is still a
# placeholder (`REPLACE_ME…`, an `example.com`/`.example` host, `changeme`, `<…>`, `set-by-release`).
#
#   deploy/release.sh [overlay directory] [image]
#     overlay  default deploy/kubernetes/overlays/production
#     image    the image by digest, e.g. registry.internal/payout-gateway@sha256:<64 hex digits>; default: the
#              overlay's own `images:` (production's is a placeholder, refused)
# Environment: KUBECTL (default kubectl), MIGRATION_TIMEOUT_SECONDS (default 600), ROLLOUT_TIMEOUT (default 10m),
#   BUILD_IMAGE_REPOSITORY: build the image from this checkout, push it there with deploy/build-image.sh and
#   release the digest the registry answered (instead of the image argument; nobody types a digest);
#   CHECK_ONLY=1: render and check, apply nothing (for a pipeline in front of Argo CD).
set -euo pipefail

overlay=${1:-"$(dirname "$0")/kubernetes/overlays/production"}
image=${2:-}
kubectl=${KUBECTL:-kubectl}
migration_timeout=${MIGRATION_TIMEOUT_SECONDS:-600}
rollout_timeout=${ROLLOUT_TIMEOUT:-10m}
job=payout-gateway-migrate

step() { printf '\n== %s\n' "$*"; }
fail() {
  printf '\nrelease stopped: %s\n' "$*" >&2
  exit 1
}

[ -d "$overlay" ] || fail "no overlay directory $overlay"
rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT

if [ -n "${BUILD_IMAGE_REPOSITORY:-}" ]; then
  [ -z "$image" ] || fail "give either an image or BUILD_IMAGE_REPOSITORY, not both"
  step "building and pushing the image to $BUILD_IMAGE_REPOSITORY"
  image=$("$(dirname "$0")/build-image.sh" "$BUILD_IMAGE_REPOSITORY" | tail -n 1) ||
    fail "deploy/build-image.sh did not push the image"
fi
if [ -n "$image" ]; then
  # By digest only: a tag can be moved to another build after it was tested; a digest cannot.
  [[ "$image" =~ ^[a-z0-9][a-z0-9._:/-]*@sha256:[0-9a-f]{64}$ ]] ||
    fail "the image must be pinned by digest (<repository>@sha256:<64 hex digits>), not $image"
fi

step "rendering $overlay"
"$kubectl" kustomize "$overlay" >"$rendered" || fail "kubectl kustomize $overlay did not render"
if [ -n "$image" ]; then
  # The one image of every pod (the overlays' `images:` entry), pinned for this release.
  sed -E -i "s|^([[:space:]]*image: ).*payout-gateway([:@].*)?\$|\1$image|" "$rendered"
fi

# Every object of a namespaced kind carries metadata.namespace: without one, `kubectl apply` puts it in the
# context's namespace, and the release's objects end up split. Cluster-scoped kinds are the exception.
unnamespaced=$(awk '
  function check() {
    if (kind != "" && !namespaced && kind !~ /^(Namespace|ClusterRole|ClusterRoleBinding|CustomResourceDefinition|PersistentVolume|StorageClass|PriorityClass|IngressClass|RuntimeClass|APIService|ValidatingWebhookConfiguration|MutatingWebhookConfiguration|ClusterIssuer)$/)
      print kind "/" name
  }
  /^---$/ { check(); kind = ""; name = ""; namespaced = 0; inmeta = 0; next }
  /^kind: / { kind = $2 }
  /^metadata:/ { inmeta = 1; next }
  /^[^ ]/ { inmeta = 0 }
  inmeta && /^  name: / { name = $2 }
  inmeta && /^  namespace: [^ ]/ { namespaced = 1 }
  END { check() }
' "$rendered")
[ -z "$unnamespaced" ] ||
  fail "these objects have no namespace (set \`namespace:\` in the overlay that adds them): $(echo $unnamespaced)"
namespace=$(awk '/^metadata:/ { m = 1; next } /^[^ ]/ { m = 0 } m && /^  namespace: / { print $2 }' "$rendered" | sort -u)
[ "$(printf '%s\n' "$namespace" | wc -l)" -eq 1 ] && [ -n "$namespace" ] ||
  fail "the rendering must put every object in one namespace (found: $(echo ${namespace:-none}))"

# Values the operator must fill in (docs/operations.md, "Deploying on Kubernetes", "Settings"): the
# overlays mark them `REPLACE_ME-…`; example hosts (RFC 2606), `changeme`, `<…>` and the image's
# `set-by-release` are placeholders too.
placeholders=$(grep -n -i -E 'REPLACE_ME|changeme|example\.(com|org|net)|\.example([/:"'"'"' ]|$)|set-by-release|SET-THE-|<[a-z][a-z0-9 _.-]*>' "$rendered" | cut -c1-200 || true)
[ -z "$placeholders" ] ||
  fail "the rendering still holds placeholders: fill them in the overlay (docs/operations.md, \"Settings\"), or give the image by digest:
$placeholders"
grep -q "name: $job\$" "$rendered" || fail "the rendering has no Job $job"
echo "namespace $namespace"
[ -z "$image" ] || echo "image $image"
if [ "${CHECK_ONLY:-}" = 1 ]; then
  step "checked: nothing applied (CHECK_ONLY)"
  exit 0
fi

step "1/3 configuration the migration needs (release-step=before-rollout)"
"$kubectl" apply -f "$rendered" -l payout-gateway/release-step=before-rollout ||
  fail "applying the Namespace, ConfigMaps and ServiceAccount failed"
"$kubectl" -n "$namespace" get secret payout-gateway-secrets >/dev/null ||
  fail "no Secret payout-gateway-secrets in $namespace: create it from the secret store first (docs/operations.md, \"The Secret\")"

step "2/3 migration (Job $job)"
"$kubectl" -n "$namespace" delete job "$job" --ignore-not-found --wait=true ||
  fail "could not delete the last release's Job $job"
"$kubectl" apply -f "$rendered" -l payout-gateway/release-step=migrate || fail "creating the Job $job failed"
# Complete or failed, whichever comes first (kubectl wait waits for one condition only).
deadline=$(($(date +%s) + migration_timeout))
while :; do
  conditions=$("$kubectl" -n "$namespace" get job "$job" \
    -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}') ||
    fail "could not read the Job $job"
  case " $conditions " in
  *" Complete "*)
    echo "migration complete"
    break
    ;;
  *" Failed "*)
    "$kubectl" -n "$namespace" logs "job/$job" --tail=50 >&2 || true
    fail "the migration failed (log above; kubectl -n $namespace logs job/$job): nothing has rolled, the running release is untouched"
    ;;
  esac
  [ "$(date +%s)" -lt "$deadline" ] ||
    fail "the migration did not finish within ${migration_timeout} s: nothing has rolled (kubectl -n $namespace describe job/$job)"
  sleep 2
done

step "3/3 rollout"
"$kubectl" apply -f "$rendered" -l 'payout-gateway/release-step notin (migrate)' || fail "applying the release failed"
for deployment in $(sed -n '/^kind: Deployment$/,/^---$/s/^  name: //p' "$rendered"); do
  "$kubectl" -n "$namespace" rollout status "deployment/$deployment" --timeout="$rollout_timeout" ||
    fail "deployment/$deployment did not roll out within $rollout_timeout: kubectl -n $namespace rollout undo deployment/$deployment returns to the last release (the schema stays migrated, which the last release works on)"
done

step "released to $namespace"
