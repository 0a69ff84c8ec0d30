// Package barenak defines an Analyzer that reports a bare Nak on a
// transient path, where the error's retry delay is known and dropped.
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
// Not reported: NakWithDelay with any argument; Nak() where the delay is
// known to be zero: guarded by d <= 0, d == 0, or the else of d > 0 (the
// contract maps a zero delay to Nak()), including a later classification
// of the same, unchanged error after the positive delay was handled
// (if d, ok := RetryDelay(err); ok && d > 0 { ...; return } followed by
// if IsRetryable(err) { Nak() }); any other bound, such as
// d < time.Minute, does not make a bare Nak() right. Nak() for an error of
// unknown origin that was never classified (an interface method's, a func
// value's, a parameter) unless -strict. A Nak() that some paths reach as
// transient and others not: doubtful cases stay quiet. A deferred Nak(),
// and a Nak() in a function literal, which is judged on its own body.
//
// Fix: NakWithDelay(d). When the classification bound the delay in scope
// (d in d, ok := RetryDelay(err), or rd.RetryDelay() after
// errors.As(err, &rd) or a type switch case), a suggested fix replaces
// Nak() with NakWithDelay(d), keeping the ack options. Otherwise the
// message says how to get the delay.
//
// Options:
//
//	-strict   also report every bare Nak() on an error path (an error is
//	          known to be non-nil), whatever the error's origin
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
