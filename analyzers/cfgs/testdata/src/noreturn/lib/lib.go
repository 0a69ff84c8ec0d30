// Package lib is the other package of the no-return tests: its facts are
// what package a sees of it.
package lib

import "os"

// Fail always panics.
func Fail(msg string) { // want Fail:"no return"
	panic(msg)
}

// Exit calls os.Exit.
func Exit() { // want Exit:"no return"
	os.Exit(2)
}

// Wrapped never returns because the function it ends with never does.
func Wrapped() { // want Wrapped:"no return"
	Fail("wrapped")
}

// Returns returns.
func Returns() {}

// MayFail panics only sometimes.
func MayFail(bad bool) {
	if bad {
		panic("bad")
	}
}

// Spin never returns, but only the last statement is judged: a loop is
// taken to return, here as in package a.
func Spin() {
	for {
	}
}

// Logger has a method that never returns.
type Logger struct{}

// Die never returns.
func (Logger) Die() { // want Die:"no return"
	panic("die")
}

// Dier is an interface with a method named like Logger's.
type Dier interface{ Die() }
