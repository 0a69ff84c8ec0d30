package testfuncs

import (
	"fmt"
	"testing"
)

// Test functions drive the broker on purpose: quiet.

func TestHandle(t *testing.T) {
	_ = func() error {
		return fmt.Errorf("%v", produce())
	}
}

func BenchmarkHandle(b *testing.B) {
	_ = func() error {
		return fmt.Errorf("%v", produce())
	}
}

func FuzzHandle(f *testing.F) {
	_ = func() error {
		return fmt.Errorf("%v", produce())
	}
}

func TestMain(m *testing.M) {
	_ = func() error {
		return fmt.Errorf("%v", produce())
	}
}

// The rest of a test file is code like any other: reported.

func helper(t *testing.T) {
	_ = func() error {
		return fmt.Errorf("%v", produce()) // want `retryable error produce\(\) formatted with %v loses its retry delay`
	}
}

func ExampleHandle() {
	_ = func() error {
		return fmt.Errorf("%v", produce()) // want `retryable error produce\(\) formatted with %v loses its retry delay`
	}
}

// Testimony is not a test function: go test runs TestXxx only when Xxx
// does not start with a lower-case letter.
func Testimony(t *testing.T) {
	_ = func() error {
		return fmt.Errorf("%v", produce()) // want `retryable error produce\(\) formatted with %v loses its retry delay`
	}
}

// A method named like a test is not one either.
type suite struct{}

func (suite) TestHandle(t *testing.T) {
	_ = func() error {
		return fmt.Errorf("%v", produce()) // want `retryable error produce\(\) formatted with %v loses its retry delay`
	}
}
