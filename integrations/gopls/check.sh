#!/usr/bin/env bash
# Builds gopls with retrylint's analyzers (integrations/gopls/build.sh) and
# talks LSP to it over stdio as an editor does (integrations/gopls/lspcheck):
# opening examples/orders/handlers/orders.go must publish the retryflatten
# and barenak diagnostics the command line reports there, and the quick fix
# gopls offers for each must rewrite the line as `retrylint -fix` does. Then
# a .retrylint.yaml that disables barenak must take effect, and:
#   - the configuration is the module's: in a monorepo whose root file
#     disables retryflatten and whose service's own file disables barenak,
#     gopls started at the root reports retryflatten in the service and no
#     barenak;
#   - option values are part of gopls' cache key: after dlq-funcs changes
#     and gopls restarts (same on-disk cache), the findings follow the file;
#   - a typo in .retrylint.yaml is one diagnostic at the package clause,
#     no check runs, and the rest of Go editing keeps working.
#
#   integrations/gopls/check.sh
#
# Needs go; modules come from the Go module proxy. `.ci/run` runs it. The
# binaries are kept in $RETRYLINT_CI_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/retrylint-ci/gopls) and rebuilt on every run
# (seconds with a warm GOCACHE). `gopls check` cannot be the test: it exits 0
# even when it prints diagnostics.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
here=$repo/integrations/gopls
cache=${RETRYLINT_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/retrylint-ci}/gopls
file=examples/orders/handlers/orders.go
timeout=${LSPCHECK_TIMEOUT:-60s}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$cache"

echo "-- build gopls with retrylint's analyzers (build.sh)"
"$here/build.sh" "$cache/gopls-retrylint"
"$cache/gopls-retrylint" version

echo "-- build the LSP client (integrations/gopls/lspcheck, its own module)"
(cd "$here/lspcheck" && go build -o "$cache/lspcheck" .)

echo "-- expectations from the command line: findings in $file and their fixes"
cd "$repo"
go build -o "$work/retrylint" ./cmd/retrylint
"$work/retrylint" ./examples/... >"$work/cli.out" 2>&1 || true
"$work/retrylint" -fix -diff ./examples/... >"$work/fix.diff" 2>&1 || test $? -eq 3 # 3: findings remain after the fixes

