// Package silence decides whether a package can export no fact of any
// retrylint analyzer (contract.Silence), from its syntax, the types of
// its declarations and what its imports let it see: a driver then skips
// type-checking its function bodies and analyzing it. It reads the
// syntax and the declarations' types only, never a body's types, and
// keeps nothing between packages.
//
// Every rule is a necessary condition of some fact; what none of them
// catches cannot export one:
//
//   - the gate's vocabulary (syntax.Gate): the carrier method, a name the
//     DLQ pattern matches, an ack method's name, a string literal the DLQ
//     subject pattern matches, a //retrylint: directive, or configured
//     DLQ functions (then no package is silent). Without them, and
//     without a dependency's fact other than those contract.SeenBySilent
//     accepts, the gate stays closed: no producer, classifier, effect,
//     DLQ writer or handler is inferred, and no check finds anything to
//     export;
//   - messages in sight: the package is a profile's message package, or a
//     direct import is in sight (Verdict.InSight), since a handler
//     candidate needs a message type, which only such an import gives;
//   - the facts inferred whatever the gate says (shapes.go): a function
//     that may wrap or flatten an error parameter (wrapsFact, and the
//     retryflatten check's FlattensFact); a function shaped like a
//     classifier (a bool or (time.Duration, bool) result and an error
//     parameter: the retry predicate names matter only through one); a
//     function returning a function literal that takes or gives a
//     function returning an error (middleware); an exported function
//     returning the call of a func field that returns an error, with a
//     function that may store one (handlers' FieldFact); a package-level
//     string constant the DLQ subject pattern matches (dlqSubjectsFact).
//     Facts on functions count only where importers see them: exported
//     functions and methods;
//   - functions that never return: the one fact a silent package may
//     have. cfgs.NoReturnOfDecls computes them from the declarations'
//     types, or says it cannot (a callee behind a local variable), and
//     then the package is not silent.
//
// cmd/retrylint's TestSilenceIsSound proves the rules on the test data and
// the standard library: every package Decide calls silent, analyzed all
// the same, exports no fact but its NoReturn.
package silence

import (
	"cmp"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Words are the configuration's names the gate's vocabulary holds.
type Words struct {
	CarrierMethod string
	DLQName       *regexp.Regexp
	DLQSubject    *regexp.Regexp
	// Acks are the profiles' ack method names; Messages the import paths
	// of their message types.
	Acks, Messages map[string]bool
	// DLQFuncs: functions are configured as DLQ writers (then no package
	// is silent).
	DLQFuncs bool
}

// WordsOf collects the words of a configuration and its profiles.
func WordsOf(carrier string, dlqName, dlqSubject *regexp.Regexp, dlqFuncs bool, profiles []*profile.Profile) Words {
	w := Words{CarrierMethod: carrier, DLQName: dlqName, DLQSubject: dlqSubject, DLQFuncs: dlqFuncs,
		Acks: make(map[string]bool), Messages: make(map[string]bool)}
	for _, p := range profiles {
		for name := range p.AckMethods {
			w.Acks[name] = true
		}
		for _, m := range p.Messages {
			w.Messages[m.Path] = true
		}
	}
	return w
}

// Inputs is what Decide reads of a package.
type Inputs struct {
	Files []*ast.File
	Pkg   *types.Package
	// Info holds the Defs of the package's declarations at least: a check
	// that skipped the function bodies is enough.
	Info *types.Info
	// NoReturn reports whether a function of a dependency that the
	// package sees has a cfgs.NoReturnFact; NoReturnName whether one so
	// named does.
	NoReturn     func(*types.Func) bool
	NoReturnName func(name string) bool
	// FlattensName reports whether a function of a dependency that the
	// package sees, so named, has the retryflatten check's FlattensFact.
	FlattensName func(name string) bool
	// ImportsInSight is set when a direct import is in sight of messages
	// (Verdict.InSight of its own).
	ImportsInSight bool
}

// Verdict is the decision on a package.
type Verdict struct {
	// Silent: the package can export no fact but NoReturn's.
	Silent bool
	// InSight: the package is, or imports, a package that declares or
	// names messages; its importers may see message types.
	InSight bool
	// Why names the first rule that keeps the package from being silent.
	Why string
	// NoReturn are the functions of a silent package that never return:
	// the driver gives them the cfgs.NoReturnFact the contract analyzer
	// would export.
	NoReturn []*types.Func
}

// Decide decides whether a package can export no fact (see the package
// documentation of contract, silent.go).
func Decide(w Words, in Inputs) Verdict {
	why, namesAck := w.vocabulary(in.Files)
	inSight := in.ImportsInSight || namesAck || w.Messages[in.Pkg.Path()]
	switch {
	case w.DLQFuncs:
		why = "dlq-funcs are configured"
	case inSight:
		why = "messages in sight"
	case why == "":
		why = w.silentDecls(in)
	}
	v := Verdict{InSight: inSight, Why: why}
	if why != "" {
		return v
	}
	noReturn, ok := cfgs.NoReturnOfDecls(in.Pkg, in.Info, in.Files, in.NoReturn, in.NoReturnName)
	if !ok {
		v.Why = "a function that may never return, through a call its declarations do not resolve"
		return v
	}
	for fn := range noReturn {
		v.NoReturn = append(v.NoReturn, fn)
	}
	slices.SortFunc(v.NoReturn, func(a, b *types.Func) int { return cmp.Compare(a.Pos(), b.Pos()) })
	v.Silent = true
	return v
}

// vocabulary returns the first of the gate's words the files hold (see
// Silence), or "", and whether they name an ack method.
func (w Words) vocabulary(files []*ast.File) (why string, namesAck bool) {
	seen := make(map[string]bool)
	found := func(rule string) {
		if why == "" {
			why = rule
		}
	}
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.Contains(c.Text, "retrylint:") {
					found("a //retrylint: directive")
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if seen[n.Name] {
					return true
				}
				seen[n.Name] = true
				switch {
				case w.Acks[n.Name]:
					namesAck = true
				case n.Name == w.CarrierMethod:
					found("the carrier method's name")
				case w.DLQName.MatchString(n.Name):
					found("a DLQ name")
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING && why == "" {
					if s, err := strconv.Unquote(n.Value); err == nil && w.DLQSubject.MatchString(s) {
						found("a DLQ subject")
					}
				}
			}
			return true
		})
	}
	return why, namesAck
}

