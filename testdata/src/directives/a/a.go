// Package a proves the directives meta check: a //retrylint:ignore with no
// reason, or that suppresses no finding of the checks it names, is
// reported at the directive; //nolint forms never are.
package a

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
	return fmt.Errorf("used: %v", produce()) //retrylint:ignore the message is shown to operators verbatim
}

func _() error {
	return fmt.Errorf("per check: %v", produce()) //retrylint:ignore retryflatten the message is shown to operators
}

func _() error {
	// several checks: used when any of them suppressed something
	return fmt.Errorf("several: %v", produce()) //retrylint:ignore barenak,retryflatten the message is shown to operators
}

func _() error {
	/* want `suppresses no finding of barenak: remove it` */ return fmt.Errorf("other check: %v", produce()) //retrylint:ignore barenak wrong check named
}

func _() error {
	/* want `has no reason and suppresses nothing` */ return fmt.Errorf("no reason: %v", produce()) //retrylint:ignore
}

func _() error {
	/* want `has no reason and suppresses nothing` */ return fmt.Errorf("no reason: %v", produce()) //retrylint:ignore retryflatten
}

func _() {
	/* want `suppresses no finding of any check: remove it` */ _ = 1 //retrylint:ignore nothing to suppress here
}

func _() {
	_ = 2 //nolint:retrylint // golangci-lint's nolintlint governs //nolint
}

func _() error {
	//retrylint:ignore alone above the line it covers
	return fmt.Errorf("above: %v", produce())
}

func _() {
	/* want `suppresses no finding of any check: remove it` */ //retrylint:ignore above a line with nothing to suppress
	_ = 3
}
