// Package fileignore proves the meta check on //retrylint:file-ignore: a
// used one is quiet; one without a reason, without checks, with an
// unknown name, or that suppresses nothing in its file is reported.
package fileignore

//retrylint:file-ignore retryflatten the operators' console shows these errors verbatim

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
	return fmt.Errorf("a: %v", produce())
}
