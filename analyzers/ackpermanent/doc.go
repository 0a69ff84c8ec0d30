// Package ackpermanent defines an Analyzer that reports a message
// acknowledged after its failure was classified as permanent, without
// the dead-letter write the service makes for other messages.
//
// # Analyzer ackpermanent
//
// ackpermanent: permanent failure acked without evidence
//
// The contract maps a failure with no retry intent (a permanent one) to a
// checked DLQ write, then Term. A handler that classifies an error, finds
// no retry delay, and then Acks (logs and moves on) removes the message
// from the stream as if it had been handled: nothing is redelivered and,
// in a service that keeps evidence of its failures in a dead-letter
// queue, nothing is kept of this one.
//
// ackpermanent reports an Ack (Ack, AckSync, DoubleAck, a helper that Acks
// the message it is given whenever it runs, a function literal called on
// the spot that Acks, a pending `defer msg.Ack()` at a return, or a
// handler's `return nil` when its bus Acks on nil) where, on every path
// that reaches it, an error known to be non-nil was classified as having
// no retry intent: the failing side of a retry classification (the !ok
// of d, ok := RetryDelay(err) and of any delay classifier the contract
// model knows, errors.As or errors.AsType into a carrier that failed, the
// false side of a retry predicate, known by its fact or by its name), with
// no DLQ write of the message before it, in a package that
// makes a DLQ write elsewhere (a direct write or a call to a DLQ writer):
//
//	if err := s.apply(ctx, ev); err != nil {
//		if d, ok := RetryDelay(err); ok {
//			return msg.NakWithDelay(d)
//		}
//		s.log.Warn("dropping event", "err", err)
//		return msg.Ack() // reported
//	}
//
// The report is at the Ack (the return for a handler or a deferred Ack),
// with the classification as a related location.
//
// Not reported:
//   - paths on which errors.Is identified the error, or a type switch or
//     assertion matched it to a named type that is not a carrier (on any
//     path to the Ack): "not found" or "already done" is a decision about
//     that error, and Acking it is correct;
//   - packages that make no DLQ write at all: they keep no evidence, and
//     an Ack there is the service's policy, not an omission;
//   - Acks after a DLQ write of the message, checked or not (dlqunchecked
//     and termbeforedlq judge the write);
//   - Acks where the error may be nil (a classification before any nil
//     test: its !ok side holds success too);
//   - a helper that Acks only on some path or under a condition on its
//     error: its own body is judged where it classifies.
//
// Decisions where the contract is silent:
//   - a type assertion to a carrier (err.(interface{ RetryDelay() ... }))
//     that fails is not a classification for this check: it looks at the
//     top of the error chain only, and the error may still carry a delay
//     further down; doubtful cases stay quiet;
//   - a DLQ write "before" the Ack is one from which the Ack is reachable
//     on some path (never around a loop's back edge); writes of another
//     message do not count (the contract's same-message rule);
//   - a handler declared in another package than the one registering it
//     (main wires billing.HandleCharge into bus.Subscribe) is followed as
//     every check follows it: the handler's package exports
//     the returns that would Ack a permanent failure with no DLQ write of
//     the message before them (PermanentDropFact, on exported functions
//     with a message parameter and an error result), and the registering
//     package reports them at the registration call, one diagnostic per
//     return, naming the handler function ((*billing.Handlers).HandleCharge)
//     and the bus, with the return, the classification, the registration
//     and the bus's Ack as related locations: the report is the registering
//     package's, in its file, where gopls and analysistest see it. The package
//     whose DLQ writes make the Ack a defect is the handler's (where the
//     evidence would be written): the registering package need not write
//     a DLQ. Typed handlers (no message parameter) of another package are
//     not followed: the fact names the message the write must concern;
//   - no suggested fix: the fix adds a DLQ write and its failure branch,
//     which need the service's own writer.
//
// Fix: write the message to the DLQ, check the write (on failure
// NakWithDelay and return), then Term it (or Ack it: moving a message to
// the DLQ and then acknowledging it is correct too).
//
// Options: none of its own; the contract model's options (carrier method,
// transient-predicate pattern, DLQ patterns and writers) apply.
package ackpermanent

import _ "embed"

//go:embed doc.go
var docSource string
