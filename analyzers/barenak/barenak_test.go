package barenak_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/barenak"
	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
)

var testdata = checktest.TestData()

// batch runs the check over the packages of all the tests below that use
// barenak.Analyzer without suggested fixes, in one load.
var batch = checktest.NewBatch(barenak.Analyzer, checktest.StandardPackages("barenak",
	"barenak/crosspkg/upstream", "barenak/crosspkg/middle", "barenak/crosspkg/downstream",
	"barenak/unclassified", "barenak/unclassified/store",
	"barenak/redelivery",
	"barenak/helpers",
)...)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	t.Parallel()
	batch.RunStandard(t)
}

func TestAcrossPackages(t *testing.T) {
	t.Parallel()
	batch.Run(t, "barenak/crosspkg/upstream", "barenak/crosspkg/middle", "barenak/crosspkg/downstream")
}

func TestSuggestedFixes(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, testdata, barenak.Analyzer, "barenak/fix")
}

// TestUnclassified runs the default check over bare Naks on the error
// branch of calls whose error was never classified, and their look-alikes.
func TestUnclassified(t *testing.T) {
	t.Parallel()
	batch.Run(t, "barenak/unclassified", "barenak/unclassified/store")
}

// TestRedelivery: messages nothing redelivers (core NATS, ordered,
// AckNone, ephemeral read once) are not judged where their origin shows;
// durable consumers' and unknown origins' are.
func TestRedelivery(t *testing.T) {
	t.Parallel()
	batch.Run(t, "barenak/redelivery")
}

// TestUnclassifiedOff runs a barenak instance with -unclassified=false:
// only the transient path of the unclassified package is reported; the
// default Analyzer's configuration is left alone.
func TestUnclassifiedOff(t *testing.T) {
	t.Parallel()
	a := barenak.New(contract.Analyzer)
	if err := a.Flags.Set(barenak.FlagUnclassified, "false"); err != nil {
		t.Fatal(err)
	}
	results := analysistest.Run(&quiet{T: t}, testdata, a, "barenak/unclassified")
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			n++
			if strings.Contains(d.Message, "unclassified error") {
				t.Errorf("%s: reported with -unclassified=false: %s", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d diagnostics with -unclassified=false, want the transient path's only", n)
	}
	if barenak.Analyzer.Flags.Lookup(barenak.FlagUnclassified).Value.String() != "true" {
		t.Error("setting -unclassified on one instance changed the default Analyzer")
	}
}

// quiet swallows analysistest's complaints about unmatched want comments.
type quiet struct{ *testing.T }

func (q *quiet) Errorf(format string, args ...any) {}

// TestDoc checks the analyzer's Doc is doc.go's section: a lowercase title
// line of at most 60 characters, then a body that names the option and
// says why a consumer BackOff is no excuse.
func TestDoc(t *testing.T) {
	title, body, _ := strings.Cut(barenak.Analyzer.Doc, "\n")
	if !strings.HasPrefix(title, "barenak: ") || len(title) > 60 || strings.ToLower(title[:1]) != title[:1] {
		t.Errorf("title %q: want \"barenak: ...\" of at most 60 characters", title)
	}
	for _, want := range []string{"-" + barenak.FlagUnclassified, "BackOff", "NakWithDelay(d)"} {
		if !strings.Contains(body, want) {
			t.Errorf("doc does not mention %s", want)
		}
	}
}

// TestProfile runs the check on a made-up message library known only
// through its profile file: its bare retry is Requeue, its delayed retry
// RequeueAfter, which the message and the fix name.
func TestProfile(t *testing.T) {
	t.Parallel()
	cfg := contract.DefaultConfig()
	if err := cfg.SetOption(contract.FlagProfiles, filepath.Join(checktest.TestData(), "src", "quemq", "profile.json")); err != nil {
		t.Fatal(err)
	}
	analysistest.RunWithSuggestedFixes(t, checktest.TestData(), barenak.New(contract.New(cfg)), "barenak/profile")
}

// TestHelpers runs the check over calls of bare-Nak helpers of another
// package, judged by the condition of their effects and the argument.
func TestHelpers(t *testing.T) {
	t.Parallel()
	batch.Run(t, "barenak/helpers")
}
