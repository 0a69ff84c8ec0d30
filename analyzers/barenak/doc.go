// Package barenak defines an Analyzer that reports a bare Nak on a
// transient path, where the error's retry delay is known and dropped, and
// on the error branch of a call whose error was never classified.
//
// # Analyzer barenak
//
// barenak: bare Nak() on a transient path
//
// A handler that classifies a failure as transient also says when to try
// again: its error carries RetryDelay() time.Duration. The bus layer keeps
// that promise only with NakWithDelay(delay). A bare Nak() asks the server
// to redeliver at once: during a shared outage every consumer spins on the
// same messages, the delivery count races to MaxDeliver, and messages that
// would have gone through a minute later are dead-lettered.
//
// A consumer BackOff does not excuse a bare Nak(). The server applies
// BackOff only when the ack wait expires; a plain Nak is queued for
// redelivery at once (nats-server through 2.15, and nats.go documents that
// Nak does not adhere to AckWait or BackOff).
//
// barenak reports Nak() on a message (*nats.Msg, jetstream.Msg, or any
// type with Ack and Nak or Term), including the legacy Nak(opts...) of
// *nats.Msg, whose ack options carry no delay, on a transient path: code
// reached only when
//
//   - the ok of d, ok := RetryDelay(err) is true: any function, in any
//     package, that returns (time.Duration, bool) and whose ok is true only
//     when errors.As finds a carrier (a fact, not a name);
//   - errors.As(err, &rd) succeeded, rd's type a carrier or an interface
//     with RetryDelay;
//   - a retry predicate returned true: a func returning bool that is true
//     only when errors.As finds a carrier (a fact), or whose name matches
//     the contract's transient-predicate-pattern;
//   - a type switch case or a type assertion matched a carrier type;
//   - or err is non-nil and holds a retryable producer's error
//     (if err := process(msg); err != nil { ... }), including an
//     if err != nil after a retry loop. No explicit classification is
//     needed there: the producer is known to return retry intent.
//
// A local variable that records the decision as a constant carries the
// classification to where it is acted on: after act = retry on a
// transient path (and other constants elsewhere), switch act { case
// retry: }, if act == retry and, for a bool, if retry are transient paths
// too. When a variable was assigned the classification's delay on every
// path that chose retry (act, delay = retry, d), the fix uses it.
//
// A successful classification makes a path transient whatever the error's
// origin (an interface method, a func value). if, switch, type switches,
// early returns (if !ok { return }), && and || are followed. A path stops
// being transient when a classification fails (the !ok side, errors.As
// false, even inside a producer's error branch), when the error is
// identified as another one (errors.Is, ==, a non-carrier type), and when
// err is replaced by an error that does not wrap it with %w.
//
// A call of a helper (any package) that bare-Naks the message it is given
// is reported at the call, on a transient path, when the helper's effect
// happens with the argument passed: always, or for any non-nil error it
// does not classify (the transient error passed). A helper that classifies
// first is quiet at its calls; its own bare Nak after its own successful
// classification is reported inside it.
//
// Unclassified errors (contract version 3, on by default): a bare Nak() on
// the error branch of a call's error that was never classified (no
// errors.Is, errors.As, type switch, comparison or predicate since it was
// assigned) is reported too: the server redelivers it at once, so in an
// outage of that dependency the message loops up to MaxDeliver in
// milliseconds. The message names the call (or calls, when several
// definitions reach) whose error it is, each a related location; the
// error is followed back through assignments, %w wraps and errors.Join.
// Decided where the contract is silent:
//
//   - only an error held in a variable whose every reaching definition is
//     a call's error result (or nil) is judged: an error parameter (the
//     helper's caller knows its origin), a channel receive, a field or a
//     fresh errors.New has no call to name and stays quiet;
//   - a decode's error is poisonack's (its decode-failure path), not
//     barenak's;
//   - the error of ctx.Err() or context.Cause is a shutdown: handing the
//     message back at once is right there;
//   - the error of an ack method (if err := msg.Ack(); err != nil) is a
//     failed settlement, not a failing dependency;
//   - calls of bare-Nak helpers are judged on transient paths only, as
//     before: the helper's condition says how it treats unclassified
//     errors, and whether it backs off is the helper's business.
//
// Not reported: NakWithDelay with any argument; Nak() where the delay is
// known to be zero: guarded by d <= 0, d == 0, or the else of d > 0 (the
// contract maps a zero delay to Nak()), including a later classification
// of the same, unchanged error after the positive delay was handled
// (if d, ok := RetryDelay(err); ok && d > 0 { ...; return } followed by
// if IsRetryable(err) { Nak() }); any other bound, such as
// d < time.Minute, does not make a bare Nak() right. A Nak() after a
// classification of the error that is not a transient one
// (errors.Is(err, ErrConflict): the code decided that "retry now" is
// right), and a Nak() off error paths (shutdown, rebalancing). A Nak()
// that some paths reach as transient and others not: doubtful cases stay
// quiet. A deferred Nak(), and a Nak() in a function literal, which is
// judged on its own body.
//
// Messages that nothing redelivers (contract version 3) are not judged:
// those of a core NATS subscription (nc.Subscribe, QueueSubscribe,
// ChanSubscribe, SubscribeSync), an ordered consumer, an AckNone consumer,
// an ephemeral consumer created and read once in the same function, and
// the legacy API's subscriptions with nats.OrderedConsumer() or
// nats.AckNone(), where the package shows the origin: the same function
// (through assignments, method calls, receives and range loops), or a
// function or method of the package registered as such a subscription's
// handler. Decided: a handler registered from another package, or a
// message passed on to a helper, shows no origin and is judged as before.
//
// Fix: NakWithDelay(d). When the classification bound the delay in scope
// (d in d, ok := RetryDelay(err), or rd.RetryDelay() after
// errors.As(err, &rd) or a type switch case), a suggested fix replaces
// Nak() with NakWithDelay(d), keeping the ack options. Otherwise the
// message says how to get the delay.
//
// Options:
//
//	-unclassified   report a bare Nak() on the error branch of a call whose
//	                error was never classified (default true; =false turns
//	                it off, .retrylint.yaml: barenak: {unclassified: false}).
//	                The strict option of earlier versions is gone: this
//	                replaces it.
//
// Across packages: retryable producers and classifiers (delay lookups and
// predicates) come from the contract model's facts, so a RetryDelay helper
// or a producer declared in another package is recognized without
// configuration. A predicate inference cannot see through is recognized by
// its name (-retrycontract.transient-predicate-pattern).
package barenak

import _ "embed"

//go:embed doc.go
var docSource string
