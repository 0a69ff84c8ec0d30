#!/usr/bin/env bash
# Times retrylint on nats-server against bench/floor (loading and
# type-checking everything from source, no analysis), alternating the
# binaries in one run. See bench/README.md.
#
#   bench/natsserver.sh [[label=]retrylint-binary ...]
#
# Environment: RUNS (default 3), BEFORE (an older retrylint binary, labelled
# "before"), WORKDIR (default a copy of nats-server), PATTERN (default ./...).
set -euo pipefail

module=github.com/nats-io/nats-server/v2@v2.15.2
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

# The code to analyze, with its dependencies downloaded beforehand.
workdir=${WORKDIR:-}
if [[ -z $workdir ]]; then
	dir=$(go mod download -json "$module" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
	if [[ -z $dir ]]; then echo "cannot locate $module" >&2; exit 1; fi
	workdir=$tmp/nats-server
	cp -r "$dir" "$workdir"
	chmod -R u+w "$workdir"
	(cd "$workdir" && go mod download)
fi

# measure LABEL BIN appends "wall-seconds rss-kB exit-status" to
# $tmp/LABEL.runs and prints the run; it fails on a crash or a usage error.
measure() {
	local status=0
	(cd "$workdir" && /usr/bin/time -v -o "$tmp/time" "$2" "${patterns[@]}" >/dev/null 2>"$tmp/stderr") || status=$?
	if ((status == 2 || status >= 126)) || grep -q '^panic: \|^fatal error: ' "$tmp/stderr" ||
		grep -q '^Command terminated by signal' "$tmp/time"; then
		echo "$1 failed with exit status $status:" >&2
		tail -n 20 "$tmp/stderr" >&2
		exit 1
	fi
	awk -v status="$status" '
		/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + t[i] }
		/Maximum resident set size/ { rss = $NF }
		END { print wall, rss, status }' "$tmp/time" | tee -a "$tmp/$1.runs" |
		awk -v label="$1" -v run="$3" '{ printf "run %-3s %-12s %8.2f s %8.0f MiB   exit %s\n", run, label, $1, $2 / 1024, $3 }'
}

# median COLUMN FILE prints the median of a column.
median() {
	cut -d' ' -f"$1" "$2" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "$module in $workdir, pattern ${patterns[*]}, $runs runs, $(nproc) CPUs, $(go env GOVERSION)"
echo "warm-up (not recorded): floor"
(cd "$workdir" && "${bins[0]}" "${patterns[@]}" >/dev/null 2>&1) || true
for ((run = 1; run <= runs; run++)); do
	for i in "${!labels[@]}"; do measure "${labels[i]}" "${bins[i]}" "$run"; done
done

echo
printf '%-12s %10s %8s %10s %8s   %s\n' binary "wall s" "x floor" "RSS MiB" "x floor" "exit statuses"
floorwall=$(median 1 "$tmp/floor.runs") floorrss=$(median 2 "$tmp/floor.runs")
for label in "${labels[@]}"; do
	wall=$(median 1 "$tmp/$label.runs") rss=$(median 2 "$tmp/$label.runs")
	statuses=$(cut -d' ' -f3 "$tmp/$label.runs" | paste -sd' ')
	awk -v l="$label" -v w="$wall" -v r="$rss" -v fw="$floorwall" -v fr="$floorrss" -v s="$statuses" \
		'BEGIN { printf "%-12s %10.2f %8.2f %10.0f %8.2f   %s\n", l, w, w / fw, r / 1024, r / fr, s }'
done
echo "(medians over $runs runs; ratios are median / floor median)"
