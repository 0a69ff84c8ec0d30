// Package typeparams proves retryflatten follows generic producers through
// their instantiations and does not panic on type parameters.
package typeparams

import (
	"errors"
	"fmt"
	"time"

	"retrykit"
)

// Result is a generic producer.
func Result[T any](v T, ok bool) (T, error) {
	if !ok {
		var zero T
		return zero, retrykit.RetryAfter(errors.New("not ready"), time.Second)
	}
	return v, nil
}

// Flatten flattens a type-parameter error whose constraint is a carrier:
// it is reported in the body, since the static type carries the intent.
func Flatten[E retrykit.Retryable](e E) error {
	return fmt.Errorf("flattened: %v", e) // want `retryable error e formatted with %v`
}

// Keep wraps whatever error it is given.
func Keep[E error](e E) error { return fmt.Errorf("kept: %w", e) }

func _() error {
	_, err := Result[int](1, false)
	return fmt.Errorf("result: %v", err) // want `retryable error err formatted with %v`
}

func _() error {
	_, err := Result("x", true)
	return Keep(err)
}

type Box[T any] struct{ v T }

func (b Box[T]) Get() (T, error) {
	return Result(b.v, false)
}

func _() error {
	_, err := Box[string]{}.Get()
	return errors.New(err.Error()) // want `text of retryable error err`
}
