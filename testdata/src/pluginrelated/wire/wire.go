// Package wire is a helper package of the pluginrelated consumer: Describe
// flattens the error it is given, so a call of it with a retryable error
// is reported at the call, with Describe's %v as a related location in
// this other file.
package wire

import "fmt"

// Describe formats an operation's failure for the logs and the caller.
func Describe(op string, err error) error {
	return fmt.Errorf("%s: %v", op, err)
}
