#!/usr/bin/env bash
# Builds gopls v0.23.0 (the newest that builds with Go 1.26) with retrylint's
# analyzers registered, so editors show retrylint diagnostics as you type.
#
#   integrations/gopls/build.sh [output-binary]    # default: ./bin/gopls-retrylint
#
# gopls is tightly coupled to its pinned x/tools; the build keeps that pin
# (retrylint's analyzers compile against it) instead of letting MVS lift it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/bin/gopls-retrylint}
gopls_version=v0.23.0
tools_pin=v0.47.1-0.20260707181000-a299dadba899

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$(go mod download -json "golang.org/x/tools/gopls@$gopls_version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
cp -r "$src" "$work/gopls" && chmod -R u+w "$work/gopls"
cd "$work/gopls"
cat > internal/settings/retrylint.go <<'GO'
package settings

import (
	"log"
	"slices"

	"github.com/retrylint/retrylint/analyzers/suite"
)

// Registers retrylint's checks (default-enabled, warnings, quick fixes),
// configured by the .retrylint.yaml found from the directory gopls starts
// in; a bad file stops gopls with one line naming the file and line.
func init() {
	_, disabled, err := suite.Configure(".")
	if err != nil {
		log.Fatalf("retrylint: config: %v", err)
	}
	for _, a := range suite.All() {
		if !slices.Contains(disabled, a.Name) {
			AllAnalyzers = append(AllAnalyzers, &Analyzer{analyzer: a})
		}
	}
}
GO
go mod edit -require github.com/retrylint/retrylint@v0.0.0 -replace "github.com/retrylint/retrylint=$repo" \
  -replace "golang.org/x/tools=golang.org/x/tools@$tools_pin"
go mod tidy
mkdir -p "$(dirname "$out")"
# -trimpath: the packages compiled here do not depend on the temporary
# directory, so a rebuild reuses them from GOCACHE (seconds instead of minutes).
go build -trimpath -o "$out" .
echo "built $out"
