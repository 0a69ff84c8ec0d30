package syntax

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Test functions are out of scope: the bodies of Test, Benchmark and Fuzz
// functions and of TestMain in _test.go files are neither analyzed nor
// reported on. They drive the broker on purpose (a test of redelivery
// Naks bare; a test of termination Terms with no dead letter), so a
// finding there is not a defect anyone would fix, and on a large module
// they are most of the code (nats-server: 324k lines of tests, 4,432 test
// functions). What a test file declares besides them (fake handlers,
// helpers, consumers shared by tests) and Example functions, which users
// copy, are analyzed as any code is.

// TestFuncs returns the test functions of files (see above).
func TestFuncs(fset *token.FileSet, info *types.Info, files []*ast.File) map[*ast.FuncDecl]bool {
	funcs := make(map[*ast.FuncDecl]bool)
	for _, f := range files {
		tf := fset.File(f.FileStart)
		if tf == nil || !strings.HasSuffix(tf.Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && isTestFunc(info, fd) {
				funcs[fd] = true
			}
		}
	}
	return funcs
}

// isTestFunc reports whether d is a function go test runs: TestXxx(*testing.T),
// BenchmarkXxx(*testing.B), FuzzXxx(*testing.F) or TestMain(*testing.M),
// where Xxx does not start with a lower-case letter.
func isTestFunc(info *types.Info, d *ast.FuncDecl) bool {
	if d.Recv != nil || d.Type.TypeParams != nil {
		return false
	}
	name := d.Name.Name
	var param string
	switch {
	case name == "TestMain":
		param = "M"
	case testName(name, "Test"):
		param = "T"
	case testName(name, "Benchmark"):
		param = "B"
	case testName(name, "Fuzz"):
		param = "F"
	default:
		return false
	}
	fn, _ := info.Defs[d.Name].(*types.Func)
	if fn == nil {
		return false
	}
	sig := fn.Signature()
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	ptr, ok := sig.Params().At(0).Type().(*types.Pointer)
	return ok && gotypes.IsNamed(ptr.Elem(), "testing", param)
}

// testName reports whether name is prefix followed by nothing or by a
// rune that is not a lower-case letter (go test's rule).
func testName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}
