package dlq

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"unicode"
)

// sendVerbs are the words that make a call with a dead-letter destination
// argument a write; excludedFirstWords configure, build or describe.
var (
	sendVerbs = []string{"send", "publish", "post", "put", "write", "emit", "deliver", "dispatch",
		"forward", "enqueue", "push", "execute", "do"}
	excludedFirstWords = []string{"new", "parse", "build", "make", "with", "format", "marshal", "encode", "validate"}
	excludedPackages   = []string{"fmt", "errors", "log", "log/slog", "strings", "strconv", "net/url"}
)

// sendsToDLQArg reports whether a call sends to a dead-letter destination
// passed as an argument (d.SendEvent(ctx, ev, *h.deadLetterSink),
// send(ctx, dlqURL, body)): its name holds a send verb as a mixedCaps word
// and does not start with a building verb, it is not in a formatting or
// logging package, and an argument is a variable, field, or dereference of
// one named like a DLQ. fn is nil for a call of a func value.
func (m *Result) sendsToDLQArg(call *ast.CallExpr, fn *types.Func) bool {
	var name string
	if fn != nil {
		if fn.Pkg() != nil && slices.Contains(excludedPackages, fn.Pkg().Path()) {
			return false
		}
		name = fn.Name()
	} else {
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			name = f.Name
		case *ast.SelectorExpr:
			name = f.Sel.Name
		}
	}
	if !slices.ContainsFunc(call.Args, m.isDLQDestination) {
		return false // the common case, decided by map lookups
	}
	words := mixedCapsWords(name)
	return len(words) > 0 && !slices.Contains(excludedFirstWords, words[0]) &&
		slices.ContainsFunc(words, func(w string) bool { return slices.Contains(sendVerbs, w) })
}

// isDLQDestination reports whether e is a variable, field, or dereference
// of one, named like a DLQ.
func (m *Result) isDLQDestination(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return m.isDLQDestination(e.X)
	case *ast.Ident:
		_, isVar := m.info.Uses[e].(*types.Var)
		return isVar && m.isDLQName(e.Name)
	case *ast.SelectorExpr:
		if s := m.info.Selections[e]; s != nil {
			return s.Kind() == types.FieldVal && m.isDLQName(e.Sel.Name)
		}
		_, isVar := m.info.Uses[e.Sel].(*types.Var) // pkg.DeadLetterSubject
		return isVar && m.isDLQName(e.Sel.Name)
	}
	return false
}

// mixedCapsWords splits a Go name into its lower-cased words:
// "SendEvent" gives send, event; "executeRequest" execute, request;
// "sendToDLQ" send, to, dlq.
func mixedCapsWords(name string) []string {
	var words []string
	runes := []rune(name)
	start := 0
	for i := 1; i <= len(runes); i++ {
		if i < len(runes) && !boundary(runes, i) {
			continue
		}
		if w := strings.Trim(string(runes[start:i]), "_"); w != "" {
			words = append(words, strings.ToLower(w))
		}
		start = i
	}
	return words
}

// boundary reports whether a new word starts at runes[i]: an upper-case
// letter after a lower-case one or a digit, the last upper-case letter of
// an acronym followed by a lower-case one (HTTPServer: Server), or an
// underscore.
func boundary(runes []rune, i int) bool {
	r, prev := runes[i], runes[i-1]
	switch {
	case r == '_' || prev == '_':
		return true
	case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
		return true
	case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
		return true
	}
	return false
}
