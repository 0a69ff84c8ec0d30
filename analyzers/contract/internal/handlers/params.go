package handlers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// inferHandlerParams finds the package's functions that call a func-typed
// parameter and Ack a message where its error is nil.
//
// A parameter counts when the function calls it, or stores it in a struct
// field (a composite literal or an assignment) that a method of the
// package calls that way: the bus that keeps its handler in a field.
func (m *Result) inferHandlerParams(decls []*ast.FuncDecl) error {
	m.handlerParams = make(map[*types.Func]*handlerParams)
	m.indexRouteLookups()
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
			ack := m.acksOnNil(d.Body, handlerErr{isCall: func(call *ast.CallExpr) bool { return m.callsVar(call, p) }})
			payload := func() []int { return m.payloadArgs(d.Body, p) }
			if !ack.IsValid() {
				var field *types.Var
				if ack, field = storedInHandlerField(m.info, d.Body, p, fields); field != nil {
					payload = func() []int { return m.fieldPayload(field) }
				}
			}
			if !ack.IsValid() {
				ack = m.storedInRoute(d.Body, p, fields)
			}
			if ack.IsValid() {
				hp := m.handlerParams[fn]
				if hp == nil {
					hp = &handlerParams{ack: ack, payload: payload(), onErr: m.onErrorAt(ack)}
					m.handlerParams[fn] = hp
				}
				hp.params = append(hp.params, i)
			}
		}
	}
	m.inferHandOns(decls)
	return nil
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

// fieldPayload returns the indexes of the arguments that are a message's
// payload in the package's calls of a handler field (p.handle(ctx,
// msg.Data(), meta)): the constructor that stores its parameter there
// passes the handler the payload.
func (m *Result) fieldPayload(field *types.Var) []int {
	var out []int
	for _, d := range m.decls {
		if d.Body == nil {
			continue
		}
		for _, i := range m.payloadArgs(d.Body, field) {
			if !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	slices.Sort(out)
	return out
}

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
	inDecl := func(s syntax.Site) *ast.FuncDecl {
		if d := m.syn.DeclOf[s.Body]; d != nil && s.Node.Pos() >= d.Body.Pos() {
			return d
		}
		return nil // outside a declaration's body
	}
	for _, s := range m.syn.Sites {
		switch n := s.Node.(type) {
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				continue
			}
			d := inDecl(s)
			if d == nil {
				continue
			}
			if fn, _ := m.info.Defs[d.Name].(*types.Func); fn != nil {
				if f := m.calledField(n.Results[len(n.Results)-1]); f != nil && !slices.Contains(wrappers[f], fn) {
					wrappers[f] = append(wrappers[f], fn)
				}
			}
		case *ast.CallExpr:
			if f := m.calledField(n); f != nil {
				d := inDecl(s)
				if d == nil {
					continue
				}
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
			if m.callsVar(c, field) || m.calledRoute(c) == field {
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
			if ack := m.acksOnNil(d.Body, handlerErr{isCall: isCall}); ack.IsValid() {
				out[field] = ack
				break
			}
		}
	}
	return out
}

// calledField returns the func-typed field returning an error that e
// calls (x.f(...)), or the route field it calls a handler of, or nil.
func (m *Result) calledField(e ast.Expr) *types.Var {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		// One lookup of the selection for the two cases of a selector:
		// routeOf would make the same, first.
		if s := m.info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && ReturnsError(s.Type()) {
			if f := m.routeOf(sel.X, 1); f != nil {
				return f // rt.handler(ctx, m), rt an entry of the route
			}
			v, _ := s.Obj().(*types.Var)
			return v // x.f(ctx, m)
		}
	} else if f := m.calledRoute(call); f != nil {
		return f // r.routes[subj](ctx, m), or h(ctx, m) after h := r.routes[subj]
	}
	if len(m.returnsField) > 0 {
		if fn := gotypes.StaticCallee(m.info, call); fn != nil && m.returnsField[fn.Origin()] != nil {
			return m.returnsField[fn.Origin()] // w.Run(ctx, p), Run of another package returning w.run(ctx, p) (split.go)
		}
	}
	return nil
}