// silentDecls returns the first rule of the facts inferred whatever the
// gate says that the package's declarations meet (see Silence), or "".
func (w Words) silentDecls(in Inputs) string {
	var decls []*ast.FuncDecl
	for _, f := range in.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				decls = append(decls, d)
			case *ast.GenDecl:
				if why := w.silentGenDecl(in.Info, d); why != "" {
					return why
				}
			}
		}
	}
	fields := errFuncFields(in.Pkg)
	if !slices.ContainsFunc(decls, func(d *ast.FuncDecl) bool { return takesErrorFunc(in.Info, d) }) {
		fields = nil // a field's FieldFact needs a function that stores one
	}
	flattens := mayFlatten(in, decls)
	for _, d := range decls {
		fn, ok := in.Info.Defs[d.Name].(*types.Func)
		if !ok || d.Body == nil || !visible(d) {
			continue
		}
		sig := fn.Signature()
		switch {
		case transient.MayClassify(sig):
			return "a function shaped like a classifier"
		case mayBeMiddleware(sig, d.Body):
			return "a function that may return middleware"
		case d.Name.IsExported() && returnsFieldCall(d.Body, fields):
			return "a function returning the call of a func field"
		}
		if flattens[d] {
			return "a function that may flatten an error parameter"
		}
		if resultMayHoldError(sig) && slices.ContainsFunc(errorParams(sig), func(p *types.Var) bool { return uses(d.Body, p.Name()) }) {
			return "a function that may wrap an error parameter"
		}
	}
	return ""
}

// silentGenDecl returns the rule a declaration of types or constants
// meets (see Silence), or "".
func (w Words) silentGenDecl(info *types.Info, d *ast.GenDecl) string {
	for _, spec := range d.Specs {
		switch spec := spec.(type) {
		case *ast.ValueSpec:
			for _, name := range spec.Names {
				if c, ok := info.Defs[name].(*types.Const); ok && c.Val().Kind() == constant.String && w.DLQSubject.MatchString(constant.StringVal(c.Val())) {
					return "a DLQ subject constant"
				}
			}
		}
	}
	return ""
}

// visible reports whether importers see facts on d's function: exported
// functions and every method (go/analysis/checker's exportedFrom).
func visible(d *ast.FuncDecl) bool { return d.Recv != nil || d.Name.IsExported() }

// uses reports whether body names an identifier called name.
func uses(body *ast.BlockStmt, name string) bool {
	return body != nil && name != "" && name != "_" && mentions(body, name)
}
