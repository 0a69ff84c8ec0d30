#!/usr/bin/env bash
# Builds gopls v0.23.0 (the newest that builds with Go 1.26) with retrylint's
# analyzers registered, so editors show retrylint diagnostics as you type.
#
#   integrations/gopls/build.sh [output-binary]    # default: ./bin/gopls-retrylint
#
# gopls is tightly coupled to its pinned x/tools; the build keeps that pin
# (retrylint's analyzers compile against it) instead of letting MVS lift it.
#
# Two changes to gopls: internal/settings/retrylint.go registers the checks
# (suite.PerModule: each package analyzed with its own module's
# .retrylint.yaml), and one line in internal/cache/analysis.go makes the
# configuration part of the analysis cache key.
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
	"path/filepath"

	"github.com/retrylint/retrylint/analyzers/suite"
	"golang.org/x/tools/gopls/internal/protocol"
)

// Registers retrylint's checks (default-enabled, warnings, quick fixes).
// Each package is analyzed with the .retrylint.yaml of its own module (the
// nearest above its directory), read when it is analyzed; a file that does
// not load is one diagnostic at the package clause (suite.PerModule).
func init() {
	for _, a := range suite.PerModule() {
		AllAnalyzers = append(AllAnalyzers, &Analyzer{analyzer: a})
	}
}

// RetrylintCacheKey is the part of a package's analysis cache key that
// retrylint's configuration makes: the configuration file's path and
// content, and its profiles' (suite.ConfigKey). Without it, results
// computed under an older file are served from gopls' cache, across
// restarts too.
func RetrylintCacheKey(files []protocol.DocumentURI) string {
	if len(files) == 0 {
		return ""
	}
	return suite.ConfigKey(filepath.Dir(files[0].Path()))
}
GO
# The analysis cache key (internal/cache/analysis.go, analysisNode.cacheKey)
# hashes the analyzers' names, not their configuration: add retrylint's.
perl -0pi -e 's/(\tfor _, a := range an\.analyzers \{\n\t\tfmt\.Fprintln\(hasher, a\.Name\)\n\t\}\n)/$1\n\t\/\/ retrylint configuration (integrations\/gopls\/build.sh)\n\tfmt.Fprintf(hasher, "retrylint: %s\\n", settings.RetrylintCacheKey(an.ph.mp.CompiledGoFiles))\n/' internal/cache/analysis.go
grep -q 'settings.RetrylintCacheKey' internal/cache/analysis.go ||
  { echo "build.sh: could not add retrylint's configuration to gopls' analysis cache key (internal/cache/analysis.go changed?)" >&2; exit 1; }
go mod edit -require github.com/retrylint/retrylint@v0.0.0 -replace "github.com/retrylint/retrylint=$repo" \
  -replace "golang.org/x/tools=golang.org/x/tools@$tools_pin"
go mod tidy
mkdir -p "$(dirname "$out")"
# -trimpath: the packages compiled here do not depend on the temporary
# directory, so a rebuild reuses them from GOCACHE (seconds instead of minutes).
go build -trimpath -o "$out" .
echo "built $out"
