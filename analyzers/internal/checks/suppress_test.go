package checks

import (
	"go/ast"
	"slices"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/spell"
)

// TestParseDirective: which words of a directive are its check list, and
// which names in it are unknown (a typo suppresses nothing: see
// checkList).
func TestParseDirective(t *testing.T) {
	for _, tc := range []struct {
		text            string
		checks, unknown []string
		reason          string
		file            bool
	}{
		{text: "//retrylint:ignore retries are fine here", reason: "retries are fine here"},
		{text: "//retrylint:ignore break glass only", reason: "break glass only"},
		{text: "//retrylint:ignore arena-allocated, retried upstream", reason: "arena-allocated, retried upstream"},
		{text: "//retrylint:ignore ok, the caller paces it", reason: "ok, the caller paces it"},
		{text: "//retrylint:ignore 1,000 deliveries at most", reason: "1,000 deliveries at most"},
		{text: "//retrylint:ignore unchecked on purpose", reason: "unchecked on purpose"},
		{text: "//retrylint:ignore retryable errors are retried by the caller", reason: "retryable errors are retried by the caller"},
		{text: "//retrylint:ignore barenak the stream caps deliveries", checks: []string{"barenak"}, reason: "the stream caps deliveries"},
		{text: "//retrylint:ignore barenak,poisonack why", checks: []string{"barenak", "poisonack"}, reason: "why"},
		{text: "//retrylint:ignore barenak, poisonack why", checks: []string{"barenak", "poisonack"}, reason: "why"},
		{text: "//retrylint:ignore barenak, the stream caps it", checks: []string{"barenak"}, reason: "the stream caps it"},
		{text: "//retrylint:ignore barenack,ackretryable why", checks: []string{"ackretryable"}, unknown: []string{"barenack"}, reason: "why"},
		{text: "//retrylint:ignore barenack why", unknown: []string{"barenack"}, reason: "why"},
		{text: "//retrylint:ignore bareank why", unknown: []string{"bareank"}, reason: "why"},
		{text: "//retrylint:ignore BareNak why", unknown: []string{"BareNak"}, reason: "why"},
		{text: "//retrylint:ignore barenak: why", unknown: []string{"barenak:"}, reason: "why"},
		{text: "//retrylint:ignore dlq-unchecked why", unknown: []string{"dlq-unchecked"}, reason: "why"},
		{text: "//retrylint:ignore ackretriable why", unknown: []string{"ackretriable"}, reason: "why"},
		{text: "//retrylint:ignore termbefordlg why", unknown: []string{"termbefordlg"}, reason: "why"},
		{text: "//retrylint:ignore foo,bar why", unknown: []string{"foo", "bar"}, reason: "why"},
		{text: "//retrylint:ignore ,barenak why", checks: []string{"barenak"}, reason: "why"},
		{text: "//retrylint:ignore barenak", checks: []string{"barenak"}},
		{text: "//retrylint:ignore"},
		{text: "//retrylint:file-ignore barenak why", checks: []string{"barenak"}, reason: "why", file: true},
		{text: "//retrylint:file-ignore legacy code", unknown: []string{"legacy"}, reason: "code", file: true},
		{text: "//retrylint:file-ignore", file: true},
	} {
		d := parseDirective(&ast.Comment{Text: tc.text})
		if d == nil {
			t.Errorf("%s: not a directive", tc.text)
			continue
		}
		if !slices.Equal(d.Checks, tc.checks) || !slices.Equal(d.Unknown, tc.unknown) || d.Reason != tc.reason || d.File != tc.file {
			t.Errorf("%s: checks %q unknown %q reason %q file %v; want %q %q %q %v",
				tc.text, d.Checks, d.Unknown, d.Reason, d.File, tc.checks, tc.unknown, tc.reason, tc.file)
		}
	}
}

// TestParseNolint: //nolint forms; a misspelling of a check (or of
// retrylint) is unknown, other linters' names are not ours.
func TestParseNolint(t *testing.T) {
	for _, tc := range []struct {
		text            string
		isNil           bool
		checks, unknown []string
	}{
		{text: "//nolint"},
		{text: "//nolint:all"},
		{text: "//nolint:errcheck,retrylint // why"},
		{text: "//nolint:barenak", checks: []string{"barenak"}},
		{text: "//nolint:errcheck", isNil: true},
		{text: "//nolint:poisonak", unknown: []string{"poisonak"}},
		{text: "//nolint:retrylnt", unknown: []string{"retrylnt"}},
		{text: "//nolint:retrylint,barenack", unknown: []string{"barenack"}},
	} {
		d := parseDirective(&ast.Comment{Text: tc.text})
		if tc.isNil {
			if d != nil {
				t.Errorf("%s: %+v, want nil", tc.text, d)
			}
			continue
		}
		if d == nil || !d.Nolint || !slices.Equal(d.Checks, tc.checks) || !slices.Equal(d.Unknown, tc.unknown) {
			t.Errorf("%s: %+v, want checks %q unknown %q", tc.text, d, tc.checks, tc.unknown)
		}
	}
}

// TestOtherLintersNotTypos: no golangci-lint linter's name (v2.x) reads as
// a misspelled check or retrylint in a //nolint list.
func TestOtherLintersNotTypos(t *testing.T) {
	linters := strings.Fields(`arangolint asasalint asciicheck bidichk bodyclose canonicalheader
containedctx contextcheck copyloopvar cyclop decorder depguard dogsled dupl dupword
durationcheck embeddedstructfieldcheck err113 errcheck errchkjson errname errorlint
exhaustive exhaustruct exptostd fatcontext forbidigo forcetypeassert funcorder funlen
ginkgolinter gocheckcompilerdirectives gochecknoglobals gochecknoinits gochecksumtype
gocognit goconst gocritic gocyclo godot godox goheader gomoddirectives gomodguard
goprintffuncname gosec gosmopolitan govet grouper iface importas inamedparam
ineffassign interfacebloat intrange iotamixing ireturn lll loggercheck maintidx
makezero mirror misspell mnd modernize musttag nakedret nestif nilerr nilnesserr
nilnil nlreturn noctx noinlineerr nolintlint nonamedreturns nosprintfhostport
paralleltest perfsprint prealloc predeclared promlinter protogetter reassign
recvcheck revive rowserrcheck sloglint spancheck sqlclosecheck staticcheck tagalign
tagliatelle testableexamples testifylint testpackage thelper tparallel unconvert
unparam unqueryvet unused usestdlibvars usetesting varnamelen wastedassign
whitespace wrapcheck wsl wsl_v5 zerologlint gofmt gofumpt goimports gci golines swaggo`)
	for _, l := range linters {
		if n := spell.Nearest(l, append(Names(), nolintName)); n != "" {
			t.Errorf("%s reads as a misspelling of %s", l, n)
		}
	}
}
