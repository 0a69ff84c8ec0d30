// Package handlers is the contract model's handlers: functions whose
// nil result their caller turns into an Ack. It finds the package's
// functions that call a func-typed parameter and Ack on nil (and the
// struct fields that hold one), middleware, the bodies passed to them
// (literals, functions, method values, routes in maps and slices), the
// handlers of other packages registered here, and payload decodes. It
// reads the syntax, defs, messages, dlq and settle stages, the facts of
// the dependencies and the type information.
package handlers

import (
	"fmt"
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
)

// Handlers (CONTRACT.md version 2): a function whose error result its
// caller turns into a settlement. A function that calls one of its
// func-typed parameters and Acks a message where that call's error is nil
// marks the parameter (HandlerFact, any package); a function or method
// value, or a function literal, passed there is a handler, and in a
// handler `return nil` is an Ack of the message its caller holds.
//
// What is followed: the parameter called directly, or stored in a struct
// field that a function of the package calls; its error tested with
// err != nil (the Ack in the else branch, or after the if when the if's
// body leaves the list: return, continue, break, panic) or err == nil (the
// Ack in the body); handler values passed directly, held in variables,
// wrapped by middleware (MiddlewareFact), or kept in maps and slices of
// routes, in the package that declares them; //retrylint:handler for the
// rest. Not yet: registration in another package than the handler's, and
// buses that decide the settlement through a table (this project's
// runtime/bus).

// Registration is what a HandlerFact says of a function of another
// package: the handler parameters it Acks for on nil, where the Ack is
// (relative to its declaration, or in File), and the payload parameters.
type Registration struct {
	Params    []int
	Line, Col int
	File      string
	Payload   []int
}

// Candidate is a return of a candidate handler of another package that
// drops a retryable error (HandlerCandidateFact), placed like Effect's.
type Candidate struct {
	Line, Col int
	Err       string
	Producer  string
}

// Imported is what the facts of the dependencies say about handlers.
type Imported struct {
	Handlers   map[*types.Func]Registration // HandlerFact
	Middleware map[*types.Func][]int        // MiddlewareFact
	Candidates map[*types.Func][]Candidate  // HandlerCandidateFact
}

// Inputs are what Build reads.
type Inputs struct {
	Fset      *token.FileSet
	Info      *types.Info
	Pkg       *types.Package
	Decode    *regexp.Regexp // names of payload decoders
	MaySettle bool
	MayHandle bool // some function could be a handler registered elsewhere
	Infer     bool // infer the handler parameters (MaySettle, or a handler directive)
	Imported  Imported
	Syn       *syntax.Index
	Msgs      *messages.Table
	DLQ       *dlq.Result
	Set       *settle.Result
	Defs      func() *defs.Index
	ReturnsOf func(body *ast.BlockStmt) []*ast.ReturnStmt
	DeclByFn  map[*types.Func]*ast.FuncDecl
	Decls     []*ast.FuncDecl
}

// Result is the package's handlers. It is complete when Build returns and
// read-only afterwards.
type Result struct {
	fset      *token.FileSet
	info      *types.Info
	pkg       *types.Package
	decode    *regexp.Regexp
	maySettle bool
	mayHandle bool
	imported  Imported
	syn       *syntax.Index
	msgs      *messages.Table
	dlq       *dlq.Result
	set       *settle.Result
	defs      func() *defs.Index
	returnsOf func(body *ast.BlockStmt) []*ast.ReturnStmt
	declByFn  map[*types.Func]*ast.FuncDecl
	decls     []*ast.FuncDecl

	handlerParams    map[*types.Func]*handlerParams // functions that Ack when a func-typed parameter returns nil
	handlers         map[*ast.BlockStmt]*Handler    // bodies passed to such a parameter
	payloadParams    map[*types.Var]bool            // handler parameters that receive a message's payload
	handlerFieldAcks map[*types.Var]token.Pos       // func-typed fields called and Acked on nil, with the Ack
	middleware       map[*types.Func][]int          // functions that wrap their handler parameters
	foreign          []ForeignHandler               // handlers of other packages registered here
}

