#!/usr/bin/env bash
# Peak RSS and wall time of retrylint against bench/floor on a service over
# a big SDK graph: bench/sdkservice, 8 packages of its own (a JetStream
# consumer storing to DynamoDB, and clients of 64 AWS SDK v2 services),
# 576 with their dependencies. The go command fetches the SDK the first
# time. See bench/README.md.
#
#   bench/sdkservice.sh
#
# Environment: RUNS (default 1).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
(cd "$repo/bench/sdkservice" && go mod download)
WORKLOADS=./... WORKDIR="$repo/bench/sdkservice" exec "$repo/bench/workloads.sh"
