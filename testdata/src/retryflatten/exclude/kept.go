// Package exclude proves path exclusions: findings in a file a glob of
// -retrycontract.exclude (every check) or -retryflatten.exclude (this
// check) matches are not reported; the rest are.
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
	return fmt.Errorf("a: %v", produce()) // want `formatted with %v`
}
