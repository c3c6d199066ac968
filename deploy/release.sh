#!/usr/bin/env bash
# A release of the payout gateway with kubectl, in order (docs/operations.md, "Deploying on Kubernetes"):
#   1. what the migration needs: the Namespace, ConfigMaps, ServiceAccount (and the Secret where the overlay
#      ships one; in production the operator's Secret must already exist);
#   2. the migration Job: the last release's deleted first (a Job's pod template cannot change), this one
#      created and waited for; a failure stops the release with its log and nothing rolled;
#   3. everything else, and the Deployments' rollouts waited for.
# Each step says what failed and stops. Running it again is safe: every step converges.
#
#   deploy/release.sh [overlay directory] [image]
#     overlay  default deploy/kubernetes/overlays/production
#     image    e.g. registry.example.com/payout-gateway@sha256:…; default: the overlay's own `images:`
# Environment: KUBECTL (default kubectl), MIGRATION_TIMEOUT_SECONDS (default 600), ROLLOUT_TIMEOUT (default 10m).
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

step "rendering $overlay"
"$kubectl" kustomize "$overlay" >"$rendered" || fail "kubectl kustomize $overlay did not render"
if [ -n "$image" ]; then
  # The one image of every pod (the overlays' `images:` entry), pinned for this release.
  sed -E -i "s|^([[:space:]]*image: ).*payout-gateway([:@].*)?\$|\1$image|" "$rendered"
fi
namespace=$(sed -n 's/^  namespace: //p' "$rendered" | sort -u)
[ "$(printf '%s\n' "$namespace" | wc -l)" -eq 1 ] && [ -n "$namespace" ] ||
  fail "the rendering must put every object in one namespace (found: ${namespace:-none})"
grep -q "name: $job\$" "$rendered" || fail "the rendering has no Job $job"
echo "namespace $namespace"

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