// Build finds the package's handler parameters (when in.Infer; an
// invalid //retrylint:handler directive is an error), middleware and
// handlers.
func Build(in Inputs) (*Result, error) {
	m := &Result{fset: in.Fset, info: in.Info, pkg: in.Pkg, decode: in.Decode, maySettle: in.MaySettle,
		mayHandle: in.MayHandle, imported: in.Imported, syn: in.Syn, msgs: in.Msgs, dlq: in.DLQ, set: in.Set,
		defs: in.Defs, returnsOf: in.ReturnsOf, declByFn: in.DeclByFn, decls: in.Decls}
	if in.Infer {
		if err := m.inferHandlerParams(in.Decls); err != nil {
			return nil, err
		}
	}
	m.inferMiddleware(in.Decls)
	m.findHandlers(in.Decls)
	return m, nil
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

// Handlers returns the handler bodies of the package.
func (m *Result) Handlers() map[*ast.BlockStmt]*Handler { return m.handlers }

// handlerParams is what the package's functions do with their handler
// parameters.
type handlerParams struct {
	params  []int
	ack     token.Pos
	payload []int // arguments of the handler call that are the message's payload
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
}

// HandlerBodies returns the handler bodies of the package, in source
// order.
func (m *Result) HandlerBodies() []*ast.BlockStmt {
	var out []*ast.BlockStmt
	for b := range m.handlers {
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b *ast.BlockStmt) int { return int(a.Pos() - b.Pos()) })
	return out
}

// HandlerOf returns what makes body (a function declaration's or
// literal's) a handler, or nil.
func (m *Result) HandlerOf(body *ast.BlockStmt) *Handler { return m.handlers[body] }

// inferHandlerParams finds the package's functions that call a func-typed
// parameter and Ack a message where its error is nil.
//
// A parameter counts when the function calls it, or stores it in a struct
// field (a composite literal or an assignment) that a method of the
// package calls that way: the bus that keeps its handler in a field.
func (m *Result) inferHandlerParams(decls []*ast.FuncDecl) error {
	m.handlerParams = make(map[*types.Func]*handlerParams)
	fields := m.handlerFields(decls)
	m.handlerFieldAcks = fields
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil {
			continue
		}
		i, err := m.handlerDirective(d)
		if err != nil {
			return err
		}
		if i >= 0 {
			m.handlerParams[fn] = &handlerParams{params: []int{i}, ack: d.Name.Pos()}
			continue
		}
		if !hasErrorFuncParam(fn) {
			continue // the common case, decided without looking up the parameters
		}
		params := messages.ParamVars(m.info, d.Type)
		for i, p := range params {
			if p == nil || !ReturnsError(p.Type()) {
				continue
			}
			ack := m.acksOnNil(d.Body, func(call *ast.CallExpr) bool { return m.callsVar(call, p) })
			if !ack.IsValid() {
				ack = storedInHandlerField(m.info, d.Body, p, fields)
			}
			if ack.IsValid() {
				hp := m.handlerParams[fn]
				if hp == nil {
					hp = &handlerParams{ack: ack, payload: m.payloadArgs(d.Body, p)}
					m.handlerParams[fn] = hp
				}
				hp.params = append(hp.params, i)
			}
		}
	}
	return nil
}

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

// payloadArgs returns the indexes of the arguments of calls of p in body
// that are a message's payload (p(ctx, msg.Data())).
func (m *Result) payloadArgs(body *ast.BlockStmt, p *types.Var) []int {
	var out []int
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !m.callsVar(call, p) {
			return true
		}
		for i, a := range call.Args {
			if len(m.payloadMsgs(a, nil, 0)) > 0 && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
		return true
	})
	return out
}

// HandlerDirective, in the doc comment of a function, names a func-typed
// parameter whose nil result the function turns into an Ack, for a bus the
// inference cannot follow: //retrylint:handler h.
const HandlerDirective = "//retrylint:handler"

// handlerDirective returns the parameter a //retrylint:handler directive
// of d names, and an error when the directive names no parameter of d of
// type func(...) error.
func (m *Result) handlerDirective(d *ast.FuncDecl) (int, error) {
	if d.Doc == nil {
		return -1, nil
	}
	for _, c := range d.Doc.List {
		rest, ok := strings.CutPrefix(c.Text, HandlerDirective)
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		name := strings.TrimSpace(rest)
		for i, p := range messages.ParamVars(m.info, d.Type) {
			if p != nil && p.Name() == name && ReturnsError(p.Type()) {
				return i, nil
			}
		}
		return -1, fmt.Errorf("%s: %s %q names no parameter of %s of type func(...) error",
			m.fset.Position(c.Pos()), HandlerDirective, name, d.Name.Name)
	}
	return -1, nil
}

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

