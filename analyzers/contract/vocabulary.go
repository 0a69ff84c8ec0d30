package contract

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"golang.org/x/tools/go/analysis"
)

// vocabulary is what the identifiers of a package tell about which
// parts of the model can have anything to find there. Most packages of a
// program (the standard library, most dependencies) have no message, no
// retry carrier and no dead-letter queue in sight: for them the model
// skips its inferences, which is most of its cost.
type vocabulary struct {
	// dlqNames are the identifiers of the package that match the DLQ name
	// pattern, each matched once.
	dlqNames map[string]bool
	// publishNames is set when some profile's publish call is named in
	// the package: its subject may name a DLQ.
	publishNames bool
	// ackNames is set when some profile's ack method is named in the
	// package.
	ackNames bool
	// carrierMethod is set when the carrier method is named in the package.
	carrierMethod bool
	// importedCarrier is set when a direct import declares a type with the
	// carrier method.
	importedCarrier bool
	// predicateNames is set when a name matches the transient predicate
	// pattern.
	predicateNames bool
}

func newVocabulary(cfg *Config, lib messages.LibraryNames, syn *syntax.Index, importsCarrier bool) *vocabulary {
	v := &vocabulary{dlqNames: make(map[string]bool)}
	for name := range syn.Names {
		if cfg.DLQName.MatchString(name) {
			v.dlqNames[name] = true
		}
		v.carrierMethod = v.carrierMethod || name == cfg.CarrierMethod
		v.predicateNames = v.predicateNames || cfg.TransientPredicate.MatchString(name)
		v.ackNames = v.ackNames || lib.Ack[name]
		v.publishNames = v.publishNames || lib.Publish[name]
	}
	v.importedCarrier = importsCarrier
	return v
}

// CarrierTypesFact is a package fact: the package declares types with the
// carrier method (RetryDelay). A package that imports one may hold a
// retry carrier in its errors. (Each package names its own, once: asking
// every importer to scan every import's scope cost more than the rest of
// the vocabulary.)
type CarrierTypesFact struct {
	Types []string // the carrier types' names, sorted
}

func (*CarrierTypesFact) AFact() {}
func (f *CarrierTypesFact) String() string {
	return "carrier types " + strings.Join(f.Types, ", ")
}

// carrierTypes returns the names of the package-level types of the files
// that declare the carrier method, sorted.
func carrierTypes(cfg *Config, info *types.Info, files []*ast.File) []string {
	var out []string
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				if tn, ok := info.Defs[spec.(*ast.TypeSpec).Name].(*types.TypeName); ok && declaresMethod(tn.Type(), cfg.CarrierMethod) {
					out = append(out, tn.Name())
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// importsCarrier reports whether a direct import of the package declares
// a carrier type.
func importsCarrier(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if pass.ImportPackageFact(imp, new(CarrierTypesFact)) {
			return true
		}
	}
	return false
}

// dlqConstant reports whether a string literal of the package, or a
// string constant one of its imports declares, matches the DLQ subject
// pattern: a publish can name a DLQ subject only then. (A subject whose
// DLQ part only appears once constants are concatenated is not seen.)
// It runs only in packages that name a publish call.
func dlqConstant(cfg *Config, pkg *types.Package, syn *syntax.Index) bool {
	seen := make(map[string]bool)
	found := false
	for _, lit := range syn.Strings {
		if s, err := strconv.Unquote(lit.Value); err == nil && !seen[s] {
			seen[s] = true
			if found = cfg.DLQSubject.MatchString(s); found {
				break
			}
		}
	}
	if found {
		return true
	}
	for _, imp := range pkg.Imports() {
		scope := imp.Scope()
		for _, name := range scope.Names() {
			if c, ok := scope.Lookup(name).(*types.Const); ok && c.Val().Kind() == constant.String && cfg.DLQSubject.MatchString(constant.StringVal(c.Val())) {
				return true
			}
		}
	}
	return false
}

// declaresMethod reports whether a named type declares a method of that
// name (its own methods, or an interface's).
func declaresMethod(t types.Type, method string) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	for i := range n.NumMethods() {
		if n.Method(i).Name() == method {
			return true
		}
	}
	if iface, ok := n.Underlying().(*types.Interface); ok {
		for i := range iface.NumMethods() {
			if iface.Method(i).Name() == method {
				return true
			}
		}
	}
	return false
}

// gate decides which inferences can find anything in the package, from
// its vocabulary, the facts of its dependencies and its imports' types.
// An error can hold a retry carrier only where the carrier method is
// named, a dependency has a producer, a retryable error value or a
// classifier, or a direct import declares a carrier type. (A carrier type
// reached only through a field of a type of an indirect import, in a
// program with no producer at all, is not seen.)
func (m *Model) gate(decls []*ast.FuncDecl) {
	v := m.vocab
	m.mayRetry = v.carrierMethod || len(m.imported.producers.Producers) > 0 || len(m.imported.producers.Vars) > 0 || len(m.imported.classifiers) > 0
	m.mayRetry = m.mayRetry || v.importedCarrier
	m.maySettle = v.ackNames || len(m.imported.effects.Effects) > 0
	m.mayWriteDLQ = len(v.dlqNames) > 0 || len(m.imported.dlq.Writers) > 0 || len(m.cfg.DLQFuncs) > 0 ||
		slices.ContainsFunc(decls, dlq.HasDirective) ||
		v.publishNames && dlqConstant(m.cfg, m.pkg, m.syn)
	m.mayClassify = m.mayRetry || v.predicateNames
}
