package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
	"golang.org/x/tools/go/analysis"
)

// Decode describes a call that decodes a message's payload.
type Decode struct {
	Call *ast.CallExpr
	// Name is the callee as written: json.Unmarshal, dec.Decode.
	Name string
	// ErrIndex is the index of the error result among the call's results.
	ErrIndex int
	// Msgs are the messages whose payload it decodes.
	Msgs []*types.Var
}

// ForeignHandler is a function of another package passed here to a bus
// that Acks when it returns nil. What it would drop, its package's facts
// say: each check's own (analyzers/internal/foreign).
type ForeignHandler struct {
	Fn     *types.Func
	Call   *ast.CallExpr // the registration
	Caller string        // the bus as written: bus.Subscribe
	Ack    token.Pos     // the bus's Ack, when known
}

// Related returns the related locations every report on the handler
// carries, after those of the finding itself: the bus's Ack when known.
// (The report stands at the registration: it is not repeated.)
func (h ForeignHandler) Related(first ...analysis.RelatedInformation) []analysis.RelatedInformation {
	out := first
	if h.Ack.IsValid() {
		out = append(out, analysis.RelatedInformation{Pos: h.Ack, Message: h.Caller + " Acks the message here"})
	}
	return out
}

// ForeignHandlers returns the handlers of other packages registered here.
func (m *Result) ForeignHandlers() []ForeignHandler { return m.foreign }

// Registration is what a HandlerFact says of a function of another
// package: the handler parameters it Acks for on nil, where the Ack is
// (relative to its declaration, or in File), and the payload parameters.
type Registration struct {
	Params    []int
	Line, Col int
	File      string
	Payload   []int
	// OnError is what the function does with the handler's error: a Nak,
	// NakWithDelay or Term settlement, or "" (onerror.go).
	OnError profile.Settlement
	// AckFn, when set, is the function of a third package holding the Ack
	// (Line and Col are relative to its declaration): a runner that Acks
	// where the field the function stores its handler in returns nil
	// (split.go).
	AckFn *types.Func
}

// Imported is what the facts of the dependencies say about handlers.
type Imported struct {
	Handlers   map[*types.Func]Registration // HandlerFact
	Middleware map[*types.Func][]int        // MiddlewareFact
	Factories  map[*types.Func]bool         // MiddlewareFact, Factory
	// FieldReturns are the entry methods that return the result of
	// calling a field of their receiver, Type.field (FieldFact, split.go).
	FieldReturns map[*types.Func]string
	fieldStores  map[*types.Func]*FieldFact // FieldFact.Stores
	fieldAcks    map[string]fieldAck        // FieldFact.Acks, by field
}

// Shapes are the handler types a package sees through its dependencies'
// facts: each a handler parameter's signature (shapes.go).
type Shapes []*types.Signature

// Inputs are what Build reads.
type Inputs struct {
	Fset   *token.FileSet
	Info   *types.Info
	Pkg    *types.Package
	Decode *regexp.Regexp // names of payload decoders
	// DecodeFuncs are the configured payload decoders (decode-funcs).
	DecodeFuncs dlq.FuncList
	MaySettle   bool
	MayHandle   bool // some function could be a handler registered elsewhere
	MayRetry    bool // an error of the package may hold a retry carrier
	Infer       bool // infer the handler parameters (MaySettle, or a handler directive)
	Imported    Imported
	Syn         *syntax.Index
	Msgs        *messages.Table
	DLQ         *dlq.Result
	Set         *settle.Result
	Defs        func() *defs.Index
	ReturnsOf   func(body *ast.BlockStmt) []*ast.ReturnStmt
	DeclByFn    map[*types.Func]*ast.FuncDecl
	Decls       []*ast.FuncDecl
}

