// Package nolintplugin is linted as golangci-lint's plugin lints it: the
// //nolint directives are golangci-lint's to apply, so the analyzers
// report under them; //retrylint:ignore is still theirs.
package nolintplugin

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
	return fmt.Errorf("a: %v", produce()) //nolint:retrylint // want `formatted with %v`
}

func _() error {
	//nolint:errcheck,retrylint
	return fmt.Errorf("b: %v", produce()) // want `formatted with %v`
}

func _() error {
	return fmt.Errorf("c: %v", produce()) //retrylint:ignore the caller retries on its own schedule
}
