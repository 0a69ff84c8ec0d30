#!/usr/bin/env bash
# Builds golangci-lint v2.15.0 with the retrylint module plugin of this
# checkout through `golangci-lint custom` (what users run), without reaching
# GitHub, and checks that the custom binary reports on ./examples/... every
# finding the retrylint command line reports, from every check.
#
#   integrations/golangci/check.sh
#
# Needs go and git; modules come from the Go module proxy. Run it from
# anywhere; `.ci/run` runs it. Binaries and the local golangci-lint git
# repository are kept in $RETRYLINT_CI_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/retrylint-ci/golangci-lint); the custom
# binary is rebuilt on every run (seconds with a warm GOCACHE).
#
# How the offline `custom` works: it always runs `git clone --branch v2.15.0
# https://github.com/golangci/golangci-lint.git` and passes GIT_CONFIG_COUNT /
# GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n through to git, so a
# url.<local repo>.insteadOf redirect points the clone at a git repository
# made from the module-cache copy of golangci-lint's source, tagged v2.15.0.
#
# nolintlint (allow-unused: false) runs too, on testdata/nolint: it must
# report the fixture's unused //nolint:retrylint and nothing else (the used
# ones must count as used: the plugin leaves //nolint to golangci-lint).
# No related location may become an issue of its own (golangci-lint makes
# one of each, where the //nolint at the finding does not reach): the
# plugin folds them into the message.
#
# Then the per-check form: with check.percheck.golangci.yml (retryflatten
# a linter of its own), on testdata/nolintcheck, //nolint:retryflatten
# silences its finding, related location included, is no unknown linter,
# and nolintlint reports the unused one only.
set -euo pipefail

version=v2.15.0
repo=$(cd "$(dirname "$0")/../.." && pwd)
here=$repo/integrations/golangci
cache=${RETRYLINT_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/retrylint-ci}/golangci-lint
fixture=integrations/golangci/testdata/nolint
percheck=integrations/golangci/testdata/nolintcheck
checks=(retryflatten termbeforedlq barenak ackretryable dlqunchecked poisonack settletwice ackpermanent)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# nolint_expect FILE REPORTS LINTER UNUSED USED...: nolintlint's REPORTS on
# FILE are exactly the unused //nolint:LINTER at line UNUSED; the ones at
# the USED lines count as used.
nolint_expect() {
  local file=$1 reports=$2 linter=$3 unused=$4 line others
  shift 4
  if ! grep -q "^$file:$unused:" "$reports"; then
    echo "FAIL: nolintlint did not report the unused //nolint:$linter at $file:$unused"; failed=1
  else
    echo "ok: nolintlint reports the unused directive at $file:$unused"
  fi
  for line in "$@"; do
    if grep -q "^$file:$line:" "$reports"; then
      echo "FAIL: nolintlint reports the used //nolint:$linter at $file:$line as unused"
      echo "  (the plugin must leave //nolint to golangci-lint and report what it covers):"
      grep "^$file:$line:" "$reports" | sed 's/^/  /'
      failed=1
    else
      echo "ok: nolintlint sees the used //nolint:$linter at $file:$line as used"
    fi
  done
  others=$(grep -v -e "^$file:$unused:" $(printf -- "-e ^$file:%s: " "$@") "$reports" || true)
  if [ -n "$others" ]; then
    echo "FAIL: unexpected nolintlint reports:"; echo "$others"; failed=1
  fi
}
mkdir -p "$cache/bin"

# -trimpath keeps the compiled packages independent of the directory they are
# built in, so the build `custom` runs in its own temporary clone reuses what
# `go install` compiled (and what the previous run compiled) from GOCACHE.
export GOFLAGS="$(go env GOFLAGS) -trimpath"

echo "-- golangci-lint $version (go install, from the module proxy)"
GOBIN=$cache/bin go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version"
"$cache/bin/golangci-lint" version