// callsVar reports whether call calls the variable v (a parameter or a
// struct field).
func (m *Result) callsVar(call *ast.CallExpr, v *types.Var) bool {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return m.info.Uses[f] == v
	case *ast.SelectorExpr:
		s := m.info.Selections[f]
		return s != nil && s.Kind() == types.FieldVal && s.Obj() == v
	}
	return false
}

// handlerFields returns the func-typed struct fields that a function of
// the package calls (directly, or through a wrapper that returns the
// field's result: return r.handler(ctx, m)) and Acks where the call's
// error is nil, with the Ack.
func (m *Result) handlerFields(decls []*ast.FuncDecl) map[*types.Var]token.Pos {
	out := make(map[*types.Var]token.Pos)
	// One pass over the calls and returns: which decls call which
	// handler-shaped fields, and which functions wrap a field.
	calledFields := make(map[*ast.FuncDecl]map[*types.Var]bool)
	wrappers := make(map[*types.Var][]*types.Func)
	var fields []*types.Var
	for _, s := range m.syn.Sites {
		d := m.syn.DeclOf[s.Body]
		if d == nil || s.Node.Pos() < d.Body.Pos() {
			continue // outside a declaration's body
		}
		switch n := s.Node.(type) {
		case *ast.ReturnStmt:
			if fn, _ := m.info.Defs[d.Name].(*types.Func); fn != nil && len(n.Results) > 0 {
				if f := m.calledField(n.Results[len(n.Results)-1]); f != nil && !slices.Contains(wrappers[f], fn) {
					wrappers[f] = append(wrappers[f], fn)
				}
			}
		case *ast.CallExpr:
			if f := m.calledField(n); f != nil {
				if calledFields[d] == nil {
					calledFields[d] = make(map[*types.Var]bool)
				}
				if !calledFields[d][f] && !slices.Contains(fields, f) {
					fields = append(fields, f)
				}
				calledFields[d][f] = true
			}
		}
	}
	// A second pass, where there are wrappers: which decls call them.
	calledFuncs := make(map[*ast.FuncDecl]map[*types.Func]bool)
	wrapperNames := make(map[string]bool)
	for _, ws := range wrappers {
		for _, w := range ws {
			wrapperNames[w.Name()] = true
		}
	}
	for _, s := range m.syn.Sites {
		if len(wrapperNames) == 0 {
			break
		}
		call, ok := s.Node.(*ast.CallExpr)
		if !ok {
			continue
		}
		if name, _ := goast.CalledName(call.Fun); !wrapperNames[name] {
			continue
		}
		d := m.syn.DeclOf[s.Body]
		if d == nil || s.Node.Pos() < d.Body.Pos() || m.calledField(call) != nil {
			continue
		}
		if callee := gotypes.StaticCallee(m.info, call); callee != nil {
			if calledFuncs[d] == nil {
				calledFuncs[d] = make(map[*types.Func]bool)
			}
			calledFuncs[d][callee] = true
		}
	}
	for _, field := range fields {
		isCall := func(c *ast.CallExpr) bool {
			if m.callsVar(c, field) {
				return true
			}
			fn := gotypes.StaticCallee(m.info, c)
			return fn != nil && slices.Contains(wrappers[field], fn)
		}
		for _, d := range decls {
			uses := calledFields[d][field]
			for _, w := range wrappers[field] {
				uses = uses || calledFuncs[d][w]
			}
			if !uses {
				continue
			}
			if ack := m.acksOnNil(d.Body, isCall); ack.IsValid() {
				out[field] = ack
				break
			}
		}
	}
	return out
}

