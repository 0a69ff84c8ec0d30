#!/usr/bin/env bash
# Times retrylint on nats-server against bench/floor (loading and
# type-checking everything from source, no analysis), alternating the
# binaries in one run. See bench/README.md.
#
#   bench/natsserver.sh [[label=]retrylint-binary ...]
#
# Environment: RUNS (default 3), BEFORE (an older retrylint binary, labelled
# "before"), WORKDIR (default a copy of nats-server), PATTERN (default ./...),
# WARM (default 1: also time retrylint warm, a replay from its package cache,
# and after editing EDIT, default server/server.go, before each run; 0: skip).
set -euo pipefail

runs=${RUNS:-3}
read -ra patterns <<<"${PATTERN:-./...}"
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The binaries: labels[i] runs bins[i].
mkdir "$tmp/bin"
(cd "$repo" && go build -o "$tmp/bin/floor" ./bench/floor && go build -o "$tmp/bin/retrylint" ./cmd/retrylint)
labels=(floor retrylint)
bins=("$tmp/bin/floor" "$tmp/bin/retrylint")
extra=("$@")
if [[ -n ${BEFORE:-} ]]; then extra=("before=$BEFORE" "${extra[@]}"); fi
for arg in "${extra[@]}"; do
	label=${arg%%=*} bin=${arg#*=}
	if [[ $arg != *=* ]]; then label=$(basename "$arg"); fi
	if [[ ! -x $bin ]]; then echo "not an executable: $bin" >&2; exit 1; fi
	if [[ " ${labels[*]} " == *" $label "* ]]; then echo "label used twice: $label" >&2; exit 1; fi
	labels+=("$label")
	bins+=("$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")")
done

# shellcheck source=lib.sh
. "$repo/bench/lib.sh"
workdir=$(natsserver_workdir)
export COLD=1 # every run analyzes: no replay from retrylint's cache

echo "$natsserver in $workdir, pattern ${patterns[*]}, $runs runs, $(nproc) CPUs, $(go env GOVERSION)"
echo "warm-up (not recorded): floor"
(cd "$workdir" && "${bins[0]}" "${patterns[@]}" >/dev/null 2>&1) || true
for ((run = 1; run <= runs; run++)); do
	for i in "${!labels[@]}"; do measure "${labels[i]}" "$run" "$workdir" "${bins[i]}" "${patterns[@]}"; done
done
report floor "${labels[@]:1}"

# Warm: the caches kept. "warm" replays an unchanged run; "edit" runs
# after a line is appended to one file of the largest package, as a
# developer's next run after an edit (the file is restored at the end):
# the package cache replays the packages the edit did not reach, and the
# script prints how many root packages were analyzed and replayed.
if [[ ${WARM:-1} == 1 ]]; then
	unset COLD
	edit=$workdir/${EDIT:-server/server.go}
	cp "$edit" "$tmp/edited.orig"
	trap 'cp "$tmp/edited.orig" "$edit"; rm -rf "$tmp"' EXIT
	echo "warm-up (not recorded): retrylint, filling its cache"
	(cd "$workdir" && "${bins[1]}" "${patterns[@]}" >/dev/null 2>&1) || true
	for ((run = 1; run <= runs; run++)); do
		measure warm "$run" "$workdir" "${bins[1]}" "${patterns[@]}"
		echo "// edited for run $run" >>"$edit"
		# Saved a moment before the run, as by a developer: retrylint
		# stores nothing from a file written within its file clock's
		# margin of the run's start (it may have been written during it).
		touch -d '2 seconds ago' "$edit"
		RETRYLINT_CACHE_STATS=$tmp/stats.json measure edit "$run" "$workdir" "${bins[1]}" "${patterns[@]}"
		if [[ -f $tmp/stats.json ]]; then
			echo "  edit $run: $(grep -o '"[^"]*"' "$tmp/stats.json" | grep -vc '"Analyzed"\|"Replayed"') root packages analyzed, $(sed 's/.*"Replayed"://; s/}//' "$tmp/stats.json") replayed"
			rm -f "$tmp/stats.json"
		fi
	done
	cp "$tmp/edited.orig" "$edit"
	report floor warm edit
fi
