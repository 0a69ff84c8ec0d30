// Package exclude proves the meta check under path exclusions: in a file
// that -retrycontract.exclude excludes, no directive is reported (no
// check reports there); in a file only -retryflatten.exclude excludes, a
// directive for retryflatten suppresses nothing, and is reported.
package exclude

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
	return fmt.Errorf("a: %v", produce()) //retrylint:ignore the message is shown to operators
}
