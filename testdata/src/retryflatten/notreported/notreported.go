// Package notreported holds look-alikes of every retryflatten positive that
// must stay quiet: %w and errors.Join keep the intent, logging makes no new
// error, and errors that cannot be retryable have nothing to lose.
package notreported

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"retrykit"
)

type Order struct{ ID string }

var ErrInventory = errors.New("inventory failed")

func reserve(ctx context.Context, o Order) error {
	return retrykit.RetryAfter(errors.New("busy"), time.Second)
}

// Store is an interface: what its methods return is of unknown origin.
type Store interface {
	Get(ctx context.Context, id string) (Order, error)
}

// AppError keeps the error and unwraps to it.
type AppError struct {
	Msg string
	Err error
}

func (e *AppError) Error() string { return e.Msg }
func (e *AppError) Unwrap() error { return e.Err }

// Deferred is itself a carrier: keeping only text is fine, the wrapper
// carries the delay.
type Deferred struct {
	Msg   string
	Delay time.Duration
}

func (e *Deferred) Error() string             { return e.Msg }
func (e *Deferred) RetryDelay() time.Duration { return e.Delay }

// MultiError forwards errors.As through an As method.
type MultiError struct{ Errs []error }

func (e *MultiError) Error() string { return "multiple errors" }
func (e *MultiError) As(target any) bool {
	for _, err := range e.Errs {
		if errors.As(err, target) {
			return true
		}
	}
	return false
}

// wrap returns its parameter wrapped with %w: it keeps retry intent.
func wrap(err error, op string) error { return fmt.Errorf("%s: %w", op, err) }

// annotate flattens, but only non-retryable errors reach it below.
func annotate(err error) error { // want annotate:"flattens param 0"
	return fmt.Errorf("annotated: %v", err)
}

// flattenBody flattens its parameter: its origin is unknown here, so the
// body is not reported.
func flattenBody(err error) error { // want flattenBody:"flattens param 0"
	return errors.New("failed: " + err.Error())
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("reserve %s: %w", o.ID, err)
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("%w: %w", ErrInventory, err)
}

func _(ctx context.Context, o Order) error {
	return errors.Join(ErrInventory, reserve(ctx, o))
}

func _(ctx context.Context, o Order) {
	err := reserve(ctx, o)
	log.Printf("reserve %s: %v", o.ID, err)
}

func _(ctx context.Context, o Order) {
	if err := reserve(ctx, o); err != nil {
		slog.Error("reserve failed", "order", o.ID, "err", err.Error())
	}
}

func _() error {
	err := errors.New("validation failed")
	return fmt.Errorf("validate: %v", err)
}

func _() error {
	return fmt.Errorf("read: %v", io.EOF)
}

func _(ctx context.Context, s Store) error {
	_, err := s.Get(ctx, "42")
	return fmt.Errorf("get: %v", err)
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	err = errors.New("replaced by a permanent error")
	return fmt.Errorf("reserve: %v", err)
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return &AppError{Msg: err.Error(), Err: err}
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return &Deferred{Msg: err.Error(), Delay: time.Minute}
}

func _(ctx context.Context, o Order) error {
	return &MultiError{Errs: []error{reserve(ctx, o)}}
}

func _(ctx context.Context, o Order) error {
	return wrap(reserve(ctx, o), "reserve")
}

func _() error {
	return annotate(io.ErrUnexpectedEOF)
}

func _(fetch func() error) error {
	err := fetch()
	return fmt.Errorf("fetch: %v", err)
}

func _(ctx context.Context, o Order) string {
	err := reserve(ctx, o)
	return fmt.Sprintf("reserve failed: %v", err)
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	d, _ := retrykit.RetryDelay(err)
	return fmt.Errorf("order %s deferred by %v", o.ID, d)
}

func _(count int) error {
	return fmt.Errorf("too many deliveries: %d", count)
}

func _(ctx context.Context, o Order) error {
	if err := reserve(ctx, o); err != nil {
		return err
	}
	return errors.New("order " + o.ID + " rejected")
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	if err != nil {
		err = fmt.Errorf("reserve: %w", err)
	}
	return err
}

// Event is no error type: storing an error's text in it makes no new error.
type Event struct {
	OrderID string
	Reason  string
}

