#!/usr/bin/env bash
# runtime.sh measures the reference runtime's throughput against a bare
# jetstream consume-and-ack loop on the same embedded server: the
# sub-benchmarks of runtime/bus's BenchmarkConsume, ROUNDS rounds (default
# 8), each running all of them once in turn, so load on a shared machine
# does not favour one. It prints each one's median ns per message and the
# throughput ratios that matter:
#
#   runner / bare                        the runner's cost, fire-and-forget acks
#   runner-confirmed / bare-confirmed    the same with confirmed acks (DoubleAck)
#   runner-confirmed / runner            the cost of confirmed acks on their own
#
# MSGS sets the messages per run (default 20000).
set -euo pipefail
cd "$(dirname "$0")/../runtime"
rounds=${ROUNDS:-8} msgs=${MSGS:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bus.test" ./bus
for ((i = 1; i <= rounds; i++)); do
	"$tmp/bus.test" -test.run '^$' -test.bench '^BenchmarkConsume$' -test.benchtime "${msgs}x" -test.count 1 |
		awk '/^BenchmarkConsume\// { sub(/^BenchmarkConsume\//, "", $1); sub(/-[0-9]+$/, "", $1); print $1, $3 }' |
		tee -a "$tmp/runs"
done
awk '
	{ v[$1] = v[$1] " " $2 }
	function median(name,   a, n, i, j, t) {
		n = split(v[name], a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		printf "\nmedians over the rounds (ns per message):\n"
		for (k in v) { m[k] = median(k); printf "  %-18s %8.0f\n", k, m[k] }
		printf "\nthroughput ratios:\n"
		printf "  runner / bare                       %.2f\n", m["bare"] / m["runner"]
		printf "  runner-confirmed / bare-confirmed   %.2f\n", m["bare-confirmed"] / m["runner-confirmed"]
		printf "  runner-confirmed / runner           %.2f\n", m["runner"] / m["runner-confirmed"]
		printf "  runner-confirmed / bare             %.2f\n", m["bare"] / m["runner-confirmed"]
	}' "$tmp/runs"