// calledField returns the func-typed field returning an error that e
// calls (x.f(...)), or nil.
func (m *Result) calledField(e ast.Expr) *types.Var {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := m.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || !ReturnsError(s.Type()) {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// storedInHandlerField returns the Ack of the handler field that body
// stores p in (&Consumer{handler: p}, c.handler = p), or token.NoPos.
func storedInHandlerField(info *types.Info, body *ast.BlockStmt, p *types.Var, fields map[*types.Var]token.Pos) token.Pos {
	ack := token.NoPos
	isP := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == p
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if key, ok := n.Key.(*ast.Ident); ok && isP(n.Value) {
				if f, ok := info.Uses[key].(*types.Var); ok && fields[f].IsValid() {
					ack = fields[f]
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || i >= len(n.Rhs) || !isP(n.Rhs[i]) {
					continue
				}
				if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && fields[s.Obj().(*types.Var)].IsValid() {
					ack = fields[s.Obj().(*types.Var)]
				}
			}
		}
		return !ack.IsValid()
	})
	return ack
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

// acksOnNil returns the position of an Ack in body that runs where a call
// for which isHandlerCall holds returned a nil error, or token.NoPos.
func (m *Result) acksOnNil(body *ast.BlockStmt, isHandlerCall func(*ast.CallExpr) bool) token.Pos {
	ack := token.NoPos
	var visitList func(list []ast.Stmt)
	visitList = func(list []ast.Stmt) {
		for i, s := range list {
			if ack.IsValid() {
				return
			}
			ifs, ok := s.(*ast.IfStmt)
			if !ok || !m.testsCallOf(ifs, isHandlerCall) {
				continue
			}
			bin := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
			switch {
			case bin.Op == token.EQL:
				ack = m.firstAck(ifs.Body)
			case ifs.Else != nil:
				ack = m.firstAck(ifs.Else)
			case leavesBlock(ifs.Body):
				ack = m.firstAck(&ast.BlockStmt{List: list[i+1:]})
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			visitList(n.List)
		case *ast.CaseClause:
			visitList(n.Body)
		case *ast.CommClause:
			visitList(n.Body)
		}
		return !ack.IsValid()
	})
	return ack
}

// testsCallOf reports whether an if statement tests, against nil, the
// error of a call of p: if err := p(...); err != nil, if p(...) != nil, or
// a variable whose one reaching definition is such a call.
func (m *Result) testsCallOf(s *ast.IfStmt, isHandlerCall func(*ast.CallExpr) bool) bool {
	bin, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok || (bin.Op != token.NEQ && bin.Op != token.EQL) {
		return false
	}
	x := bin.X
	if gotypes.IsNilExpr(m.info, x) {
		x = bin.Y
	} else if !gotypes.IsNilExpr(m.info, bin.Y) {
		return false
	}
	isCallOfP := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		return ok && isHandlerCall(call)
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		return isCallOfP(x)
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok {
			return false
		}
		defs := m.defs().Reaching(v, s.Cond.Pos())
		return len(defs) == 1 && defs[0].RHS != nil && isCallOfP(defs[0].RHS)
	}
	return false
}

// firstAck returns the first Ack (done settlement of an ack method) in n,
// outside function literals, or token.NoPos.
func (m *Result) firstAck(n ast.Node) token.Pos {
	pos := token.NoPos
	ast.Inspect(n, func(n ast.Node) bool {
		if pos.IsValid() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if ack, ok := m.msgs.AsAckCall(n); ok && ack.Settlement == profile.Done {
				pos = n.Pos()
			} else if site := m.set.CertainAckInside(n); site.IsValid() {
				pos = site
			}
		}
		return true
	})
	return pos
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

// handlerParamsOf returns fn's handler parameters and its Ack (any
// package).
func (m *Result) handlerParamsOf(fn *types.Func) (params []int, ack token.Pos, payload []int) {
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		if hp := m.handlerParams[fn]; hp != nil {
			return hp.params, hp.ack, hp.payload
		}
		return nil, token.NoPos, nil
	}
	if f, ok := m.imported.Handlers[fn]; ok {
		if f.File != "" {
			return f.Params, m.set.SiteInFile(fn, f.File, f.Line, f.Col), f.Payload
		}
		return f.Params, m.set.SiteIn(fn, f.Line, f.Col), f.Payload
	}
	return nil, token.NoPos, nil
}

