#!/usr/bin/env bash
# Times retrylint on a generated module of N consumer packages and of 4N,
# alternating, to show how time and memory grow with the program: at 4N
# they should stay within 4.5x of N. The floor (bench/floor) runs on both
# too, for the cost of loading alone. See bench/README.md.
#
#   bench/growth.sh
#
# Environment: N (default 50), RUNS (default 3), BEFORE (an older
# retrylint binary, measured alternately as "before").
set -euo pipefail

n=${N:-50}
runs=${RUNS:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib.sh
. "$repo/bench/lib.sh"
export COLD=1 # every run analyzes: no replay from retrylint's cache

# generate DIR COUNT writes a module of COUNT consumer packages (a JetStream
# handler each, with a retryable error flattened, a bare Nak and a DLQ
# write after Term: findings in every package), each importing a shared
# errors package and the package before it, so that facts cross packages.
generate() {
	local dir=$1 count=$2 i prev
	mkdir -p "$dir/errs"
	cp "$repo/examples/go.sum" "$dir/go.sum"
	sed 's#^module .*#module example.com/growth#' "$repo/examples/go.mod" >"$dir/go.mod"
	cat >"$dir/errs/errs.go" <<'GO'
package errs

import "time"

// Busy is a transient failure with a retry delay.
type Busy struct{ After time.Duration }

func (e *Busy) Error() string             { return "busy" }
func (e *Busy) RetryDelay() time.Duration { return e.After }
GO
	for ((i = 1; i <= count; i++)); do
		mkdir -p "$dir/svc$i"
		prev=""
		if ((i > 1)); then prev="_ \"example.com/growth/svc$((i - 1))\""; fi
		cat >"$dir/svc$i/svc.go" <<GO
package svc$i

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"example.com/growth/errs"
	$prev
)

func reserve(ctx context.Context, id string) error {
	if id == "" {
		return &errs.Busy{After: 2 * time.Second}
	}
	return nil
}

func deadLetter(ctx context.Context, js jetstream.JetStream, m jetstream.Msg) error {
	_, err := js.Publish(ctx, "dlq.orders.$i", m.Data())
	return err
}

// Handle reserves the order of m.
func Handle(ctx context.Context, js jetstream.JetStream, m jetstream.Msg) error {
	if err := reserve(ctx, string(m.Data())); err != nil {
		_ = m.Nak()
		return fmt.Errorf("reserve %d: %v", $i, err)
	}
	if len(m.Data()) > 1<<20 {
		_ = m.Term()
		if err := deadLetter(ctx, js, m); err != nil {
			return err
		}
	}
	return m.Ack()
}
GO
	done
}

generate "$tmp/n" "$n"
generate "$tmp/4n" $((4 * n))
(cd "$tmp/n" && go mod download) >/dev/null
(cd "$repo" && go build -o "$tmp/retrylint" ./cmd/retrylint && go build -o "$tmp/floor" ./bench/floor)
echo "retrylint on $n and $((4 * n)) generated consumer packages, $runs runs, $(nproc) CPUs, $(go env GOVERSION)"
echo "warm-up (not recorded)"
(cd "$tmp/n" && "$tmp/floor" ./... >/dev/null 2>&1) || true
for ((run = 1; run <= runs; run++)); do
	measure "floor-n" "$run" "$tmp/n" "$tmp/floor" ./...
	measure "retrylint-n" "$run" "$tmp/n" "$tmp/retrylint" ./...
	if [[ -n ${BEFORE:-} ]]; then measure "before-n" "$run" "$tmp/n" "$BEFORE" ./...; fi
	measure "floor-4n" "$run" "$tmp/4n" "$tmp/floor" ./...
	measure "retrylint-4n" "$run" "$tmp/4n" "$tmp/retrylint" ./...
	if [[ -n ${BEFORE:-} ]]; then measure "before-4n" "$run" "$tmp/4n" "$BEFORE" ./...; fi
done
report retrylint-n retrylint-4n
report floor-n floor-4n
# Each against the floor on the same module.
if [[ -n ${BEFORE:-} ]]; then
	report floor-n retrylint-n before-n
	report floor-4n retrylint-4n before-4n
else
	report floor-n retrylint-n
	report floor-4n retrylint-4n
fi
echo "goal: retrylint-4n within 4.5x of retrylint-n, in wall time and peak RSS"