func _(ctx context.Context, o Order) Event {
	err := reserve(ctx, o)
	return Event{OrderID: o.ID, Reason: err.Error()}
}

// Opaque cannot be unwrapped, but what it holds carries no retry intent.
type Opaque struct{ Err error }

func (e Opaque) Error() string { return e.Err.Error() }

func _() error {
	return Opaque{Err: io.ErrClosedPipe}
}

func _(ctx context.Context) error {
	return fmt.Errorf("shutting down: %v", ctx.Err())
}

func validate(o Order) error {
	if o.ID == "" {
		return errors.New("missing id")
	}
	return nil
}

func _(o Order) error {
	err := validate(o)
	return errors.New("invalid: " + err.Error())
}

func _(ctx context.Context, o Order, attempts int) error {
	err := reserve(ctx, o)
	return fmt.Errorf("order %s failed after %d attempts: %w", o.ID, attempts, err)
}

func _(o Order) error {
	return errors.New("order " + o.ID + " has no lines")
}

func _(ctx context.Context, o Order) {
	if err := reserve(ctx, o); err != nil {
		panic(fmt.Sprintf("unreachable: %v", err))
	}
}

func _(ctx context.Context, s Store) error {
	_, err := s.Get(ctx, "7")
	return annotate(err)
}

func _() error {
	var err error
	return fmt.Errorf("nothing happened: %v", err)
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	if err != nil {
		return fmt.Errorf("reserve %s: %w", o.ID, err)
	}
	err = validate(o)
	return fmt.Errorf("validate: %v", err)
}

// MultiWrap unwraps to several errors: errors.As walks all of them.
type MultiWrap struct {
	Op   string
	Errs []error
}

func (e *MultiWrap) Error() string   { return e.Op }
func (e *MultiWrap) Unwrap() []error { return e.Errs }

func _(ctx context.Context, o Order) error {
	return &MultiWrap{Op: "reserve", Errs: []error{reserve(ctx, o), ErrInventory}}
}

func _(ctx context.Context, o Order, attempt, max int) error {
	err := reserve(ctx, o)
	return fmt.Errorf("attempt %d/%d for order %s: %w", attempt, max, o.ID, err)
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("handler: %w", fmt.Errorf("reserve %s: %w", o.ID, err))
}

func _(ctx context.Context, o Order) error {
	return errors.Join(fmt.Errorf("reserve: %w", reserve(ctx, o)), io.ErrShortWrite)
}

func _(status string) error {
	return errors.New("inventory answered " + status)
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	d, ok := retrykit.RetryDelay(err)
	if ok {
		return fmt.Errorf("order %s: retry in %v: %w", o.ID, d, err)
	}
	return err
}

func _(data []byte) error {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return fmt.Errorf("decode order: %v", err)
	}
	return nil
}

func _(qty string) error {
	if _, err := strconv.Atoi(qty); err != nil {
		return &Deferred{Msg: "bad quantity: " + err.Error()}
	}
	return nil
}

func _(w http.ResponseWriter, ctx context.Context, o Order) {
	if err := reserve(ctx, o); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	}
}

func _(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return fmt.Errorf("first failure: %v", e)
		}
	}
	return nil
}

func _(ctx context.Context, o Order) error {
	handle := func(err error) error { return fmt.Errorf("handled: %v", err) }
	_ = handle
	return fmt.Errorf("reserve: %w", reserve(ctx, o))
}

func _(ctx context.Context, o Order) []string {
	var lines []string
	if err := reserve(ctx, o); err != nil {
		lines = append(lines, "reserve: "+err.Error())
	}
	return lines
}

func _(ctx context.Context, o Order) error {
	if err := reserve(ctx, o); err != nil {
		return fmt.Errorf("%w (while reserving %s: %v)", err, o.ID, err)
	}
	return nil
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("%w: %s", err, err.Error())
}

// The retry classification failed on every path to the flattening: the
// error provably carries no retry intent.
func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	if err == nil {
		return nil
	}
	if _, ok := retrykit.RetryDelay(err); ok {
		return err
	}
	return fmt.Errorf("permanent: %v", err)
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	if retrykit.IsRetryable(err) {
		return err
	}
	return errors.New("order " + o.ID + " rejected: " + err.Error())
}
