package retry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/retrylint/retrylint/runtime/retry"
)

func ExampleRetryAfter() {
	// Classify once, where the cause is known...
	err := retry.RetryAfter(io.ErrUnexpectedEOF, 2*time.Second)
	// ...and the intent survives %w and errors.Join on the way up.
	err = errors.Join(fmt.Errorf("reserve stock: %w", err), io.EOF)
	d, ok := retry.RetryDelay(err)
	fmt.Println(d, ok)
	// Output: 2s true
}

func ExampleClassify() {
	for _, err := range []error{
		errors.New("no such customer"),
		retry.RetryAfter(io.EOF, time.Second),
		retry.Transient(io.EOF),
		retry.Permanent(retry.RetryAfter(io.EOF, time.Second)),
	} {
		c := retry.Classify(err)
		fmt.Println(c.Kind, c.Delay)
	}
	// Output:
	// permanent 0s
	// delayed 1s
	// transient 0s
	// permanent 0s
}

func ExamplePolicy_Window() {
	p, err := retry.NewPolicy(retry.WithBase(time.Second), retry.WithCap(30*time.Second), retry.WithMaxAttempts(50))
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Step(1), p.Step(3), p.Step(9), p.Window())
	// Output: 1s 4s 30s 22m55.5s
}

func ExampleDo() {
	p, _ := retry.NewPolicy(retry.WithBase(time.Millisecond), retry.WithJitter(0))
	calls := 0
	err := retry.Do(context.Background(), p, func(context.Context) error {
		calls++
		if calls < 3 {
			return retry.Transient(errors.New("busy"))
		}
		return nil
	})
	fmt.Println(calls, err)
	// Output: 3 <nil>
}
