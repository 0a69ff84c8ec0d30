// Package exits has functions that never return (cfgs.NoReturnFact),
// which a silent package keeps: they end in panic, in os.Exit, or in a
// call of another such function, through a method too.
package exits

import (
	"fmt"
	"os"
)

// Fail ends the process.
func Fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format, args...)
	os.Exit(1)
}

// Must panics with err.
func Must(err error) {
	panic(err)
}

// Checker fails through its method.
type Checker struct{ name string }

// Abort never returns.
func (c *Checker) Abort() { Fail("%s: aborted", c.name) }
