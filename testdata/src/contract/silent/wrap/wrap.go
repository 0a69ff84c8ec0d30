// Package wrap joins errors and keeps them (a wrapsFact).
package wrap

import "errors"

// ErrRun marks the failures of a run.
var ErrRun = errors.New("run failed")

// Wrap marks err as a run's failure, keeping it.
func Wrap(err error) error {
	return errors.Join(ErrRun, err)
}
