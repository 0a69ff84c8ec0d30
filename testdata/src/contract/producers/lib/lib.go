// Package lib proves which functions the contract model infers to be
// retryable producers or wrapping helpers, and which it must not.
package lib

import (
	"errors"
	"fmt"
	"io"
	"time"

	"retrykit"
)

type Client struct{}

func Direct() error { // want Direct:"retryable producer"
	return retrykit.RetryAfter(io.ErrUnexpectedEOF, time.Second)
}

func Concrete() *retrykit.TransientError { // want Concrete:"retryable producer"
	return &retrykit.TransientError{Op: "concrete"}
}

func Wrapped() error { // want Wrapped:"retryable producer"
	return fmt.Errorf("wrapped: %w", Direct())
}

func Joined() error { // want Joined:"retryable producer"
	return errors.Join(io.EOF, Direct())
}

type wrapper struct{ err error }

func (w wrapper) Error() string { return w.err.Error() }
func (w wrapper) Unwrap() error { return w.err }

type opaque struct{ err error }

func (o opaque) Error() string { return o.err.Error() }

func ThroughWrapper() error { // want ThroughWrapper:"retryable producer"
	return wrapper{err: Direct()}
}

func (c *Client) Method() (int, error) { // want Method:"retryable producer"
	n, err := 0, Wrapped()
	return n, err
}

func Named() (err error) { // want Named:"retryable producer"
	err = Direct()
	return
}

func MethodValue(c *Client) error { // want MethodValue:"retryable producer"
	m := c.Method
	_, err := m()
	return err
}

func Closure() error { // want Closure:"retryable producer"
	get := func() error { return Direct() }
	return get()
}

func Generic[T any](v T) (T, error) { // want Generic:"retryable producer"
	return v, Direct()
}

func Instantiated() error { // want Instantiated:"retryable producer"
	_, err := Generic(1)
	return err
}

func Wrap(op string, err error) error { // want Wrap:"wraps param 1"
	return fmt.Errorf("%s: %w", op, err)
}

func ThroughHelper() error { // want ThroughHelper:"retryable producer"
	return Wrap("helper", Direct())
}

// Not producers.

func Plain() error { return errors.New("plain") }

func Opaque() error { return opaque{err: Direct()} }

func Flattened() error { return fmt.Errorf("flat: %v", Direct()) }

func Replaced() error {
	err := Direct()
	err = io.EOF
	return err
}

type Source interface{ Fetch() error }

func ViaInterface(s Source) error { return s.Fetch() }

func ViaFuncValue(f func() error) error { return f() }

func NotAnErrorResult() time.Duration {
	d, _ := retrykit.RetryDelay(Direct())
	return d
}

// Package-level error values.

var ErrThrottled = retrykit.RetryAfter(errors.New("throttled"), 5*time.Second) // want ErrThrottled:"retryable error value"

var ErrBusy error = &retrykit.TransientError{Op: "busy"} // want ErrBusy:"retryable error value"

var ErrPlain = errors.New("plain")

func Throttled() error { // want Throttled:"retryable producer"
	return ErrThrottled
}
