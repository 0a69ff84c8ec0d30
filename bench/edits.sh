#!/usr/bin/env bash
# Times retrylint after an edit, against go vet -vettool (the same binary)
# after the same edit, at three levels of nats-server, alternating in one
# run; and both warm, after no edit. See bench/README.md.
#
#   bench/edits.sh
#
# Environment: RUNS (default 5), WORKDIR (default a copy of nats-server),
# EDITS (default "main.go conf/parse.go server/server.go": a leaf, a
# package server imports, the core), EDIT_MODE (append or shift; see
# edit), PATTERN (default ./...).
set -euo pipefail

runs=${RUNS:-5}
read -ra patterns <<<"${PATTERN:-./...}"
read -ra edits <<<"${EDITS:-main.go conf/parse.go server/server.go}"
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib.sh
. "$repo/bench/lib.sh"
workdir=$(natsserver_workdir)
(cd "$repo" && go build -o "$tmp/retrylint" ./cmd/retrylint)

# Every edited file is restored at the end.
mkdir "$tmp/orig"
for f in "${edits[@]}"; do
	mkdir -p "$tmp/orig/$(dirname "$f")"
	cp "$workdir/$f" "$tmp/orig/$f"
done
trap 'cp -r "$tmp/orig/." "$workdir/"; rm -rf "$tmp"' EXIT

# edit FILE adds a comment line to FILE, saved a moment before the next
# run, as by a developer (a file written within the file clock's margin of
# a run's start may have been written during it: nothing of it is
# stored). EDIT_MODE=append (the default) adds it at the end: no position
# moves, so the compiler's export data and go vet's facts stay the same
# and go vet re-vets the edited package alone (its best case).
# EDIT_MODE=shift adds it before the file's first function, moving every
# declaration below it down a line, as most edits do.
edit() {
	case ${EDIT_MODE:-append} in
	append) echo "// edited $RANDOM$RANDOM" >>"$workdir/$1" ;;
	shift) sed -i "0,/^func /s//\/\/ edited $RANDOM$RANDOM\nfunc /" "$workdir/$1" ;;
	*) echo "EDIT_MODE: append or shift, not $EDIT_MODE" >&2; exit 1 ;;
	esac
	touch -d '2 seconds ago' "$workdir/$1"
}

echo "$natsserver in $workdir, pattern ${patterns[*]}, edits ${edits[*]} (${EDIT_MODE:-append}), $runs runs, $(nproc) CPUs, $(go env GOVERSION)"
echo "warm-up (not recorded): go vet -vettool, retrylint, after an edit of each file"
for f in "${edits[@]}"; do
	edit "$f"
	(cd "$workdir" && go vet -vettool="$tmp/retrylint" "${patterns[@]}" >/dev/null 2>&1) || true
	(cd "$workdir" && "$tmp/retrylint" "${patterns[@]}" >/dev/null 2>&1) || true
done
for ((run = 1; run <= runs; run++)); do
	measure vet-warm "$run" "$workdir" go vet -vettool="$tmp/retrylint" "${patterns[@]}"
	measure warm "$run" "$workdir" "$tmp/retrylint" "${patterns[@]}"
	for i in "${!edits[@]}"; do
		edit "${edits[i]}"
		measure "vet-edit$i" "$run" "$workdir" go vet -vettool="$tmp/retrylint" "${patterns[@]}"
		edit "${edits[i]}"
		RETRYLINT_CACHE_STATS=$tmp/stats.json measure "edit$i" "$run" "$workdir" "$tmp/retrylint" "${patterns[@]}"
		if [[ -f $tmp/stats.json ]]; then
			echo "  ${edits[i]}: $(tr -d '\n' <"$tmp/stats.json")"
			rm -f "$tmp/stats.json"
		fi
	done
	# Both catch up with the other's last edits (not recorded), so that
	# the next round's warm runs are warm.
	(cd "$workdir" && go vet -vettool="$tmp/retrylint" "${patterns[@]}" >/dev/null 2>&1) || true
	(cd "$workdir" && "$tmp/retrylint" "${patterns[@]}" >/dev/null 2>&1) || true
done
report vet-warm warm
for i in "${!edits[@]}"; do
	echo
	echo "edit$i: ${edits[i]}"
	report "vet-edit$i" "edit$i"
done
