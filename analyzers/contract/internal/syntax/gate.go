package syntax

import (
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Names are the patterns and names the gate tests the package's
// identifiers against.
type Names struct {
	CarrierMethod string
	DLQName       *regexp.Regexp // names of DLQ writers, receivers and subjects' variables
	DLQSubject    *regexp.Regexp // constant parts of DLQ subjects
	Predicate     *regexp.Regexp // names of retry predicates
	Ack, Publish  map[string]bool
}

// Dependencies is what the facts of the dependencies hold that can make
// something found in the package: how many of each kind.
type Dependencies struct {
	Producers, RetryableVars, Classifiers, Effects, DLQWriters int
	// CarrierImported is set when a direct import declares a carrier type.
	CarrierImported bool
	// DLQSubjectImported reports whether a direct import declares a
	// string constant that matches the DLQ subject pattern (its
	// DLQSubjectConsts); asked only when nothing else decides.
	DLQSubjectImported func() bool
}

// Gate says which inferences can find anything in the package, from its
// vocabulary, the facts of its dependencies and its imports. Most
// packages of a program (the standard library, most dependencies) have no
// message, no retry carrier and no dead-letter queue in sight: for them
// the model skips its inferences, which is most of its cost.
type Gate struct {
	// DLQNames are the identifiers of the package that match the DLQ name
	// pattern, each matched once.
	DLQNames map[string]bool
	// MayRetry: an error can hold a retry carrier only where the carrier
	// method is named, a dependency has a producer, a retryable error value
	// or a classifier, or a direct import declares a carrier type. (A
	// carrier type reached only through a field of a type of an indirect
	// import, in a program with no producer at all, is not seen.)
	MayRetry bool
	// MaySettle: an ack method is named, or a dependency has effects.
	MaySettle bool
	// MayWriteDLQ: a DLQ name, a dependency's DLQ writer, a configured or
	// marked writer, or a publish with a DLQ subject constant in sight.
	MayWriteDLQ bool
	// MayClassify: MayRetry, or a name matches the predicate pattern.
	MayClassify bool
}

// Any reports whether some inference can find anything.
func (g Gate) Any() bool { return g.MayRetry || g.MaySettle || g.MayWriteDLQ || g.MayClassify }

// NewGate decides the gate of the package idx indexes; configured is set
// when dlq-funcs names functions or a function of the package is marked
// //retrylint:dlq.
func NewGate(idx *Index, n Names, deps Dependencies, configured bool) Gate {
	g := Gate{DLQNames: make(map[string]bool)}
	var carrierMethod, predicate, ack, publish bool
	for name := range idx.Names {
		if n.DLQName.MatchString(name) {
			g.DLQNames[name] = true
		}
		carrierMethod = carrierMethod || name == n.CarrierMethod
		predicate = predicate || n.Predicate.MatchString(name)
		ack = ack || n.Ack[name]
		publish = publish || n.Publish[name]
	}
	g.MayRetry = carrierMethod || deps.Producers > 0 || deps.RetryableVars > 0 || deps.Classifiers > 0 || deps.CarrierImported
	g.MaySettle = ack || deps.Effects > 0
	g.MayWriteDLQ = len(g.DLQNames) > 0 || deps.DLQWriters > 0 || configured ||
		publish && (dlqLiteral(n.DLQSubject, idx) || deps.DLQSubjectImported != nil && deps.DLQSubjectImported())
	g.MayClassify = g.MayRetry || predicate
	return g
}

// dlqLiteral reports whether a string literal of the package matches the
// DLQ subject pattern: a publish can name a DLQ subject only then, or
// with a constant an import declares (DLQSubjectConsts). (A subject whose
// DLQ part only appears once constants are concatenated is not seen.) It
// runs only in packages that name a publish call.
func dlqLiteral(subject *regexp.Regexp, idx *Index) bool {
	seen := make(map[string]bool)
	for _, lit := range idx.Strings {
		if s, err := unquote(lit.Value); err == nil && !seen[s] {
			seen[s] = true
			if subject.MatchString(s) {
				return true
			}
		}
	}
	return false
}

// unquote is strconv.Unquote without its copy for the literals that
// need none, most of a package's: valid UTF-8, no escape in a quoted
// literal, no carriage return in a raw one.
func unquote(lit string) (string, error) {
	n := len(lit)
	if n < 2 || lit[n-1] != lit[0] || !utf8.ValidString(lit) {
		return strconv.Unquote(lit)
	}
	body := lit[1 : n-1]
	if lit[0] == '"' && !strings.ContainsAny(body, "\\\"\n") || lit[0] == '`' && !strings.ContainsAny(body, "`\r") {
		return body, nil
	}
	return strconv.Unquote(lit)
}

// DLQSubjectConsts returns the names of the package-level string
// constants of the package idx indexes that match the DLQ subject
// pattern, in source order: what its importers' gates ask of it.
func DLQSubjectConsts(idx *Index, info *types.Info, subject *regexp.Regexp) []string {
	var out []string
	for _, f := range idx.Flow {
		spec, ok := f.Node.(*ast.ValueSpec)
		if !ok {
			continue
		}
		if _, pkgLevel := f.Container.(*ast.File); !pkgLevel {
			continue
		}
		for _, name := range spec.Names {
			if c, ok := info.Defs[name].(*types.Const); ok && c.Val().Kind() == constant.String && subject.MatchString(constant.StringVal(c.Val())) {
				out = append(out, c.Name())
			}
		}
	}
	return out
}
