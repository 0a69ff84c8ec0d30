// Package fix holds the flattenings whose %w fix is mechanical; the golden
// file is the source after the suggested fixes.
package fix

import (
	"fmt"
	"time"

	"retrykit"
)

func process(id string) error {
	return retrykit.RetryAfter(fmt.Errorf("process %s", id), time.Second)
}

func _(id string) error {
	err := process(id)
	return fmt.Errorf("order %s: %v", id, err) // want `formatted with %v`
}

func _(id string) error {
	err := process(id)
	return fmt.Errorf("order %s: %s", id, err.Error()) // want `text of retryable error err`
}

func _(id string) error {
	err := process(id)
	return fmt.Errorf("order \"%s\"\t%s", id, err) // want `formatted with %s`
}

func _(id string) error {
	err := process(id)
	return fmt.Errorf(`order %s: %v`, id, err) // want `formatted with %v`
}

// Not mechanical: %q and flags change the output, so no fix is offered.
func _(id string) error {
	err := process(id)
	return fmt.Errorf("order %s: %+v", id, err) // want `formatted with %\+v`
}
