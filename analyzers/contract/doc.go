// Package contract models the retry contract of CONTRACT.md for the
// retrylint checks: retry carriers, retryable producers, messages and their
// ack methods, DLQ writes, the effects of helpers, and transient paths.
// The suppression directives every check honours are read by the check
// scaffolding (analyzers/internal/checks), not by the model.
//
// The model is computed whole in the analyzer's Run and only read
// afterwards: the checks that share it run in parallel, and the facts of
// other packages are read once, during Run (the analysis API forbids fact
// access after it). Run builds the stage packages of internal/ in this
// order, each complete when its Build returns and read-only afterwards:
// syntax (one walk, test functions, and the gate: most packages of a
// program name no message, no carrier and no dead-letter queue, and the
// model does next to nothing for them), messages, producers, dlq, settle,
// handlers, transient and paths; then it exports the package's facts.
// Checks read the stages' Results through the Model's accessors. The
// stages build on cfgs (one control-flow graph per function body that has
// something to judge, built once, and the functions that never return),
// dataflow (one forward solver with its lattice laws) and profile (message
// libraries as data).
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
//   - messages, from the message-library profiles: *nats.Msg,
//     jetstream.Msg and any type with Ack() error and Nak() error or
//     Term() error, and, as a helper's parameter type, an interface of
//     ack methods only (Acker); more libraries from profile files
//     (-profiles);
//   - DLQ writes and the functions that make one on some path
//     (-dlq-pattern, -dlq-subject-pattern, -dlq-funcs, //retrylint:dlq);
//   - the effects of helpers: which settlement (done, retry now, retry
//     later, terminate) a function makes of which message parameter, on
//     some path (a fact of each helper);
//   - messages that nothing redelivers (Messages().Redelivered): a core
//     NATS subscription's, an ordered, AckNone or read-once ephemeral
//     consumer's, where the package shows the origin (profile data);
//   - transient-path classifiers, and Go 1.26's errors.AsType as a
//     classification like errors.As;
//   - functions that never return (panic, os.Exit, log.Fatal, testing's
//     FailNow, and functions whose last statement calls one and that have
//     no return statement).
//
// Diagnostics of every check are dropped in generated files and on lines
// covered by //retrylint:ignore <reason> or //nolint:retrylint, written at
// the end of the reported line or alone on the line above it.
//
// Test functions are out of scope: the bodies of TestXxx, BenchmarkXxx and
// FuzzXxx functions and of TestMain in _test.go files are neither analyzed
// nor reported on. They drive the broker on purpose (a redelivery test
// Naks bare, a termination test Terms without a dead letter), so a finding
// there is not a defect anyone would fix. The rest of a test file (fake
// handlers, helpers, consumers shared by tests) and Example functions,
// which users copy, are analyzed like any code.
//
// Options (flags, prefixed retrycontract. by the command line drivers):
//
//	-carrier-method NAME           default RetryDelay
//	-dlq-pattern REGEXP            default (?i)(dlq|dead_?letter)
//	-dlq-subject-pattern REGEXP    default (?i)(dlq|dead[._-]?letter)
//	-dlq-funcs LIST                import/path.Func or import/path.Type.Method, comma-separated
//	-decode-pattern REGEXP         default (?i)(unmarshal|decode)
//	-decode-funcs LIST             more payload decoders beside the built-in table, as dlq-funcs
//	-transient-predicate-pattern   default (?i)^(is)?(retryable|retriable|transient|temporary)
//	-profiles FILES                JSON message-library profiles, comma-separated (package profile)
//
// An invalid value fails the run with a one-line error.
package contract

import (
	_ "embed"

	"github.com/retrylint/retrylint/analyzers/internal/analyzerdoc"
)

//go:embed doc.go
var docSource string

var doc = analyzerdoc.Section(docSource)
