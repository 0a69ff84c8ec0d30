// Package ackretryable defines an Analyzer that reports a message
// acknowledged in the error branch of a retryable producer's error before
// the error was classified.
//
// # Analyzer ackretryable
//
// ackretryable: retry intent acknowledged away
//
// A retryable producer (a function that may return an error carrying
// RetryDelay() time.Duration) tells the bus layer "not now, try again
// later". Acknowledging the message in that error branch, without looking
// at the error first, turns the transient fault into a terminal success:
// the broker forgets the message, nothing is redelivered, and the work is
// silently lost. From the queue's side it looks like success.
//
// ackretryable reports Ack, AckSync and DoubleAck on a message (*nats.Msg,
// jetstream.Msg, or any type with Ack and Nak or Term) inside the error
// branch of a retryable producer's error: code reached only while an error
// variable holding a producer's result is non-nil
// (if err := process(msg); err != nil { ... }, the rest of a function after
// if err == nil { ...; return }, an if err != nil after a retry loop, a
// switch case err != nil), before that branch rejoins the normal flow, with
// no classification of that error in between. Wrapping the error with %w
// keeps the branch; the producer may be declared in any package.
//
// In a handler (a function passed to a bus function that calls it and
// Acks the message when it returns nil, known through the contract
// model's HandlerFact), `return nil` is that Ack: it is reported at the
// return, naming the bus function, with the bus's Ack as a related
// location. A handler declared in another package than the one
// registering it (a typed handler registered through middleware such as
// bus.JSON included) is known as one only there: its package exports the
// returns as a fact (DropFact, on exported functions that could be
// handlers), and the registering package reports them at the registration
// call, one diagnostic per return, naming the handler function
// ((*svc.Service).HandleOrder) and the bus, with the return, the
// registration and the bus's Ack as related locations: the report is the
// registering package's, in its file, where gopls and analysistest see it. Followed: the handler parameter called directly and its error
// tested against nil; handler values passed directly (functions, method
// values, function literals, instantiations), held in variables, struct
// fields, wrapped by middleware, or kept in route maps. A router that keeps
// its handlers in a map field (r.routes[subj] = h) and a dispatch method
// that looks one up (h, ok := r.routes[m.Subject]) and Acks on nil is a
// bus like any other: a function that stores its parameter there, as it is
// or in a literal returning its result (the decoding adapter of a generic
// Register[T any](r, subj, h func(context.Context, T) error)), has a
// handler parameter, and the typed handlers registered on it are judged.
// The dispatch may get the handler through a lookup function of the
// router's package instead of indexing the map itself: a function or
// method whose first result (a function returning an error) is, on some
// return, the map or slice field indexed, a value of a range over it, a
// local defined so, another lookup's result, or middleware applied to one
// of these (h = r.middleware[i](h), chain(h, mws)): middleware passes the
// handler's result on, as version 2 says of wrapped handlers. A Register
// that hands Handle a decoding adapter (r.Handle(subj, func(ctx, msg)
// error { ...; return h(ctx, v) })) hands h on like h itself. A lookup of
// a map whose dispatch only logs the error (observers) makes nothing a
// handler.
// A func-typed parameter of an interface method is a handler parameter
// when a type implementing the interface, declared in the calling package
// or in one it imports (directly or not), is a handler caller for it:
// s.bus.Subscribe(ctx, durable, h), bus a Subscriber interface that *Bus
// implements, registers h. A function that hands its parameter on to a
// handler parameter (Subscribe passing h to the dispatch its consumer
// callback calls) is a handler caller too, and so is a dispatch that Acks
// in `case err == nil:` of a switch. Where the implementation is visible
// only from a package that imports both the registering package and the
// implementation (wired in main), the registering package exports what the
// handler drops (RegistrationFact, on the function holding the
// registration), and the first package that sees both (none of its direct
// imports does) reports it, at the registration, with the handler's return
// and the implementation's Ack as related locations. A registration waits
// so only when neither the registering package nor the interface's
// package declares an implementation: one in sight that acks nothing (a
// hook runner) decides that the callback is no handler. Only ackretryable
// judges such handlers so far; the other checks see them where the
// implementation is visible.
//
// Bool handlers: a caller that calls a func-typed parameter returning a
// bool, Acks when it returns true and Naks or Terms when it returns false,
// makes `return true` in a function passed there an Ack, reported like a
// `return nil` ("returning true makes ... Ack the message"). A caller that
// Acks on both sides (a filter) makes no handler. The shapes: if p(...) {
// Ack } else { Nak }, if !p(...) { Nak; return } then Ack, and if p(...) {
// Ack; return } then Nak. A constructor that stores its bool or error
// parameter in a struct field (New(cons, n, h, opts...) returning
// &Pool{handle: h}) has a handler parameter when a method of the package
// calls the field so (if p.handle(ctx, msg.Data(), meta) { Ack; return };
// NakWithDelay): the handler need not receive the message, and its
// `return true` or `return nil` Acks the message the pool holds.
//
// A function whose result a handler returns as it is (return f(ctx, msg))
// is a handler for that call, transitively: its `return nil` is reported
// in its own body, with the handler's return as a related location.
// Wrapped in fmt.Errorf("...: %w", f(...)) it is not followed: fmt.Errorf
// of a nil error is not nil, and the bus Naks. Not yet: buses that decide
// the settlement through a table (this project's runtime/bus).
//
// A nil named result is a `return nil` (contract version 3): a naked
// return whose named error result nothing assigned on the way, and
// `return err` where err is nil on that path, because every definition
// reaching the return is nil or the zero value (var err error), or because
// a test of err said so (the body of if err == nil, the else of
// if err != nil, or after an if err != nil that returns, with no
// assignment of err in between). A variable that may hold an error there
// (a call's result, a parameter, an assignment in a deferred literal) is
// not known to be nil, and its return stays quiet.
//
// A call of a helper that Acks the message it is given is reported in such
// a branch when the helper Acks with the argument passed: always, for any
// non-nil error it does not classify (the branch's error passed), or only
// for a nil error (nil passed). A helper that classifies first, or Acks
// only a nil error and is given the branch's error, is quiet. A pending
// `defer msg.Ack()` (a top-level statement before the return), or a
// deferred literal that only Acks (`defer func() { _ = msg.Ack() }()`), is
// reported at a return in such a branch, unless the branch settles the
// message itself first.
//
// A classification is any inspection of the error that can separate retry
// intent from the rest: errors.As, errors.Is, a type switch or assertion,
// a comparison (err == ErrDuplicate, err.Error() == "..."), a RetryDelay-style
// lookup, or a call taking the error that returns a bool, a delay or an
// integer code (a predicate). After one, acknowledging is a decision the
// handler made, and ackretryable stays quiet: on the !ok side of
// d, ok := RetryDelay(err) the error is permanent (the contract's answer is
// a checked DLQ write, then Term; termbeforedlq checks that order).
//
// Not reported: Ack on success paths; Ack after the error branch rejoined
// the normal flow; Ack after a classification on any path that reaches it;
// errors of unknown origin (interface methods, func values, parameters) and
// errors no producer returns (decoding errors); an error replaced by one
// that does not wrap it; deferred Acks and Acks in function literals,
// which are judged on their own bodies; Nak, NakWithDelay, Term and
// InProgress.
//
// Messages that nothing redelivers (contract version 3) are not judged:
// those of a core NATS subscription, an ordered, AckNone or read-once
// ephemeral consumer, where the package shows the origin (see barenak's
// doc for the shapes followed): an Ack there settles nothing the server
// would redeliver.
//
// Fix: classify the error before acknowledging. With
// d, ok := RetryDelay(err) (or errors.As into a carrier), NakWithDelay(d)
// the transient side and Ack or dead-letter the permanent one.
//
// Options: none of its own; the contract model's options (carrier method,
// transient-predicate pattern) apply.
//
// Across packages: retryable producers come from the contract model's
// facts, so a producer declared in another package, its wrappers, method
// values and generic instantiations are all recognized.
package ackretryable

import _ "embed"

//go:embed doc.go
var docSource string
