#!/usr/bin/env bash
# Runs one operator command (`payout-cli …`) in a pod of its own, made from the release's CronJob
# `payout-gateway-ops` (deploy/kubernetes/base/ops-cronjob.yaml: the release's image and settings, and the
# memory the CLI needs), never `kubectl exec` into a worker or API pod, whose memory limits leave less than
# the CLI's fixed cost (docs/operations.md, "Commands run in a pod"). Follows the command's output and exits
# as it did (0, 1 for what needs a person, 2 for bad input; 3 when the pod never ran it).
#
#   deploy/ops.sh reconcile
#   deploy/ops.sh payout show --mid MID --TransactionID T
# Environment: KUBECTL (default kubectl), NAMESPACE (default payouts), OPS_TIMEOUT (default 5m: the pod's start).
set -euo pipefail

kubectl=${KUBECTL:-kubectl}
namespace=${NAMESPACE:-payouts}
timeout=${OPS_TIMEOUT:-5m}
[ "$#" -gt 0 ] || {
  echo "usage: deploy/ops.sh <payout-cli command and options>, e.g. deploy/ops.sh reconcile" >&2
  exit 2
}
fail() {
  printf 'ops stopped: %s\n' "$*" >&2
  exit 3
}

# The command's words as a JSON array of strings, for the Job's container `args`.
args=''
for word in "$@"; do
  word=${word//\\/\\\\}
  word=${word//\"/\\\"}
  args="$args${args:+,}\"$word\""
done
job="payout-gateway-ops-$(date +%Y%m%d%H%M%S)-$RANDOM"

"$kubectl" -n "$namespace" create job "$job" --from=cronjob/payout-gateway-ops --dry-run=client -o json |
  "$kubectl" patch --local -f - --type=json -o json \
    -p "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/args\",\"value\":[$args]}]" |
  "$kubectl" -n "$namespace" create -f - >&2 ||
  fail "could not create the Job $job from cronjob/payout-gateway-ops (is the release applied in $namespace?)"

# Its output as it runs, once the pod has started (or finished: a short command may be done already).
"$kubectl" -n "$namespace" wait "job/$job" --for=jsonpath='{.status.ready}'=1 --timeout="$timeout" >/dev/null 2>&1 ||
  "$kubectl" -n "$namespace" wait "job/$job" --for=condition=Complete --timeout=1s >/dev/null 2>&1 ||
  "$kubectl" -n "$namespace" wait "job/$job" --for=condition=Failed --timeout=1s >/dev/null 2>&1 ||
  fail "the pod of job/$job did not start within $timeout (kubectl -n $namespace describe job/$job)"
"$kubectl" -n "$namespace" logs -f "job/$job" || true

# The command's own exit code, from the container's termination.
while :; do
  code=$("$kubectl" -n "$namespace" get pods -l "job-name=$job" \
    -o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.exitCode}') ||
    fail "could not read the pod of job/$job"
  [ -z "$code" ] || exit "$code"
  sleep 1
done