// Result is the package's handlers. It is complete when Build returns and
// read-only afterwards.
type Result struct {
	fset      *token.FileSet
	info      *types.Info
	pkg       *types.Package
	decode    *regexp.Regexp
	decoders  dlq.FuncList // configured decoders
	maySettle bool
	mayHandle bool
	mayRetry  bool
	imported  Imported
	syn       *syntax.Index
	msgs      *messages.Table
	dlq       *dlq.Result
	set       *settle.Result
	defs      func() *defs.Index
	returnsOf func(body *ast.BlockStmt) []*ast.ReturnStmt
	declByFn  map[*types.Func]*ast.FuncDecl
	decls     []*ast.FuncDecl

	handlerParams    map[*types.Func]*handlerParams   // functions that Ack when a func-typed parameter returns nil
	handlers         map[*ast.BlockStmt]*Handler      // bodies passed to such a parameter
	payloadParams    map[*types.Var]bool              // handler parameters that receive a message's payload
	handlerFieldAcks map[*types.Var]token.Pos         // func-typed fields called and Acked on nil, with the Ack
	middleware       map[*types.Func][]int            // functions that wrap their handler parameters
	factories        map[*types.Func]bool             // functions that return middleware (middleware.go)
	foreign          []ForeignHandler                 // handlers of other packages registered here
	varReturns       map[*ast.ReturnStmt]retScope     // returns of a variable or naked, with their function
	routeVars        map[*types.Var]*types.Var        // locals defined by a lookup in a route field, with the field
	routeFuncs       map[*types.Func]*types.Var       // functions that return a handler looked up in a route field (routes.go)
	readsLookups     bool                             // set by routeOf when its answer read routeVars or routeFuncs (indexRouteVars)
	pending          []Pending                        // registrations through an interface with no implementation in sight
	shapes           Shapes                           // handler types the package sees (shapes.go)
	messageless      map[*ast.FuncDecl]*ast.FuncDecl  // candidates without a message, by their declaration (shapes.go)
	onErr            map[token.Pos]profile.Settlement // what the caller whose Ack on nil is at a position does on error (onerror.go)
	fieldFacts       map[*types.Func]*FieldFact       // what the package's functions say of fields in a registry split from its runner (split.go)
	returnsField     map[*types.Func]*types.Var       // imported entry methods returning a field's call's result, with the field
	fieldKeys        map[*types.Var]string            // those fields, as path.Type.field
}

// HandlerParams returns, for each function of the package with handler
// parameters, the parameters, its Ack and the payload arguments.
func (m *Result) HandlerParams(fn *types.Func) (params []int, ack token.Pos, payload []int) {
	hp := m.handlerParams[fn]
	if hp == nil {
		return nil, token.NoPos, nil
	}
	return hp.params, hp.ack, hp.payload
}

// HandlerOnError returns what a function of the package with handler
// parameters does with their error (Registration.OnError).
func (m *Result) HandlerOnError(fn *types.Func) profile.Settlement {
	if hp := m.handlerParams[fn]; hp != nil {
		return hp.onErr
	}
	return ""
}

// WithHandlerParams returns the functions of the package with handler
// parameters.
func (m *Result) WithHandlerParams() []*types.Func {
	var out []*types.Func
	for fn := range m.handlerParams {
		out = append(out, fn)
	}
	return out
}

// Middleware returns the handler parameters each function of the package
// wraps.
func (m *Result) Middleware() map[*types.Func][]int { return m.middleware }

// Factories returns the functions of the package that return middleware
// (Timeout(d) returning a func(h Handler) Handler that wraps h).
func (m *Result) Factories() map[*types.Func]bool { return m.factories }

// Handlers returns the handler bodies of the package.
func (m *Result) Handlers() map[*ast.BlockStmt]*Handler { return m.handlers }

// Pending is a function of the package passed to a func-typed error
// parameter of an interface method that no visible implementation makes a
// handler parameter.
type Pending struct {
	Call   *ast.CallExpr   // the registration
	Decl   *ast.FuncDecl   // the function declaration holding it
	Method *types.Func     // the interface method
	Param  int             // the parameter the handler is passed to
	Body   *ast.BlockStmt  // the handler's body
	Caller string          // the interface method as called: s.bus.Subscribe
	Iface  *types.TypeName // the named interface
}

// retScope is the function (its body and type) a return statement that
// may return a nil variable belongs to (nilret.go).
type retScope struct {
	body *ast.BlockStmt
	typ  *ast.FuncType
}

// handlerParams is what the package's functions do with their handler
// parameters.
type handlerParams struct {
	params  []int
	ack     token.Pos
	payload []int // arguments of the handler call that are the message's payload
	onErr   profile.Settlement
}

