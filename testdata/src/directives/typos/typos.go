// Package typos proves that a directive whose check list names something
// that is no check (a typo) is reported at the directive, naming the
// unknown names and the checks, and suppresses nothing; that plain reasons
// stay reasons; and that //nolint naming other linters is left alone.
package typos

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
	/* want `//retrylint:ignore names unknown check "barenack" and suppresses nothing: correct it to barenak \(checks: retryflatten, termbeforedlq, barenak, ackretryable, dlqunchecked, poisonack, settletwice, ackpermanent\)` */ return fmt.Errorf("a: %v", produce()) //retrylint:ignore barenack,retryflatten the message is shown to operators
}

func _() error {
	/* want `names unknown checks "barenack", "ackretryabel" and suppresses nothing: correct it to barenak, ackretryable` */ return fmt.Errorf("b: %v", produce()) //retrylint:ignore barenack,ackretryabel the message is shown to operators
}

func _() error {
	/* want `names unknown check "poisonak" and suppresses nothing: correct it to poisonack` */ return fmt.Errorf("c: %v", produce()) //retrylint:ignore poisonak the message is shown to operators
}

func _() error {
	/* want `names unknown check "Retryflatten" and suppresses nothing: correct it to retryflatten` */ return fmt.Errorf("d: %v", produce()) //retrylint:ignore Retryflatten the message is shown to operators
}

func _() error {
	/* want `names unknown check "poisonak" and suppresses nothing` */ return fmt.Errorf("e: %v", produce()) //retrylint:ignore retryflatten, poisonak the message is shown to operators
}

func _() error {
	/* want `names unknown checks "foo", "bar" and suppresses nothing: name only retrylint's checks \(checks: ` */ return fmt.Errorf("f: %v", produce()) //retrylint:ignore foo,bar the message is shown to operators
}

func _() error {
	/* want `names unknown check "retryflaten" and suppresses nothing` */ return fmt.Errorf("g: %v", produce()) //retrylint:ignore retryflaten
}

func _() error {
	/* want `//nolint names unknown check "poisonak" and suppresses nothing: correct it to poisonack \(checks: retryflatten, termbeforedlq, barenak, ackretryable, dlqunchecked, poisonack, settletwice, ackpermanent, retrylint\)` */ return fmt.Errorf("h: %v", produce()) //nolint:poisonak
}

func _() error {
	/* want `//nolint names unknown check "retrylnt" and suppresses nothing: correct it to retrylint` */ return fmt.Errorf("i: %v", produce()) //nolint:errcheck,retrylnt // legacy
}

// Plain reasons: each suppresses the finding on its line, and is used.

func _() error {
	return fmt.Errorf("j: %v", produce()) //retrylint:ignore retries are fine here
}

func _() error {
	return fmt.Errorf("k: %v", produce()) //retrylint:ignore break glass only: operators read the text
}

func _() error {
	return fmt.Errorf("l: %v", produce()) //retrylint:ignore ok, operators read the text
}

func _() error {
	return fmt.Errorf("m: %v", produce()) //retrylint:ignore retryflatten, barenak operators read the text
}

// Other linters' names are not misspelled checks.

func _() {
	_ = 1 //nolint:gosec,nakedret,errorlint,unparam // other linters
}
