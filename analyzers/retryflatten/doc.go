// Package retryflatten defines an Analyzer that reports retryable errors
// turned into new errors that no longer hold their retry intent.
//
// # Analyzer retryflatten
//
// retryflatten: retryable error flattened to a string
//
// A handler says "try again in 30s" by returning an error whose chain holds
// a retry carrier: a value with RetryDelay() time.Duration that the bus
// layer finds with errors.As and maps to NakWithDelay. The intent survives
// %w, errors.Join and wrapper types with an Unwrap method. It dies, silently,
// when the error is turned into text and a new error is built from the
// text: the bus layer then sees a permanent failure and dead-letters a
// message that would have succeeded a minute later.
//
// retryflatten reports, where the error may be retryable (its static type is
// a carrier, or it flows from a retryable producer in any package):
//
//   - fmt.Errorf with the error as the operand of any verb but %w
//     (%v, %s, %q, %+v...);
//   - errors.New or fmt.Errorf whose text is built from the error:
//     errors.New(err.Error()), errors.New("load: " + err.Error()),
//     errors.New(fmt.Sprintf("%v", err)), fmt.Errorf(err.Error()),
//     fmt.Errorf("load: %s", err.Error());
//   - a composite literal of an error type that stores the error's text in
//     a field and keeps no error value;
//   - a composite literal of an error type that holds the error but has no
//     Unwrap() error or Unwrap() []error method (nor an As method that could
//     forward), so errors.As cannot reach it;
//   - a call to a function, in any package, that flattens its error
//     parameter in one of these ways, when the argument may be retryable.
//     The call is reported, with the helper as a related location; the
//     helper's body is not (there the parameter's origin is unknown), unless
//     the parameter's static type is itself a carrier.
//
// A deferred literal that re-annotates a named error result
// (defer func() { if err != nil { err = fmt.Errorf("op: %v", err) } }())
// runs after every return, so it flattens whatever the function returns:
// it is reported at the Errorf when a return of the deferring function
// returns an error that may be retryable, or an assignment in it stores
// one in the result (before a naked return), with that place as a related
// location. A literal that is called rather than deferred runs before the
// return and is judged like any code.
//
// Not reported: %w (one or several), errors.Join, logging and metrics that
// format the error without making a new error, wrapper types that are
// carriers themselves, and errors that cannot be retryable (errors.New
// values, io.EOF, errors from interface methods or func values of unknown
// origin). Two decisions beyond the contract's letter, both on the side of
// silence: an operand that the same fmt.Errorf also wraps with %w
// (fmt.Errorf("%w (%v)", err, err)) is kept, so nothing is lost; and an
// error whose retry classification (a RetryDelay-style lookup, errors.As
// into a carrier, a retry predicate known by its fact) failed on every path
// to the flattening provably carries no retry intent there
// (if _, ok := RetryDelay(err); ok { return err }; return fmt.Errorf("%v", err)).
//
// Fix: wrap with %w (a suggested fix rewrites %v and %s without flags to
// %w, and fmt.Errorf("...%s", err.Error()) to fmt.Errorf("...%w", err)), or
// give the wrapper type an Unwrap method.
//
// Across packages: retryable producers come from the contract model's
// facts; functions that flatten an error parameter are exported as facts
// ("flattens param N") so callers in other packages are checked too.
package retryflatten

import _ "embed"

//go:embed doc.go
var docSource string
