#!/usr/bin/env bash
# Times the README's main command, retrylint on ./examples/..., warm (a
# replay from its package cache) and cold (-cache=false), against go vet
# -vettool with the same binary, warm (served by the go command's cache),
# alternating in one run. See bench/README.md.
#
#   bench/example.sh
#
# Environment: RUNS (default 5), PATTERN (default ./examples/...).
set -euo pipefail

runs=${RUNS:-5}
read -ra patterns <<<"${PATTERN:-./examples/...}"
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib.sh
. "$repo/bench/lib.sh"

(cd "$repo" && go build -o "$tmp/retrylint" ./cmd/retrylint)
echo "retrylint ${patterns[*]} against go vet -vettool, $runs runs, $(nproc) CPUs, $(go env GOVERSION)"
echo "warm-up (not recorded): go vet -vettool, twice"
for _ in 1 2; do (cd "$repo" && go vet -vettool="$tmp/retrylint" "${patterns[@]}" >/dev/null 2>&1) || true; done
"$tmp/retrylint" "${patterns[@]}" >/dev/null 2>&1 || true # fills the package cache
for ((run = 1; run <= runs; run++)); do
	measure vet-warm "$run" "$repo" go vet -vettool="$tmp/retrylint" "${patterns[@]}"
	measure retrylint-warm "$run" "$repo" "$tmp/retrylint" "${patterns[@]}"
	measure retrylint-cold "$run" "$repo" "$tmp/retrylint" -cache=false "${patterns[@]}"
done
report vet-warm retrylint-warm retrylint-cold