// findHandlers marks the function bodies of the package passed to a
// handler parameter.
func (m *Result) findHandlers(decls []*ast.FuncDecl) {
	m.handlers = make(map[*ast.BlockStmt]*Handler)
	m.payloadParams = make(map[*types.Var]bool)
	if len(m.handlerParams) == 0 && len(m.imported.Handlers) == 0 {
		return
	}
	for _, s := range m.syn.Sites {
		if kv, ok := s.Node.(*ast.KeyValueExpr); ok {
			m.handlerInField(kv) // &Worker{handle: s.handleX}
			continue
		}
		call, ok := s.Node.(*ast.CallExpr)
		if !ok {
			continue
		}
		fn := gotypes.StaticCallee(m.info, call)
		if fn == nil {
			continue
		}
		params, ack, payload := m.handlerParamsOf(fn)
		for _, i := range params {
			if i < len(call.Args) {
				m.markHandler(call.Args[i], call, goast.CalleeText(call.Fun), ack, payload, 0)
			}
		}
	}
}

// markHandler marks the function a handler argument denotes, and, when
// the argument is a call of middleware (a function that returns a closure
// calling its handler parameter and returning its result), the handler
// the middleware wraps.
func (m *Result) markHandler(arg ast.Expr, at *ast.CallExpr, caller string, ack token.Pos, payload []int, depth int) {
	if depth > defs.MaxDepth {
		return
	}
	if call, ok := ast.Unparen(arg).(*ast.CallExpr); ok {
		if fn := gotypes.StaticCallee(m.info, call); fn != nil {
			for _, j := range m.middlewareParams(fn) {
				if j < len(call.Args) {
					m.markHandler(call.Args[j], at, caller, ack, payload, depth+1)
				}
			}
		}
		return
	}
	if values, ok := m.routeValues(arg); ok {
		for _, v := range values {
			m.markHandler(v, at, caller, ack, payload, depth+1)
		}
		return
	}
	m.foreignHandler(arg, at, caller, ack) // a function of another package
	body, ft := m.handlerBody(arg)
	if body == nil || m.handlers[body] != nil {
		return
	}
	h := &Handler{Caller: caller, Ack: ack}
	vars := messages.ParamVars(m.info, ft)
	for _, v := range vars {
		if v != nil && m.msgs.IsMessage(v.Type()) {
			h.Msgs = append(h.Msgs, v)
		}
	}
	for _, j := range payload {
		if j < len(vars) && vars[j] != nil {
			h.Payload = append(h.Payload, vars[j])
		}
	}
	m.handlers[body] = h
	for _, v := range h.Payload {
		m.payloadParams[v] = true
	}
}

// routeValues returns the function values a handler argument takes from a
// map or slice of routes: routes[subject], or the value of a range over
// routes, where routes is a local variable built from a composite literal
// or by stores into its elements.
func (m *Result) routeValues(arg ast.Expr) ([]ast.Expr, bool) {
	var container ast.Expr
	switch a := ast.Unparen(arg).(type) {
	case *ast.IndexExpr:
		if t := m.info.TypeOf(a.X); gotypes.IsValid(t) {
			switch t.Underlying().(type) {
			case *types.Map, *types.Slice:
				container = a.X
			}
		}
	case *ast.SelectorExpr:
		return m.routeFields(a)
	case *ast.Ident:
		v, ok := m.info.Uses[a].(*types.Var)
		if !ok {
			return nil, false
		}
		defs := m.defs().Reaching(v, a.Pos())
		if len(defs) != 1 {
			return nil, false
		}
		if rs, ok := defs[0].Container.(*ast.RangeStmt); ok && defs[0].RHS == nil && rs.Value != nil && m.info.Defs[identOf(rs.Value)] == v {
			container = rs.X
		}
	}
	id, ok := ast.Unparen(container).(*ast.Ident)
	if !ok {
		return nil, false
	}
	routes, ok := m.info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	var out []ast.Expr
	for _, a := range m.defs().Defs(routes) {
		lit, ok := ast.Unparen(a.RHS).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			out = append(out, elt)
		}
	}
	for _, s := range m.defs().Stores(routes) {
		if !s.ViaCall {
			out = append(out, s.RHS) // routes["orders.created"] = s.handleCreated
		}
	}
	return out, true
}

