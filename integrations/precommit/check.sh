#!/usr/bin/env bash
# Tests the pre-commit hook (.pre-commit-hooks.yaml) with the real
# framework: Debian's pre-commit (installed with apt-get when missing) runs
# the hook from this checkout (pre-commit try-repo) in scratch repositories:
#
#   1. a repository whose go.mod is at the root, with a retryflatten defect:
#      the hook must fail and name the finding; once fixed, it must pass;
#   2. a monorepo whose Go module lives in services/orders, with the hook's
#      args set to [-C, services/orders, ./...]: the same;
#   3. commits that change no Go file: one that changes only .retrylint.yaml
#      and one that changes only a profile JSON must run the hook (each
#      breaks the configuration, so the hook must fail and say why); one
#      that changes only a README must skip it.
#
#   integrations/precommit/check.sh
#
# pre-commit builds the hook with `go install ./...` in a private GOPATH (the
# check makes sure that builds only cmd/retrylint); the shared module cache
# is exported so that nothing is downloaded twice.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)

if ! command -v pre-commit >/dev/null; then
  echo "-- installing pre-commit (Debian package)"
  sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  $sudo apt-get install -y -qq pre-commit >/dev/null 2>&1 ||
    { $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq pre-commit >/dev/null; }
fi
pre-commit --version
export GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)}
export PRE_COMMIT_HOME=${PRE_COMMIT_HOME:-$(mktemp -d)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# scratch DIR MODDIR writes a git repository at DIR whose Go module (with a
# retryable error flattened with %v) lives in DIR/MODDIR.
scratch() {
  local dir=$1 mod=$1/$2
  mkdir -p "$mod"
  git -C "$dir" init -q
  cat >"$mod/go.mod" <<'MOD'
module example.com/orders

go 1.26
MOD
  cat >"$mod/orders.go" <<'GO'
package orders

import (
	"fmt"
	"time"
)

type TempErr struct{ d time.Duration }

func (e *TempErr) Error() string             { return "inventory busy" }
func (e *TempErr) RetryDelay() time.Duration { return e.d }

func reserve() error { return &TempErr{2 * time.Second} }

func Handle() error {
	if err := reserve(); err != nil {
		return fmt.Errorf("reserve: %v", err)
	}
	return nil
}
GO
  git -C "$dir" add -A
  git -C "$dir" -c user.name=ci -c user.email=ci@example.com commit -q -m init
}

# expect NAME DIR STATUS PATTERN runs the hook from this checkout in DIR
# and checks its status and output.
expect() {
  local name=$1 dir=$2 want=$3 pattern=$4 status=0
  (cd "$dir" && pre-commit try-repo "$repo" retrylint --all-files) >"$work/out" 2>&1 || status=$?
  if { [ "$want" = fail ] && [ "$status" -eq 0 ]; } || { [ "$want" = pass ] && [ "$status" -ne 0 ]; } ||
    ! grep -q -- "$pattern" "$work/out"; then
    echo "FAIL: $name: exit $status, want $want and output matching $pattern:"; cat "$work/out"; exit 1
  fi
  echo "ok: $name ($want)"
}

# staged NAME DIR STATUS PATTERN runs the hook from this checkout in DIR on
# the staged files only, as a commit does, and checks its status and output.
staged() {
  local name=$1 dir=$2 want=$3 pattern=$4 status=0
  (cd "$dir" && pre-commit try-repo "$repo" retrylint) >"$work/out" 2>&1 || status=$?
  if { [ "$want" = fail ] && [ "$status" -eq 0 ]; } || { [ "$want" = pass ] && [ "$status" -ne 0 ]; } ||
    ! grep -q -- "$pattern" "$work/out"; then
    echo "FAIL: $name: exit $status, want $want and output matching $pattern:"; cat "$work/out"; exit 1
  fi
  echo "ok: $name ($want)"
}

# fix MODDIR REPO fixes the defect and commits it.
fix() {
  sed -i 's/reserve: %v/reserve: %w/' "$1/orders.go"
  git -C "$2" -c user.name=ci -c user.email=ci@example.com commit -q -am fix
}

echo "-- go.mod at the repository root"
scratch "$work/flat" .
expect "root module, defect" "$work/flat" fail "orders.go:17:10: retryflatten: retryable error err formatted with %v"
fix "$work/flat" "$work/flat"
expect "root module, fixed" "$work/flat" pass "Passed"

echo "-- commits that change only the configuration"
flat=$work/flat
commit() { git -C "$flat" add -A && git -C "$flat" -c user.name=ci -c user.email=ci@example.com commit -q -m "$1"; }
printf 'barenak:\n  strikt: true\n' >"$flat/.retrylint.yaml"
git -C "$flat" add .retrylint.yaml
staged "only .retrylint.yaml changed" "$flat" fail 'barenak has no option "strikt"'
mkdir -p "$flat/profiles"
printf 'retrycontract:\n  profiles: [profiles/q.json]\n' >"$flat/.retrylint.yaml"
cat >"$flat/profiles/q.json" <<'JSON'
{"name": "quemq", "messages": [{"path": "example.com/quemq", "name": "Delivery"}],
 "ack_methods": {"Accept": "done", "RequeueAfter": "retry-later"}, "packages": ["example.com/quemq"]}
JSON
commit "a valid profile"
expect "a valid profile" "$flat" pass "Passed"
sed -i 's/"retry-later"/"retry-latr"/' "$flat/profiles/q.json"
git -C "$flat" add profiles/q.json
staged "only a profile changed" "$flat" fail 'settlement "retry-latr"'
git -C "$flat" reset -q --hard
echo "notes" >"$flat/README.md"
git -C "$flat" add README.md
staged "only a README changed" "$flat" pass "(no files to check)Skipped"
git -C "$flat" reset -q --hard

echo "-- monorepo: the module in services/orders, args [-C, services/orders, ./...]"
scratch "$work/mono" services/orders
cat >"$work/mono/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $repo
    rev: $(git -C "$repo" rev-parse HEAD)
    hooks:
      - id: retrylint
        args: [-C, services/orders, ./...]
YAML
git -C "$work/mono" add -A && git -C "$work/mono" -c user.name=ci -c user.email=ci@example.com commit -q -m config
# try-repo takes no args; run the configured hook instead (it pins HEAD,
# so the checkout must be committed).
monorun() {
  local want=$1 pattern=$2 status=0
  (cd "$work/mono" && pre-commit run retrylint --all-files) >"$work/out" 2>&1 || status=$?
  if { [ "$want" = fail ] && [ "$status" -eq 0 ]; } || { [ "$want" = pass ] && [ "$status" -ne 0 ]; } ||
    ! grep -q -- "$pattern" "$work/out"; then
    echo "FAIL: monorepo: exit $status, want $want and output matching $pattern:"; cat "$work/out"; exit 1
  fi
  echo "ok: monorepo ($want)"
}
monorun fail "orders.go:17:10: retryflatten"
fix "$work/mono/services/orders" "$work/mono"
monorun pass "Passed"

# pre-commit (run, with the store in PRE_COMMIT_HOME; try-repo keeps a
# store of its own) ran `go install ./...` in the repository: the linter module's
# only command is retrylint (the demo, the examples and the benchmarks are
# modules of their own), so the hook's environment holds that one binary.
built=$(find "$PRE_COMMIT_HOME" -path '*golangenv-*/bin/*' -type f -printf '%f\n' | sort -u | tr '\n' ' ')
if [ "$built" != "retrylint " ]; then
  echo "FAIL: the hook built [$built], want [retrylint ]"; exit 1
fi
echo "ok: the hook built only retrylint"
echo "pre-commit hook check passed"
