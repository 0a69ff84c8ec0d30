# Shared by the bench/ scripts (sourced, not run): timing a command under
# /usr/bin/time -v, medians, and the report of ratios to a baseline.
# The caller sets tmp (a scratch directory). retrylint's caches live in
# $tmp/cache; with COLD=1 in the environment, measure empties it before
# each run, so that every run analyzes. The go command's build cache stays
# where it was (its default is under XDG_CACHE_HOME too): go list, which
# every binary runs, would otherwise start cold each time, rerunning cgo
# and adding over a second to every run alike, which made ratios look
# better than they are.
GOCACHE=$(go env GOCACHE)
export GOCACHE
export XDG_CACHE_HOME="$tmp/cache"

# measure LABEL RUN DIR CMD... runs CMD in DIR, appends "wall-seconds
# rss-kB exit-status" to $tmp/LABEL.runs and prints the run. It fails on a
# crash or a usage error (exit status 2); other statuses are recorded
# (retrylint exits 3 with findings, go vet 1).
measure() {
	local label=$1 run=$2 dir=$3 status=0
	shift 3
	if [[ ${COLD:-} == 1 ]]; then rm -rf "$tmp/cache"; fi
	(cd "$dir" && /usr/bin/time -v -o "$tmp/time" "$@" >/dev/null 2>"$tmp/stderr") || status=$?
	if ((status == 2 || status >= 126)) || grep -q '^panic: \|^fatal error: ' "$tmp/stderr" ||
		grep -q '^Command terminated by signal' "$tmp/time"; then
		echo "$label failed with exit status $status:" >&2
		tail -n 20 "$tmp/stderr" >&2
		exit 1
	fi
	awk -v status="$status" '
		/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + t[i] }
		/Maximum resident set size/ { rss = $NF }
		/User time \(seconds\)|System time \(seconds\)/ { cpu += $NF }
		END { print wall, rss, status, cpu }' "$tmp/time" | tee -a "$tmp/$label.runs" |
		awk -v label="$label" -v run="$run" '{ printf "run %-3s %-14s %8.2f s %8.0f MiB %8.2f s CPU   exit %s\n", run, label, $1, $2 / 1024, $4, $3 }'
}

# median COLUMN FILE prints the median of a column.
median() {
	cut -d' ' -f"$1" "$2" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# report BASE LABEL... prints BASE's and each label's median wall time,
# peak RSS and CPU time (user and system), and their ratios to BASE's
# medians. CPU time is the steadiest of the three on a shared machine: it
# counts the work done, not the waiting for a busy core.
report() {
	local base=$1 label wall rss cpu statuses basewall baserss basecpu
	shift
	basewall=$(median 1 "$tmp/$base.runs") baserss=$(median 2 "$tmp/$base.runs") basecpu=$(median 4 "$tmp/$base.runs")
	echo
	printf '%-14s %10s %8s %10s %8s %10s %8s   %s\n' binary "wall s" "x $base" "RSS MiB" "x $base" "CPU s" "x $base" "exit statuses"
	for label in "$base" "$@"; do
		wall=$(median 1 "$tmp/$label.runs") rss=$(median 2 "$tmp/$label.runs") cpu=$(median 4 "$tmp/$label.runs")
		statuses=$(cut -d' ' -f3 "$tmp/$label.runs" | paste -sd' ')
		awk -v l="$label" -v w="$wall" -v r="$rss" -v c="$cpu" -v fw="$basewall" -v fr="$baserss" -v fc="$basecpu" -v s="$statuses" \
			'BEGIN { printf "%-14s %10.2f %8.2f %10.0f %8.2f %10.2f %8.2f   %s\n", l, w, w / fw, r / 1024, r / fr, c, (fc > 0 ? c / fc : 0), s }'
	done
	echo "(medians; ratios are median / $base median)"
}

# natsserver is the module bench/natsserver.sh and bench/edits.sh measure.
natsserver=github.com/nats-io/nats-server/v2@v2.15.2

# natsserver_workdir prints WORKDIR, or makes a writable copy of
# $natsserver under $tmp, its dependencies downloaded, and prints it.
natsserver_workdir() {
	if [[ -n ${WORKDIR:-} ]]; then
		echo "$WORKDIR"
		return
	fi
	local dir
	dir=$(go mod download -json "$natsserver" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
	if [[ -z $dir ]]; then echo "cannot locate $natsserver" >&2; exit 1; fi
	cp -r "$dir" "$tmp/nats-server"
	chmod -R u+w "$tmp/nats-server"
	(cd "$tmp/nats-server" && go mod download)
	echo "$tmp/nats-server"
}
