// Package dlqunchecked defines an Analyzer that reports a message acked
// around a DLQ write that may have been lost.
//
// # Analyzer dlqunchecked
//
// dlqunchecked: message settled as done around a lost DLQ write
//
// Writing a message to the dead-letter queue and then acking it is a
// correct way to move it out of the stream, but only when the write is
// known to have succeeded: Ack tells the broker to forget the message, so
// if the write failed (the DLQ stream is down, the copy is too big), the
// message and its evidence are both gone. The same happens when Ack runs
// first and the write after it.
//
// dlqunchecked reports an Ack (Ack, AckSync, DoubleAck, a function literal
// called on the spot that Acks, a pending `defer msg.Ack()` at a return
// (or a deferred call of a helper, any package, that always Acks the
// message it is given: `defer ackQuietly(msg)` is a deferred Ack, so
// deferred after a deferred DLQ write it runs first), or a handler's `return nil` when its bus Acks on nil; a handler declared
// in another package than the one registering it is reported through its
// package's LostWriteFact at the registration call, one diagnostic per
// return, naming the handler function ((*park.Service).HandleParked) and
// the bus, with the return, the DLQ write, the registration and the bus's
// Ack as related locations: the report is the registering package's, in
// its file, where gopls and analysistest see it):
//
//   - from which a DLQ write of the same message is reachable in the
//     function's control-flow graph (a deferred DLQ write runs after the
//     Ack; a DLQ write started with go is never ordered before it);
//   - that follows a checked DLQ write whose error is discarded or not
//     checked on the way to the Ack (only logged, or overwritten), or a
//     call to a swallowing writer (a helper that always writes the DLQ and
//     drops the write's error);
//   - that is reached from the failure branch of a checked DLQ write;
//   - that follows an unconfirmed DLQ write (a sink that returns no
//     error, a core NATS publish, an async publish whose future is not
//     awaited) with nothing confirming it in between, as termbeforedlq
//     decides it (see its doc), the message naming why and the fix. On a
//     decode-failure path this check reports it, not poisonack (a path
//     that writes the DLQ is the ordering checks': one defect, one
//     report).
//
// The message names the DLQ write, whose position is a related location.
// The rules are termbeforedlq's with Ack for Term: the same message rule
// (the write takes the message, a value derived from it, or no
// message-derived value at all), the same reachability (never across a
// loop's back edge), the same DLQ writes (the contract model's, with its
// version 2 destination arguments and writer kinds: the error of a writer
// for ordering only is not the write's, so an Ack on its failure branch is
// not reported).
//
// Not reported: an Ack after a checked write whose failure branch returns
// or Naks with a delay (write, check, then Ack is a correct way to move a
// message); an Ack in a function with no DLQ write; Acks that are
// deferred or started with go. Calls of helpers that Ack on some path are
// not counted yet: whether such a helper Acks at a call depends on the
// error it is given, which the contract model does not track yet.
//
// Messages that nothing redelivers (contract version 3) are not judged:
// those of a core NATS subscription, an ordered, AckNone or read-once
// ephemeral consumer, where the package shows the origin (see barenak's
// doc for the shapes followed): an Ack there settles nothing the server
// would redeliver.
//
// Fix: write the DLQ first and check its error; on failure NakWithDelay
// and return; Ack (or Term) only after a successful write:
//
//	if err := s.dlq.Write(ctx, msg.Data()); err != nil {
//		return msg.NakWithDelay(5 * time.Second)
//	}
//	return msg.Ack()
package dlqunchecked

import _ "embed"

//go:embed doc.go
var docSource string