echo "-- local git repository of golangci-lint $version (from the module cache)"
src=$cache/src-$version
if ! git -C "$src" rev-parse -q --verify "refs/tags/$version" >/dev/null 2>&1; then
  rm -rf "$src"
  moddir=$(go mod download -json "github.com/golangci/golangci-lint/v2@$version" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  cp -r "$moddir" "$src"
  chmod -R u+w "$src"
  git -C "$src" init -q
  git -C "$src" add -A -f .
  git -C "$src" -c user.name=retrylint-ci -c user.email=ci@retrylint.invalid \
    commit -q -m "golangci-lint $version from the Go module cache"
  git -C "$src" tag "$version"
fi
echo "$src"

echo "-- golangci-lint custom (plugin module github.com/retrylint/retrylint/plugin from $repo/plugin)"
cat >"$work/.custom-gcl.yml" <<YAML
version: $version
name: custom-gcl
destination: $cache
plugins:
  - module: github.com/retrylint/retrylint/plugin
    path: $repo/plugin
  # The plugin module requires the linter module; from a checkout, both come
  # from their paths (a released plugin requires its released linter).
  - module: github.com/retrylint/retrylint
    import: github.com/retrylint/retrylint/analyzers/suite
    path: $repo
YAML
(
  cd "$work"
  GIT_CONFIG_COUNT=1 \
    GIT_CONFIG_KEY_0="url.file://$src.insteadOf" \
    GIT_CONFIG_VALUE_0=https://github.com/golangci/golangci-lint.git \
    "$cache/bin/golangci-lint" custom -v
)
gcl=$cache/custom-gcl
"$gcl" version
"$gcl" linters --config "$here/check.golangci.yml" >"$work/linters"
grep -q '^retrylint' "$work/linters" ||
  { cat "$work/linters"; echo "FAIL: custom-gcl does not list the retrylint linter"; exit 1; }

echo "-- retrylint (command line) on ./examples/... ./$fixture: the expected findings"
cd "$repo"
go build -o "$work/retrylint" ./cmd/retrylint
set +e
"$work/retrylint" ./examples/... "./$fixture" >"$work/cli.out" 2>&1
status=$?
set -e
cat "$work/cli.out"
if [ "$status" -ne 3 ]; then
  echo "FAIL: retrylint exited $status, want 3 (findings)"; exit 1
fi

echo "-- golangci.example.yml's issues section is check.golangci.yml's"
# By default golangci-lint shows 3 issues with the same text, 50 per linter
# and one per line, and hides the rest. The example ships the settings that
# keep every finding; the runs below use them (no command-line override),
# with errorlint on, which reports on retryflatten's lines.
issues() { sed -n '/^issues:/,/^[^ ]/p' "$1" | grep '^ '; }
if ! diff -u --label golangci.example.yml --label check.golangci.yml \
  <(issues "$here/golangci.example.yml") <(issues "$here/check.golangci.yml"); then
  echo "FAIL: the example's issues section is not the one the check runs with"; exit 1
fi
issues "$here/golangci.example.yml" | grep -q 'uniq-by-line: false' ||
  { echo "FAIL: golangci.example.yml does not keep issues of several linters on one line"; exit 1; }

echo "-- custom-gcl run ./examples/... ./$fixture"
set +e
"$gcl" run --config "$here/check.golangci.yml" \
  --output.text.path=stdout --output.text.print-issued-lines=false --output.text.colors=false \
  ./examples/... "./$fixture" >"$work/gcl.out" 2>"$work/gcl.err"
status=$?
set -e
cat "$work/gcl.out" "$work/gcl.err"
# 1 is golangci-lint's exit status for "issues found"; others are errors.
if [ "$status" -ne 1 ]; then
  echo "FAIL: custom-gcl run exited $status, want 1 (issues found)"; exit 1
fi

echo "-- compare: the command line's findings and golangci-lint's retrylint issues"
failed=0
# file:line:col: check of each finding. The command line indents related
# locations under their finding; the plugin puts them in the message (and a
# "check(related information): ..." issue of their own, which golangci-lint
# would make of them, fails the check further down).
finding='^[^[:space:]]+\.go:[0-9]+:[0-9]+: [a-z]+: '
grep -E "$finding" "$work/cli.out" | cut -d: -f1-4 | sort -u >"$work/want"
grep -E "$finding.*\(retrylint\)\$" "$work/gcl.out" | cut -d: -f1-4 | sort -u >"$work/got"
if ! diff -u --label 'retrylint ./examples/... (command line)' --label 'custom-gcl run ./examples/... (retrylint issues)' \
  "$work/want" "$work/got"; then
  echo "FAIL: the findings differ (-: only the command line reports it, +: only golangci-lint does)"
  failed=1
fi
# errorlint ran and reported on lines retryflatten reports on: the
# comparison above holds with both linters on one line.
grep -E '^[^[:space:]]+\.go:[0-9]+:[0-9]+: .*\(errorlint\)$' "$work/gcl.out" | cut -d: -f1-2 | sort -u >"$work/errorlint" || true
both=$(grep ': retryflatten$' "$work/got" | cut -d: -f1-2 | sort -u | comm -12 "$work/errorlint" - | wc -l)
if [ "$both" -eq 0 ]; then
  echo "FAIL: no line with both an errorlint and a retryflatten issue: the uniq-by-line case is not tested"; failed=1
else
  echo "ok: $both line(s) with both errorlint and retryflatten issues, each kept"
fi
for check in "${checks[@]}"; do
  n=$(grep -c ": $check\$" "$work/want" || true)
  if [ "$n" -eq 0 ]; then
    echo "FAIL: no $check finding on the examples"; failed=1
  elif ! grep -q ": $check\$" "$work/got"; then
    echo "FAIL: golangci-lint reports no $check finding"; failed=1
  else
    echo "ok: $check: $n finding(s), the same in golangci-lint"
  fi
done

echo "-- related locations: in the finding's message, never issues of their own"
if grep -E '\(related information\)' "$work/gcl.out"; then
  echo "FAIL: related locations reported as issues of their own (above): a //nolint at the finding does not reach them"; failed=1
else
  echo "ok: no related location is an issue of its own"
fi
related=$(grep -n 'fixture: related$' "$fixture/nolint.go" | cut -d: -f1)
if ! grep -E "^$fixture/nolint.go:$related:[0-9]+: retryflatten: .*\(see: line [0-9]+:[0-9]+: describe flattens its error parameter here\) \(retrylint\)\$" "$work/gcl.out"; then
  echo "FAIL: no retryflatten issue at $fixture/nolint.go:$related naming its related location in the message"; failed=1
fi
if grep -E "^$fixture/nolint.go:[0-9]+:[0-9]+: .*\((retrylint)\)\$" "$work/gcl.out" | grep -v -e "^$fixture/nolint.go:$related:" |
  grep -v -F -f <(grep -E "^$fixture/nolint.go:" "$work/cli.out" | cut -d: -f1-2 | sed 's/$/:/'); then
  echo "FAIL: retrylint issues in $fixture that the command line does not report (above): something under //nolint:retrylint was left"; failed=1
fi

echo "-- nolintlint (allow-unused: false) on $fixture"
used=$(grep -n -e 'fixture: used$' -e 'fixture: used, related$' "$fixture/nolint.go" | cut -d: -f1)
unused=$(grep -n 'fixture: unused$' "$fixture/nolint.go" | cut -d: -f1)
grep -E '\(nolintlint\)$' "$work/gcl.out" >"$work/nolintlint" || true
nolint_expect "$fixture/nolint.go" "$work/nolintlint" retrylint "$unused" $used

echo "-- per-check linters (check.percheck.golangci.yml: retryflatten a linter of its own) on $percheck"
set +e
"$gcl" run --config "$here/check.percheck.golangci.yml" \
  --output.text.path=stdout --output.text.print-issued-lines=false --output.text.colors=false \
  "./$percheck" >"$work/percheck.out" 2>"$work/percheck.err"
status=$?
set -e
cat "$work/percheck.out" "$work/percheck.err"
reported=$(grep -n 'fixture: reported$' "$percheck/nolintcheck.go" | cut -d: -f1)
used=$(grep -n 'fixture: used$' "$percheck/nolintcheck.go" | cut -d: -f1)
unused=$(grep -n 'fixture: unused$' "$percheck/nolintcheck.go" | cut -d: -f1)
if [ "$status" -ne 1 ]; then
  echo "FAIL: custom-gcl run with per-check linters exited $status, want 1 (issues found)"; failed=1
fi
if grep -i 'unknown linter' "$work/percheck.err"; then
  echo "FAIL: golangci-lint does not know //nolint:retryflatten's linter (above)"; failed=1
fi
grep -E '^[^[:space:]]+\.go:[0-9]+:[0-9]+: .*\((retrylint|retryflatten)\)$' "$work/percheck.out" | cut -d: -f1-2 >"$work/percheck.got" || true
if [ "$(cat "$work/percheck.got")" != "$percheck/nolintcheck.go:$reported" ]; then
  echo "FAIL: want exactly one retrylint issue, retryflatten's at $percheck/nolintcheck.go:$reported; got:"
  cat "$work/percheck.got"; failed=1
elif ! grep -qE "^$percheck/nolintcheck.go:$reported:[0-9]+: describe flattens .*\(see: line [0-9]+:[0-9]+: describe flattens its error parameter here\) \(retryflatten\)\$" "$work/percheck.out"; then
  echo "FAIL: the issue at $percheck/nolintcheck.go:$reported is not retryflatten's, with its related location in the message"; failed=1
else
  echo "ok: one issue, of the retryflatten linter, at $percheck/nolintcheck.go:$reported; //nolint:retryflatten silenced the other, related location included"
fi
grep -E '\(nolintlint\)$' "$work/percheck.out" >"$work/percheck.nolintlint" || true
nolint_expect "$percheck/nolintcheck.go" "$work/percheck.nolintlint" retryflatten "$unused" "$used"

# One .retrylint.yaml, three drivers: in a copy of the examples' module
# whose file disables barenak, the command line, go vet -vettool and
# golangci-lint (started there: the plugin reads the file from its working
# directory) report the same findings, and no barenak one.
echo "-- one .retrylint.yaml (disable: [barenak]): command line, go vet -vettool, golangci-lint"
cp -r "$repo/examples" "$work/cfgws"
printf 'disable: [barenak]\n' >"$work/cfgws/.retrylint.yaml"
(
  cd "$work/cfgws"
  "$work/retrylint" ./... >"$work/cfg.cli" 2>&1 || true
  go vet -vettool="$work/retrylint" ./... 2>"$work/cfg.vet" || true
  "$gcl" run --config "$here/check.golangci.yml" \
    --output.text.path=stdout --output.text.print-issued-lines=false --output.text.colors=false \
    ./... >"$work/cfg.gcl" 2>&1 || true
)
# file:line:col of each finding (go vet prints no check names, and its
# paths start with ./).
grep -E "$finding" "$work/cfg.cli" | cut -d: -f1-3 | sort -u >"$work/cfg.cli.set"
grep -E '^\.?/?[^[:space:]#]+\.go:[0-9]+:[0-9]+: ' "$work/cfg.vet" | grep -v '^[^:]*:[0-9]*:[0-9]*: 	' |
  sed 's#^\./##' | cut -d: -f1-3 | sort -u >"$work/cfg.vet.set"
grep -E "$finding.*\(retrylint\)\$" "$work/cfg.gcl" | cut -d: -f1-3 | sort -u >"$work/cfg.gcl.set"
if [ ! -s "$work/cfg.cli.set" ] || grep -q ': barenak: ' "$work/cfg.cli" || grep -q ': barenak: .*(retrylint)$' "$work/cfg.gcl"; then
  echo "FAIL: with barenak disabled by the file: command line:"; cat "$work/cfg.cli"; echo "golangci-lint:"; cat "$work/cfg.gcl"; failed=1
fi
for driver in vet gcl; do
  if ! diff -u --label "command line" --label "$driver" "$work/cfg.cli.set" "$work/cfg.$driver.set"; then
    echo "FAIL: with one .retrylint.yaml, $driver reports other findings than the command line"; failed=1
  fi
done
echo "ok: $(wc -l <"$work/cfg.cli.set") finding(s), no barenak one, the same through the three drivers"

if [ "$failed" -ne 0 ]; then
  echo "golangci-lint integration check FAILED"; exit 1
fi
echo "golangci-lint integration check passed"