// routeFields returns the values a field of route structs may hold, for a
// selector r.Handler where r ranges over a table of struct literals:
//
//	routes := []Route{{Durable: "quotes", Handler: quotes.Handle}, ...}
//	for _, r := range routes { b.Dispatch(ctx, msg, r.Handler) }
func (m *Result) routeFields(sel *ast.SelectorExpr) ([]ast.Expr, bool) {
	s := m.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return nil, false
	}
	field := s.Obj()
	elems, ok := m.routeValues(sel.X)
	if !ok {
		return nil, false
	}
	var out []ast.Expr
	for _, e := range elems {
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X // &Route{...}
		}
		lit, ok := ast.Unparen(e).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for i, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok && m.info.Uses[key] == field {
					out = append(out, kv.Value)
				}
			} else if i == s.Index()[0] {
				out = append(out, elt)
			}
		}
	}
	return out, true
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// middlewareParams returns the handler parameters fn (any package) wraps.
func (m *Result) middlewareParams(fn *types.Func) []int {
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.middleware[fn]
	}
	return m.imported.Middleware[fn]
}

// inferMiddleware finds the package's functions that return a function
// literal (possibly converted) whose body returns the result of calling
// one of their func-typed parameters.
func (m *Result) inferMiddleware(decls []*ast.FuncDecl) {
	m.middleware = make(map[*types.Func][]int)
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil {
			continue
		}
		for i, p := range messages.ParamVars(m.info, d.Type) {
			if p != nil && ReturnsError(p.Type()) && m.returnsWrapper(d.Body, p) {
				m.middleware[fn] = append(m.middleware[fn], i)
			}
		}
	}
}

// returnsWrapper reports whether body returns a function literal that
// returns the result of a call of p.
func (m *Result) returnsWrapper(body *ast.BlockStmt, p *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || found || len(ret.Results) != 1 {
			return !found
		}
		e := ast.Unparen(ret.Results[0])
		if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 {
			if tv, ok := m.info.Types[conv.Fun]; ok && tv.IsType() {
				e = ast.Unparen(conv.Args[0]) // Handler(func(...) error { ... })
			}
		}
		lit, ok := e.(*ast.FuncLit)
		if !ok {
			return true
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
				if call, ok := ast.Unparen(r.Results[len(r.Results)-1]).(*ast.CallExpr); ok && m.callsVar(call, p) {
					found = true
				}
			}
			return !found
		})
		return false
	})
	return found
}

// handlerInField marks the handler a composite literal stores in a
// handler field of the package.
func (m *Result) handlerInField(kv *ast.KeyValueExpr) {
	key, ok := kv.Key.(*ast.Ident)
	if !ok {
		return
	}
	field, ok := m.info.Uses[key].(*types.Var)
	if !ok || !m.handlerFieldAcks[field].IsValid() {
		return
	}
	if body, _ := m.handlerBody(kv.Value); body != nil && m.handlers[body] == nil {
		m.handlers[body] = &Handler{Caller: "the " + field.Name() + " field's caller", Ack: m.handlerFieldAcks[field]}
	}
}

// handlerBody returns the body of the function a handler argument
// denotes: a function literal, or a function or method of the package
// (named, as a method value, or instantiated).
func (m *Result) handlerBody(arg ast.Expr) (*ast.BlockStmt, *ast.FuncType) {
	e := ast.Unparen(arg)
	if lit := defs.FuncLitOf(m.info, m.defs, e); lit != nil {
		return lit.Body, lit.Type // a literal, or a local variable bound to one
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = ast.Unparen(x.X)
	case *ast.IndexListExpr:
		e = ast.Unparen(x.X)
	}
	var obj types.Object
	switch x := e.(type) {
	case *ast.Ident:
		obj = m.info.Uses[x]
	case *ast.SelectorExpr:
		if s := m.info.Selections[x]; s != nil && s.Kind() == types.MethodVal {
			obj = s.Obj()
		} else {
			obj = m.info.Uses[x.Sel]
		}
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil, nil
	}
	if d := m.declOf(fn.Origin()); d != nil {
		return d.Body, d.Type
	}
	return nil, nil
}

// NilReturns returns the return statements of body (not of nested
// literals) whose error result is the literal nil.
func (m *Result) NilReturns(body *ast.BlockStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	for _, ret := range m.returnsOf(body) {
		if len(ret.Results) > 0 && gotypes.IsNilExpr(m.info, ret.Results[len(ret.Results)-1]) {
			out = append(out, ret)
		}
	}
	return out
}
