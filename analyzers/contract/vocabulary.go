package contract

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/retrylint/retrylint/analyzers/profile"
)

// vocabulary is what one walk over a package's syntax tells about which
// parts of the model can have anything to find there. Most packages of a
// program (the standard library, most dependencies) have no message, no
// retry carrier and no dead-letter queue in sight: for them the model
// skips its inferences, which is most of its cost.
type vocabulary struct {
	// dlqNames are the identifiers of the package that match the DLQ name
	// pattern, each matched once.
	dlqNames map[string]bool
	// dlqConstant is set when a string literal of the package, or a
	// string constant an import declares, matches the DLQ subject pattern.
	dlqConstant bool
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

func newVocabulary(cfg *Config, pkg *types.Package, files []*ast.File) *vocabulary {
	v := &vocabulary{dlqNames: make(map[string]bool)}
	seen := make(map[string]bool)
	seenConst := make(map[string]bool)
	checkConst := func(s string) {
		if !seenConst[s] {
			seenConst[s] = true
			v.dlqConstant = v.dlqConstant || cfg.DLQSubject.MatchString(s)
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if !seen[n.Name] {
					seen[n.Name] = true
					if cfg.DLQName.MatchString(n.Name) {
						v.dlqNames[n.Name] = true
					}
					v.carrierMethod = v.carrierMethod || n.Name == cfg.CarrierMethod
					v.predicateNames = v.predicateNames || cfg.TransientPredicate.MatchString(n.Name)
					v.ackNames = v.ackNames || slices.ContainsFunc(cfg.Profiles, func(p *profile.Profile) bool { return p.AckMethods[n.Name] != "" })
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					if s, err := strconv.Unquote(n.Value); err == nil {
						checkConst(s)
					}
				}
			}
			return true
		})
	}
	for _, imp := range pkg.Imports() {
		v.scanImport(cfg, imp)
	}
	return v
}

// scanImport records whether an imported package declares a carrier type
// or a string constant that names a DLQ subject.
func (v *vocabulary) scanImport(cfg *Config, imp *types.Package) {
	scope := imp.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Const:
			if obj.Val().Kind() == constant.String && cfg.DLQSubject.MatchString(constant.StringVal(obj.Val())) {
				v.dlqConstant = true
			}
		case *types.TypeName:
			v.importedCarrier = v.importedCarrier || declaresMethod(obj.Type(), cfg.CarrierMethod)
		}
	}
}

// isDLQName reports whether name matches the DLQ name pattern.
func (m *Model) isDLQName(name string) bool {
	if m.vocab != nil {
		if m.vocab.dlqNames[name] {
			return true
		}
		if len(m.vocab.dlqNames) == 0 {
			return false
		}
	}
	return m.cfg.DLQName.MatchString(name)
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
	m.mayRetry = v.carrierMethod || len(m.imported.producers) > 0 || len(m.imported.vars) > 0 || len(m.imported.classifiers) > 0
	m.mayRetry = m.mayRetry || v.importedCarrier
	m.maySettle = v.ackNames || len(m.imported.effects) > 0
	m.mayWriteDLQ = len(v.dlqNames) > 0 || v.dlqConstant || len(m.imported.dlqWriters) > 0 || len(m.cfg.DLQFuncs) > 0 ||
		slices.ContainsFunc(decls, hasDLQDirective)
	m.mayClassify = m.mayRetry || v.predicateNames
}
