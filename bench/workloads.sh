#!/usr/bin/env bash
# Peak RSS and wall time of retrylint against bench/floor on whole-program
# workloads, alternating, each run analyzing (retrylint's cache is emptied):
# the standard library by default. See bench/README.md.
#
#   bench/workloads.sh                       # std
#   WORKLOADS="std cmd" bench/workloads.sh
#   WORKLOADS=./... WORKDIR=~/src/service bench/workloads.sh
#
# Environment: RUNS (default 1), WORKLOADS (patterns, one workload each,
# default std), WORKDIR (where they are resolved, default this checkout).
set -euo pipefail

runs=${RUNS:-1}
read -ra workloads <<<"${WORKLOADS:-std}"
repo=$(cd "$(dirname "$0")/.." && pwd)
workdir=${WORKDIR:-$repo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib.sh
. "$repo/bench/lib.sh"
export COLD=1 # every run analyzes: no replay from retrylint's cache

(cd "$repo" && go build -o "$tmp/floor" ./bench/floor && go build -o "$tmp/retrylint" ./cmd/retrylint)
echo "workloads ${workloads[*]} in $workdir, $runs runs, $(nproc) CPUs, $(go env GOVERSION)"
for w in "${workloads[@]}"; do
	label=${w//[^A-Za-z0-9]/_}
	for ((run = 1; run <= runs; run++)); do
		measure "floor-$label" "$run" "$workdir" "$tmp/floor" "$w"
		measure "retrylint-$label" "$run" "$workdir" "$tmp/retrylint" "$w"
	done
	report "floor-$label" "retrylint-$label"
done