# expect CHECK REGEXP: the first CHECK finding in $file whose message matches
# REGEXP, as lspcheck's analyzer:line:fixed-line, the fixed line taken from
# `retrylint -fix -diff`.
expects=()
expect() {
  local check=$1 pattern=$2 line fixed
  line=$(grep -m1 -E "^$file:[0-9]+:[0-9]+: $check: $pattern" "$work/cli.out" | cut -d: -f2 || true)
  if [ -z "$line" ]; then
    echo "FAIL: the command line reports no $check finding matching '$pattern' in $file:"
    cat "$work/cli.out"; exit 1
  fi
  # The '+' line that replaces old line $line in the diff of $file.
  fixed=$(awk -v file="$file" -v want="$line" '
    /^--- / { infile = (index($0, "/" file " ") > 0 || index($0, " " file " ") > 0); next }
    /^\+\+\+ / { next }
    !infile { next }
    /^@@ / { split($2, a, ","); old = -a[1]; pending = 0; next }
    /^ / { old++; next }
    /^-/ { if (old == want) pending = 1; old++; next }
    /^\+/ { if (pending) { print substr($0, 2); exit } }
  ' "$work/fix.diff")
  if [ -z "$fixed" ]; then
    echo "FAIL: retrylint -fix -diff has no fix for $file:$line:"; cat "$work/fix.diff"; exit 1
  fi
  echo "$check at $file:$line, fixed: $(echo "$fixed" | sed 's/^[[:space:]]*//')"
  expects+=(-expect "$check:$line:$fixed")
}
expect retryflatten 'retryable error [a-z]+ formatted with %v'
flatten=("${expects[@]}")
expect barenak 'bare Nak'

echo "-- lspcheck: initialize, didOpen $file, publishDiagnostics, codeAction (timeout $timeout)"
"$cache/lspcheck" -gopls "$cache/gopls-retrylint" -root "$repo" -file "$file" -timeout "$timeout" "${expects[@]}"

# The gopls build reads the .retrylint.yaml found from the directory it
# starts in: in a copy of the examples' module whose file disables barenak,
# retryflatten still reports and barenak does not.
echo "-- lspcheck in a copy of examples/ with .retrylint.yaml (disable: [barenak])"
cp -r "$repo/examples" "$work/ws"
printf 'disable: [barenak]\n' >"$work/ws/.retrylint.yaml"
"$cache/lspcheck" -gopls "$cache/gopls-retrylint" -root "$work/ws" -file "${file#examples/}" -timeout "$timeout" \
  "${flatten[@]}" -absent barenak

echo "-- lspcheck in a monorepo: root .retrylint.yaml (disable: [retryflatten]), services/orders/.retrylint.yaml (disable: [barenak])"
mkdir -p "$work/mono/services"
cp -r "$repo/examples" "$work/mono/services/orders"
printf 'disable: [retryflatten]\n' >"$work/mono/.retrylint.yaml"
printf 'disable: [barenak]\n' >"$work/mono/services/orders/.retrylint.yaml"
"$cache/lspcheck" -gopls "$cache/gopls-retrylint" -root "$work/mono" -file "services/orders/${file#examples/}" -timeout "$timeout" \
  "${flatten[@]}" -absent barenak

# HandleAudit (testdata/keep.go) Terms, then calls keep: with keep in
# dlq-funcs that is a Term before the DLQ write; without, a Term that drops
# the undecodable payload. Two gopls processes in turn, one file changed
# in between: the second must not be served the first one's results from
# gopls' on-disk cache.
echo "-- lspcheck, dlq-funcs changed between two gopls runs: the findings follow .retrylint.yaml"
cp -r "$repo/examples" "$work/dlq"
cp "$here/testdata/keep.go" "$work/dlq/orders/handlers/keep.go"
keep=orders/handlers/keep.go
term=$(grep -n 'fixture: term$' "$work/dlq/$keep" | cut -d: -f1)
printf 'retrycontract:\n  dlq-funcs: [github.com/retrylint/retrylint/examples/orders/handlers.keep]\n' >"$work/dlq/.retrylint.yaml"
"$cache/lspcheck" -gopls "$cache/gopls-retrylint" -root "$work/dlq" -file "$keep" -timeout "$timeout" \
  -diagnostic "termbeforedlq:$term:Term before the DLQ write keep" -absent poisonack
printf 'retrycontract:\n  dlq-funcs: [github.com/retrylint/retrylint/examples/orders/bus.DeadLetter]\n' >"$work/dlq/.retrylint.yaml"
"$cache/lspcheck" -gopls "$cache/gopls-retrylint" -root "$work/dlq" -file "$keep" -timeout "$timeout" \
  -diagnostic "poisonack:$term:drops the payload" -absent termbeforedlq

echo "-- lspcheck with a typo in .retrylint.yaml: one diagnostic at the package clause, editing works"
cp -r "$repo/examples" "$work/typo"
printf '# the busy inventory service is paced elsewhere\nbarenack:\n  unclassified: false\n' >"$work/typo/.retrylint.yaml"
clause=$(grep -n '^package ' "$work/typo/${file#examples/}" | head -1 | cut -d: -f1)
"$cache/lspcheck" -gopls "$cache/gopls-retrylint" -root "$work/typo" -file "${file#examples/}" -timeout "$timeout" \
  -diagnostic "retrylint:$clause:.retrylint.yaml:2: unknown key \"barenack\"" -absent retryflatten -absent barenak
echo "gopls integration check passed"
