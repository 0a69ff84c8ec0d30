// Package settletwice defines an Analyzer that reports a message settled
// again after it was acknowledged.
//
// # Analyzer settletwice
//
// settletwice: a message settled after it was acknowledged
//
// The broker keeps the first settlement of a delivery and ignores the
// rest. A handler that Acks first and then, when the work that follows
// fails, Naks or Terms the message, means a retry or a termination that
// never happens: the message is gone as done, and the failure after the
// Ack is lost. The usual cause is an Ack written at the top of a handler
// ("ack early so the broker does not redeliver while we work").
//
// settletwice reports a Nak, NakWithDelay, Term or TermWithReason of a
// message, or a call of a helper that makes one of those of the message it
// is given whenever it runs (any package, through the contract model's
// effects), reachable in the function's control-flow graph from an
// earlier Ack, AckSync or DoubleAck of the same message (or a call of a
// helper that Acks it whenever it runs, or a function literal called on
// the spot that Acks), without going around a loop's back edge:
//
//	_ = msg.Ack()
//	if err := s.store.Save(ctx, order); err != nil {
//		_ = msg.NakWithDelay(5 * time.Second) // reported: ignored
//		return
//	}
//
// The report is at the later settlement, with the Ack as a related
// location (and the settlement inside a helper when there is one). Only
// the first settlement of the message on each path after the Ack is
// reported.
//
// A handler's error return is a settlement when its caller (any package,
// through the contract model's handler facts) Naks or Terms the message
// on error: a handler that Acks the message it is given and then returns
// an error is reported at the return, with the Ack and the caller's Ack as
// related locations:
//
//	if err := msg.Ack(); err != nil {
//		return err // quiet: the Ack failed
//	}
//	if err := s.erp.Export(ctx, id); err != nil {
//		return fmt.Errorf("export: %w", err) // reported: bus.Subscribe's NakWithDelay never happens
//	}
//
// Not reported:
//   - a second Ack of the same kind, and InProgress (harmless);
//   - settlements after a Term, and Acks that a Term of the same message
//     precedes (the message is gone as intended);
//   - settlements of other messages (in a loop over a batch, the next
//     iteration's message is another: reachability never crosses a back
//     edge);
//   - a settlement on the failure branch of the Ack's own error
//     (if err := msg.Ack(); err != nil { msg.Nak() }, also when the error
//     is assigned first and tested later): the Ack failed there;
//   - deferred settlements and settlements started with go, and those in
//     function literals, which are judged on their own bodies.
//
// Decisions where the contract is silent:
//   - a helper counts only when it settles whenever it runs (an
//     unconditional settlement of its message parameter): a helper whose
//     Nak or Term depends on a path or on its error argument is not
//     known to settle at this call, and doubtful cases stay quiet;
//   - a handler's error return counts only when the error is known to be
//     non-nil: fmt.Errorf, errors.New, a composite literal of an error type
//     (or its address), a variable on the non-nil side of its nil test.
//     `return f(...)` and errors.Join may return nil and stay quiet, and so
//     does a return of an error nil on that path;
//   - a caller that only logs the handler's error, or whose Nak or Term is
//     of a message nothing redelivers (core NATS), makes no error return a
//     settlement: returning the error after an Ack loses nothing there;
//   - the caller's settlement on error is the first Nak, NakWithDelay,
//     Term or TermWithReason (or a helper that may make one) on the error
//     side of its nil test of the handler's result; a caller that Naks
//     some errors and Terms others is reported with the first it shows;
//   - the rule needs the handler to receive the message it Acks, and is
//     not applied yet to handlers declared in another package than the
//     one registering them (ForeignHandler), nor to bool handlers;
//   - two settlements concern the same message when they settle the same
//     message variables (the model's derivations), or, for messages not
//     held in a variable, the same expression;
//   - no suggested fix: moving the Ack after the work is a change of
//     control flow that needs a person (where the work's error goes, what
//     happens on success).
//
// Fix: acknowledge after the work succeeded, and settle the failure
// instead of the success:
//
//	if err := s.store.Save(ctx, order); err != nil {
//		_ = msg.NakWithDelay(5 * time.Second)
//		return
//	}
//	_ = msg.Ack()
//
// Options: none of its own.
package settletwice

import _ "embed"

//go:embed doc.go
var docSource string
