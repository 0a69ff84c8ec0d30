// Package handlers is the contract model's handlers: functions whose
// nil result their caller turns into an Ack. It finds the package's
// functions that call a func-typed parameter and Ack on nil (and the
// struct fields that hold one), middleware, the bodies passed to them
// (literals, functions, method values, routes in maps and slices, kept as
// functions or as entry structs with a handler field), the handlers of
// other packages registered here (through a registry whose entries a
// runner of a third package settles, too), what the package says of such
// a split (FieldFact), the functions that could be handlers registered in
// another package (with or without a message), and payload decodes. It
// reads the syntax, defs, messages, dlq and settle stages, the facts of
// the dependencies and the type information.
package handlers

// Handlers (CONTRACT.md version 2): a function whose error result its
// caller turns into a settlement. A function that calls one of its
// func-typed parameters and Acks a message where that call's error is nil
// marks the parameter (HandlerFact, any package); a function or method
// value, or a function literal, passed there is a handler, and in a
// handler `return nil` is an Ack of the message its caller holds.
//
// What is followed: the parameter called directly, or stored in a struct
// field that a function of the package calls (a constructor's, whose
// handler the pool calls with the payload: the payload positions are those
// of the field's calls); its error tested with
// err != nil (the Ack in the else branch, or after the if when the if's
// body leaves the list: return, continue, break, panic) or err == nil (the
// Ack in the body); handler values passed directly, held in variables,
// wrapped by middleware or by a middleware factory's middleware
// (Timeout(d)(h); MiddlewareFact, middleware.go), or kept in maps and slices of
// routes, in the package that declares them; route fields, maps or slices
// of handlers, or of entry structs (or pointers to them) with a handler
// field, that a dispatch method looks up (routes.go), including a dispatch
// method that returns the handler's result to a caller that Acks on nil
// (err = r.dispatch(ctx, name, msg); if err == nil { raw.Ack() }); the
// route is the map or slice, not the entry's field, so one entry type kept
// in a second map whose results are only logged is no handler; //retrylint:handler
// for the rest. A handler registered in another package than its own is a
// ForeignHandler of the registering package, judged there through the
// handler package's facts (analyzers/internal/foreign); a function that
// takes no message is a candidate for it when its signature fits a
// handler parameter its package sees, and so is the closure of such
// middleware (shapes.go). A registry whose entries a runner of another
// package settles (a job framework) is known only where both are in
// sight: its package and the runner's each export a FieldFact, and the
// package importing both links them (split.go). An Ack on nil in a helper
// of the package that the handler's error is passed to counts as the
// caller's (acks.go). Not yet: buses that decide the settlement through a
// table (this project's runtime/bus).

// Build finds the package's handler parameters (when in.Infer; an
// invalid //retrylint:handler directive is an error), middleware and
// handlers.
func Build(in Inputs) (*Result, error) {
	m := &Result{fset: in.Fset, info: in.Info, pkg: in.Pkg, decode: in.Decode, decoders: in.DecodeFuncs, maySettle: in.MaySettle,
		mayHandle: in.MayHandle, mayRetry: in.MayRetry, imported: in.Imported, syn: in.Syn, msgs: in.Msgs, dlq: in.DLQ, set: in.Set,
		defs: in.Defs, returnsOf: in.ReturnsOf, declByFn: in.DeclByFn, decls: in.Decls}
	m.indexImportedFields()
	if in.Infer {
		if err := m.inferHandlerParams(in.Decls); err != nil {
			return nil, err
		}
		m.inferBoolParams(in.Decls)
	}
	m.findFieldFacts()
	m.inferMiddleware(in.Decls)
	m.indexVarReturns()
	m.findHandlers(in.Decls)
	m.handlersInRoutes()
	m.handlersThroughCallees()
	m.findPendings()
	m.shapes = ShapesOf(in.Imported)
	m.messageless = m.messagelessCandidates(in.Decls)
	return m, nil
}
