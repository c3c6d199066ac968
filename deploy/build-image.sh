#!/usr/bin/env bash
# Builds the gateway's image (the Dockerfile) from this checkout, pushes it, and prints what the registry
# stored it as, by digest — `<repository>@sha256:<64 hex digits>` on the last line — for deploy/release.sh
# (BUILD_IMAGE_REPOSITORY runs this and releases that digest), so nobody copies a digest by hand.
#
#   deploy/build-image.sh <repository>     e.g. registry.internal/payments/payout-gateway
# Environment: DOCKER (default docker; needs buildx), PLATFORM (default linux/amd64).
# The tag is the commit (plus `-dirty` with uncommitted changes), for people; the release uses the digest.
set -euo pipefail

repository=${1:?usage: deploy/build-image.sh <repository>}
docker=${DOCKER:-docker}
platform=${PLATFORM:-linux/amd64}
root=$(cd "$(dirname "$0")/.." && pwd)
fail() {
  printf 'build stopped: %s\n' "$*" >&2
  exit 1
}

tag=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unversioned)
[ -z "$(git -C "$root" status --porcelain 2>/dev/null)" ] || tag="$tag-dirty"
metadata=$(mktemp)
trap 'rm -f "$metadata"' EXIT

"$docker" buildx build --platform "$platform" --tag "$repository:$tag" --push --metadata-file "$metadata" "$root" >&2 ||
  fail "docker buildx build --push failed"
# buildx writes what the registry answered: {"containerimage.digest": "sha256:…", …}.
digest=$(grep -o '"containerimage.digest": *"sha256:[0-9a-f]\{64\}"' "$metadata" | grep -o 'sha256:[0-9a-f]\{64\}' | head -n 1)
[ -n "$digest" ] || fail "the push reported no digest ($metadata: $(cat "$metadata"))"
echo "pushed $repository:$tag" >&2
echo "$repository@$digest"
