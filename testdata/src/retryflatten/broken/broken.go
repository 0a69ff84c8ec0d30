// Package broken has type errors: retryflatten must not panic and must not
// report anything derived from a broken type.
package broken

import (
	"errors"
	"fmt"
	"time"

	"retrykit"
)

func produce() error {
	return retrykit.RetryAfter(errors.New("x"), time.Second)
}

func _() error {
	err := produce()
	return fmt.Errorf("%v", err, undefinedThing) // want `retryable error err formatted with %v`
}

func _() error {
	err := missing()
	return fmt.Errorf("%v", err)
}

func _() error {
	var x UnknownType
	return &x{Msg: produce().Error()}
}

func _() error {
	return fmt.Errorf("%v", produce().Missing())
}

func _() error {
	err := produce(1, 2)
	return errors.New(err.Error() + nope)
}
