// Package termbeforedlq defines an Analyzer that reports a message
// terminated before its dead-letter copy is safely written.
//
// # Analyzer termbeforedlq
//
// termbeforedlq: Term() before the DLQ write
//
// Term tells JetStream to stop redelivering a message: the broker forgets
// it. A message given up on must first be written to the dead-letter queue,
// and the write's error checked, because once Term has run a failed or
// skipped DLQ write means the message is gone with no trace. The contract
// is: DLQ write, checked, then Term; if the DLQ write fails, NakWithDelay
// and return, never Term.
//
// termbeforedlq reports a Term or TermWithReason call, or a call of a
// helper (in any package) that may Term its message parameter, reported at
// the call with the helper's inner Term as a related location:
//
//   - from which a DLQ write is reachable in the function's control-flow
//     graph. A deferred DLQ write runs after the Term wherever it is
//     deferred; a DLQ write started with go is never ordered before the
//     Term, whether or not it returns an error;
//   - that follows a DLQ write whose error is discarded (_ = write(), a
//     bare write() statement) or assigned and not checked on the way to the
//     Term (only logged, or overwritten);
//   - that is reached from the failure branch of a checked DLQ write
//     (logging the failure and falling through to Term loses the message
//     just the same);
//   - that follows an unconfirmed DLQ write (contract version 3) with
//     nothing confirming it in between, the message naming why and the
//     fix: a call of a dead-letter sink that returns no error (a
//     func-valued field, an interface method, a function), a core NATS
//     publish ((*nats.Conn).Publish, PublishMsg, PublishRequest), whose
//     nil error means buffered, and a JetStream PublishAsync or
//     PublishMsgAsync whose future is not awaited (Ok, Err or
//     PublishAsyncComplete) on the path to the Term. A Term that is also
//     on the write's failure branch, or after its discarded error, is
//     reported as that, the nearer defect.
//
// Decisions for unconfirmed writes. A void call is a sink by its name
// only when the analysis cannot see its body: a func value or an
// interface method named like a DLQ, or an interface method on a receiver
// so named; functions and concrete methods are writers by what their
// bodies do. A sink writes something: a void call whose arguments are
// all numbers, strings or booleans (a dead-letter counter's Add(1)) is
// not a write. A function is a known synchronous writer (quiet after it)
// when it writes on every path that returns normally and each write it
// makes is checked at once by an if whose branch ends in panic, os.Exit
// or log.Fatal; the fact travels across packages ("writes DLQ (always,
// and panics when it fails)"). A blocking retry loop is not recognized.
// Any await of the library between an async publish and the Term
// confirms it (the future is not matched to the write); in a select, only
// the case that received from Ok or Err is confirmed. A core publish
// followed by Flush stays unconfirmed: the server received it, but no
// stream acknowledged storing it. A request (Request) is confirmed by its
// reply.
//
// Writers by name that do not write. A function named like a DLQ writer
// (the name pattern) that writes nothing anywhere and Terms or Acks a
// message parameter itself is reported at that Term or Ack ("deadLetter
// terminates the message without writing it anywhere: its callers lose
// the message and its evidence"), and a call of it is no DLQ write (its
// callers are not reported for a Term before it). "Writes nothing
// anywhere" must be certain: no DLQ write, and no call that takes the
// message or a value derived from it other than its ack calls,
// formatting, logging (fmt, log, log/slog, logger methods such as Warn)
// and builtins; a database insert of msg.Data() in a function named
// deadLetter is a write the model cannot see, so it stays quiet.
// Functions marked //retrylint:dlq or named in -retrycontract.dlq-funcs
// are left out (the spec lists them too): they are declared to write
// where inference cannot see it, so a body without a visible write is
// what they are for. Settlements through helpers are not followed. From
// another package a call of such a function is no DLQ write either: its
// package exports no writer fact for it, and a call of another package's
// function is a write only through such a fact.
//
// Nil guards. A writer whose top-level guard returns without an error
// when its receiver, a parameter that is not the message, or a field of
// either is nil (if c == nil || c.js == nil { return nil }) and that
// writes on every other path that returns normally is a swallowing writer
// whatever its error holds: a Term after it is reported even when its
// error was checked. A guard that returns an error is the caller's to
// check (a checked writer); a guard on the message itself (if msg == nil)
// leaves nothing to keep and changes nothing.
//
// The message names the DLQ write, whose position is a related location.
// A Term and a DLQ write pair up only if the write can concern the Termed
// message: it takes the message or a value derived from it (data, subject,
// headers, metadata), or no message-derived value at all. Reachability
// does not go around a loop's back edge: a DLQ write in the next iteration
// concerns another message. A call of a function literal counts where it
// is called: a closure that writes the DLQ and runs before the Term is a
// write before it.
//
// Not reported: a Term after a DLQ write whose error was checked and whose
// failure branch does not reach the Term (it returns, or Naks with delay
// and returns); a Term after a known synchronous writer; a
// Term in a function with no DLQ write; a DLQ write whose error is handed
// to the may-Term helper that follows it (the helper decides), returned,
// collected or tested in ways other than a nil comparison; a helper that
// both dead-letters and terminates is judged inside its own body, and at
// its call sites it is a Term only against writes after it. Terms that are
// deferred or started with go are not judged, and neither are the cases of
// a switch over an action computed earlier (the processBusMsg shape): the
// Term and the DLQ write sit in separate cases and no path joins them.
//
// Fix: write the DLQ first and check its error; on failure NakWithDelay
// and return; Term only after a successful write:
//
//	if err := s.dlq.Write(ctx, msg.Data()); err != nil {
//		return msg.NakWithDelay(5 * time.Second)
//	}
//	return msg.Term()
//
// What counts as a DLQ write is the contract model's: a call returning an
// error whose function, method or func-valued field is named like a DLQ
// (-retrycontract.dlq-pattern, default (?i)(dlq|dead_?letter)) or that is a
// method of any name on a receiver variable or field so named (s.dlq.Write);
// a Publish, PublishMsg, PublishAsync, PublishMsgAsync or Request whose
// subject has a constant part matching -retrycontract.dlq-subject-pattern
// (concatenations, fmt.Sprintf formats, and for PublishMsg the subject set
// on the message in the same function), or is a variable, field or call
// named like a DLQ (s.cfg.DeadLetterSubject); a function named in
// -retrycontract.dlq-funcs or marked //retrylint:dlq in its doc comment.
// Names that configure rather than write (NewDLQWriter, ensureDLQStream,
// WithDeadLetterSink, s.dlq.Close) are not writes. "Returns an error"
// means its last result is error: a JetStream key-value bucket's Put
// returns (uint64, error). A message library's calls other than its
// publishes never write, except the store methods its profile lists
// (key-value Put, PutString, Create, Update; object store Put, PutBytes,
// PutString, PutReader, PutFile): on a receiver named like a DLQ
// (c.deadLetters.Put(ctx, key, msg.Data())) they are DLQ writes, Create
// and Update included although those names otherwise configure. The
// bucket's reads (Get, Keys) are not, nor are stores into buckets with
// other names.
//
// Across packages, the contract model exports a fact for every function
// that makes a DLQ write on some path ("writes DLQ", whatever it returns)
// and for every function that may Term a message parameter ("may Term
// param N", with the place of its inner Term), so a DLQ writer or a
// may-Term helper in another package is judged like a local one. Where
// inference cannot see a write (a database table, an HTTP call), mark the
// function //retrylint:dlq or name it in -retrycontract.dlq-funcs.
//
// The analysis walks each function's control-flow graph from
// golang.org/x/tools/go/cfg, built with cfg.New only for functions that
// hold both a Term and a DLQ write. That graph is built from syntax, so it
// works on code with type errors, keeps each statement as written (the
// checks need the assignment that receives a write's error and the
// condition that tests it, which SSA would rewrite), and needs no
// dependency with its own fact passes. Calls that never return (panic,
// os.Exit, log.Fatal) end their block.
//
// termbeforedlq has no options of its own; it reads the contract model's.
package termbeforedlq

import _ "embed"

//go:embed doc.go
var docSource string
