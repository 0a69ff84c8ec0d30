// Package suppress proves the suppression directives: //retrylint:ignore
// with a reason (for every check, or for the checks it names) and
// //nolint:retrylint or //nolint:<check>, trailing or on the line above. A
// plain comment, a directive without a reason and one naming another
// check do not exempt.
package suppress

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
	return fmt.Errorf("a: %v", produce()) //retrylint:ignore the caller retries on its own schedule
}

func _() error {
	//retrylint:ignore the message is shown to operators verbatim
	return fmt.Errorf("b: %v", produce())
}

func _() error {
	return fmt.Errorf("c: %v", produce()) //nolint:retrylint // legacy API
}

func _() error {
	//nolint:errcheck,retrylint
	return fmt.Errorf("d: %v", produce())
}

func _() error {
	// deliberately flattened: comments do not exempt
	return fmt.Errorf("e: %v", produce()) // want `formatted with %v`
}

func _() error {
	//nolint:errcheck
	return fmt.Errorf("f: %v", produce()) // want `formatted with %v`
}

func _() error {
	x := 1 //retrylint:ignore trailing on another line covers only that line
	_ = x
	return fmt.Errorf("g: %v", produce()) // want `formatted with %v`
}

func _() error {
	/* want `formatted with %v` */ return fmt.Errorf("h: %v", produce()) //retrylint:ignore
}

func _() error {
	return fmt.Errorf("i: %v", produce()) //retrylint:ignore retryflatten the caller retries on its own schedule
}

func _() error {
	/* want `formatted with %v` */ return fmt.Errorf("j: %v", produce()) //retrylint:ignore barenak names another check
}

func _() error {
	return fmt.Errorf("k: %v", produce()) //nolint:retryflatten // a per-check //nolint
}

func _() error {
	/* want `formatted with %v` */ return fmt.Errorf("l: %v", produce()) //nolint:barenak // another check's
}

// A check list with a typo is no reason: the directive suppresses nothing
// (the retrylint meta check reports the unknown name).

func _() error {
	//retrylint:ignore retryflaten,barenak the caller retries on its own schedule
	return fmt.Errorf("m: %v", produce()) // want `formatted with %v`
}

func _() error {
	//retrylint:ignore barenack,ackretryable the caller retries on its own schedule
	return fmt.Errorf("n: %v", produce()) // want `formatted with %v`
}

func _() error {
	//retrylint:ignore Retryflatten the caller retries on its own schedule
	return fmt.Errorf("o: %v", produce()) // want `formatted with %v`
}

func _() error {
	//retrylint:ignore retryflatten,foo the caller retries on its own schedule
	return fmt.Errorf("p: %v", produce()) // want `formatted with %v`
}

func _() error {
	/* want `formatted with %v` */ return fmt.Errorf("q: %v", produce()) //nolint:retryflaten // misspelled
}

// Plain reasons stay reasons, and a list spaced after its comma is a list.

func _() error {
	return fmt.Errorf("r: %v", produce()) //retrylint:ignore retries are fine here, the caller paces them
}

func _() error {
	return fmt.Errorf("s: %v", produce()) //retrylint:ignore break glass only: operators read the text
}

func _() error {
	return fmt.Errorf("t: %v", produce()) //retrylint:ignore ok, operators read the text
}

func _() error {
	return fmt.Errorf("u: %v", produce()) //retrylint:ignore barenak, retryflatten the caller retries on its own schedule
}
