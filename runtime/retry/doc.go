// Package retry classifies handler errors and computes retry delays.
//
// A handler classifies a failure once, where it knows the cause, and the bus
// layer maps that intent onto the broker without reinterpreting it (see
// runtime/bus). The intent travels through the error chain as behaviour, not
// as a concrete type:
//
//   - an error whose chain holds a value with RetryDelay() time.Duration is
//     transient and asks for redelivery after that delay (RetryAfter builds
//     one; any package may define its own);
//   - an error whose chain holds a value with Retryable() bool returning true
//     is transient without a delay of its own: the caller's backoff Policy
//     chooses the delay for the attempt (Transient builds one);
//   - an error whose chain holds a value with Permanent() bool returning true
//     is permanent even if a carrier is wrapped deeper (Permanent builds one);
//   - any other error carries no retry intent and is permanent.
//
// Classify walks the chain in the order errors.As does (depth first through
// Unwrap() error and Unwrap() []error) and the first marker it meets decides,
// so the outermost classification wins: Permanent(RetryAfter(err, d)) is
// permanent and RetryAfter(Permanent(err), d) is transient.
//
// The intent survives fmt.Errorf with %w, errors.Join and any wrapper type
// with an Unwrap method. It dies when the error is flattened to a string
// (fmt.Errorf with %v, errors.New(err.Error())) or wrapped in a type without
// Unwrap; retrylint reports both.
//
// Policy is an exponential backoff with cryptographically random jitter and
// an attempt cap. Its defaults (1s doubling to 30s, jitter below 500ms, 50
// attempts) give a worst-case retry window of 22m55.5s (Policy.Window).
// Policy.NextDelay never schedules a retry past the context's deadline: the
// run budget wins over the retry budget. Do runs a function under a Policy in
// process.
package retry
