// Package flatten remembers errors as text only (the retryflatten
// check's FlattensFact), returning nothing.
package flatten

import "fmt"

var last error

// Remember keeps err's text as the last failure.
func Remember(err error) {
	last = fmt.Errorf("failed: %v", err)
}

// Last returns the last failure.
func Last() string { return fmt.Sprint(last) }
