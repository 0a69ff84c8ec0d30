// Package contract models the retry contract of CONTRACT.md for the
// retrylint checks: retry carriers, retryable producers, messages and their
// ack methods, DLQ writes, may-Term helpers, transient paths, and the
// suppression directives every check honours.
//
// # Analyzer retrycontract
//
// retrycontract: the retry contract model shared by every retrylint check
//
// retrycontract reports nothing. It infers, for the package under analysis
// and through facts for every package it imports:
//
//   - retry carriers: types whose method set has RetryDelay() time.Duration
//     (-carrier-method renames the method);
//   - retryable producers: functions that may return a carrier as an error,
//     directly or through %w, errors.Join, wrapper types with Unwrap,
//     helpers that return their error parameter wrapped, method values and
//     closures; errors from interface methods and func values of unknown
//     origin are unknown, and unknown is not retryable. A local variable
//     that a definition reaching the call binds to a known function, a
//     method value (f := c.Reserve) or a function literal is not of
//     unknown origin: producers are followed through method values and
//     closures. Func values from parameters, struct fields or call results
//     stay unknown;
//   - messages: *nats.Msg, jetstream.Msg and any type with Ack() error and
//     Nak() error or Term() error;
//   - DLQ writes and the functions that make one on some path
//     (-dlq-pattern, -dlq-subject-pattern, -dlq-funcs, //retrylint:dlq);
//   - may-Term helpers and transient-path classifiers.
//
// Diagnostics of every check are dropped in generated files and on lines
// covered by //retrylint:ignore <reason> or //nolint:retrylint, written at
// the end of the reported line or alone on the line above it.
//
// Options (flags, prefixed retrycontract. by the command line drivers):
//
//	-carrier-method NAME           default RetryDelay
//	-dlq-pattern REGEXP            default (?i)(dlq|dead_?letter)
//	-dlq-subject-pattern REGEXP    default (?i)(dlq|dead[._-]?letter)
//	-dlq-funcs LIST                import/path.Func or import/path.Type.Method, comma-separated
//	-transient-predicate-pattern   default (?i)^(is)?(retryable|retriable|transient|temporary)
//
// An invalid value fails the run with a one-line error.
package contract

import _ "embed"

//go:embed doc.go
var docSource string

var doc = analyzerDoc(docSource)