// Handler describes a function body that is a handler: its caller Acks
// the message when it returns nil.
type Handler struct {
	// Caller is the function it is passed to, as written (bus.Subscribe).
	Caller string
	// Ack is the caller's Ack, when known.
	Ack token.Pos
	// Payload are the handler's parameters its caller passes the
	// message's payload (h(ctx, msg.Data())).
	Payload []*types.Var
	// Msgs are the handler's message parameters: the message its nil
	// result Acks, when it receives it.
	Msgs []*types.Var
	// Through is the return of another handler that returns this one's
	// result as it is (return f(ctx, msg)), when that makes it a handler;
	// ThroughName is the callee as written there.
	Through     *ast.ReturnStmt
	ThroughName string
	// Bool is set for a handler that returns a bool its caller Acks on
	// true: `return true` is its Ack (boolh.go).
	Bool bool
	// OnError is what the caller does when the handler returns a non-nil
	// error: profile.RetryNow, RetryLater or Terminate, or "" when it
	// settles nothing the broker sees (it logs the error).
	OnError profile.Settlement
}

// Returned is what the handler returns for its caller to Ack: "nil", or
// "true" for a bool handler.
func (h *Handler) Returned() string {
	if h.Bool {
		return "true"
	}
	return "nil"
}

// Related returns the related locations of a report on a return of the
// handler: the caller's Ack, when known, and the handler's return that
// passes this one's result on.
func (h *Handler) Related() []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	if h.Ack.IsValid() {
		out = append(out, analysis.RelatedInformation{Pos: h.Ack, Message: h.Caller + " Acks the message here"})
	}
	if h.Through != nil {
		out = append(out, analysis.RelatedInformation{Pos: h.Through.Pos(), End: h.Through.End(),
			Message: "the handler returns " + h.ThroughName + "'s result here"})
	}
	return out
}

// HandlerBodies returns the handler bodies of the package, in source
// order.
func (m *Result) HandlerBodies() []*ast.BlockStmt {
	var out []*ast.BlockStmt
	for b := range m.handlers {
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b *ast.BlockStmt) int { return goast.ComparePos(m.fset, a.Pos(), b.Pos()) })
	return out
}

// HandlerOf returns what makes body (a function declaration's or
// literal's) a handler, or nil.
func (m *Result) HandlerOf(body *ast.BlockStmt) *Handler { return m.handlers[body] }

// hasErrorFuncParam reports whether some parameter of fn is a function
// that returns an error.
func hasErrorFuncParam(fn *types.Func) bool {
	params := fn.Type().(*types.Signature).Params()
	for i := range params.Len() {
		if ReturnsError(params.At(i).Type()) {
			return true
		}
	}
	return false
}

// HandlerDirective, in the doc comment of a function, names a func-typed
// parameter whose nil result the function turns into an Ack, for a bus the
// inference cannot follow: //retrylint:handler h.
const HandlerDirective = "//retrylint:handler"

func HasDirective(d *ast.FuncDecl) bool {
	if d.Doc == nil {
		return false
	}
	for _, c := range d.Doc.List {
		if strings.HasPrefix(c.Text, HandlerDirective) {
			return true
		}
	}
	return false
}

// storedInHandlerField returns the Ack of the handler field that body
// stores p in (&Consumer{handler: p}, c.handler = p), and the field, or
// token.NoPos.
func storedInHandlerField(info *types.Info, body *ast.BlockStmt, p *types.Var, fields map[*types.Var]token.Pos) (token.Pos, *types.Var) {
	ack := token.NoPos
	var field *types.Var
	isP := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == p
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if key, ok := n.Key.(*ast.Ident); ok && isP(n.Value) {
				if f, ok := info.Uses[key].(*types.Var); ok && fields[f].IsValid() {
					ack, field = fields[f], f
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || i >= len(n.Rhs) || !isP(n.Rhs[i]) {
					continue
				}
				if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && fields[s.Obj().(*types.Var)].IsValid() {
					ack, field = fields[s.Obj().(*types.Var)], s.Obj().(*types.Var)
				}
			}
		}
		return !ack.IsValid()
	})
	return ack, field
}

// ReturnsError reports whether t is a func type whose last result is an
// error.
func ReturnsError(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	return gotypes.IsError(sig.Results().At(sig.Results().Len() - 1).Type())
}

// declOf returns the declaration of a function of the package, or nil.
func (m *Result) declOf(fn *types.Func) *ast.FuncDecl { return m.declByFn[fn] }

// leavesBlock reports whether a block's last statement leaves the
// statement list that holds the block's if: a return, a continue, break
// or goto, or a panic.
func leavesBlock(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		return ok && id.Name == "panic"
	}
	return false
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
