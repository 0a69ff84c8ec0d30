// Package a holds the shapes retryflatten must report: a retryable error
// (from a producer in this package or retrykit, or of a carrier type)
// turned into a new error that no longer holds it.
package a

import (
	"context"
	"errors"
	"fmt"
	"time"

	"retrykit"
)

type Order struct{ ID string }

var ErrInventory = errors.New("inventory failed")

// reserve is a retryable producer: it returns a carrier from retrykit.
func reserve(ctx context.Context, o Order) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), 5*time.Second)
	}
	return nil
}

// charge is a producer through a %w wrap of another producer.
func charge(ctx context.Context, o Order) error {
	if err := reserve(ctx, o); err != nil {
		return fmt.Errorf("charge %s: %w", o.ID, err)
	}
	return nil
}

// lookup is a producer with two results.
func lookup(id string) (Order, error) {
	return Order{}, &retrykit.TransientError{Op: "lookup", Delay: time.Second}
}

// fetch is a producer through a named result and a bare return.
func fetch(id string) (o Order, err error) {
	o, err = lookup(id)
	return
}

// classify returns the carrier interface itself.
func classify(err error) retrykit.Retryable {
	return &retrykit.TransientError{Op: "classify"}
}

type Service struct{}

func (s *Service) Load(ctx context.Context) error {
	return retrykit.RetryAfter(errors.New("db busy"), time.Second)
}

// AppError keeps only text.
type AppError struct {
	Code int
	Msg  string
}

func (e *AppError) Error() string { return e.Msg }

// OpaqueError holds the error but cannot be unwrapped.
type OpaqueError struct {
	Op  string
	Err error
}

func (e OpaqueError) Error() string { return e.Op + ": " + e.Err.Error() }

// WrapError can be unwrapped: it keeps retry intent.
type WrapError struct{ Err error }

func (e *WrapError) Error() string { return e.Err.Error() }
func (e *WrapError) Unwrap() error { return e.Err }

// annotate flattens its error parameter; calls with retryable errors are
// reported, its body is not.
func annotate(err error, op string) error { // want annotate:"flattens param 0"
	return fmt.Errorf("%s failed: %v", op, err)
}

// describe flattens through annotate.
func describe(err error) error { // want describe:"flattens param 0"
	return annotate(err, "describe")
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("reserve: %v", err) // want `retryable error err formatted with %v loses its retry delay: wrap it with %w`
}

func _(ctx context.Context, o Order) error {
	if err := reserve(ctx, o); err != nil {
		return fmt.Errorf("reserve %s: %s", o.ID, err) // want `retryable error err formatted with %s loses its retry delay`
	}
	return nil
}

func _(ctx context.Context, o Order) error {
	err := charge(ctx, o)
	return fmt.Errorf("charge: %q", err) // want `formatted with %q`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("reserve: %+v", err) // want `formatted with %\+v`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("%[2]s: %[1]v", err, o.ID) // want `retryable error err formatted with %\[1\]v`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return errors.New(err.Error()) // want `new error built from the text of retryable error err loses its retry delay: wrap it with fmt.Errorf and %w`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return errors.New("reserve: " + err.Error()) // want `text of retryable error err`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return errors.New(fmt.Sprintf("reserve %s: %v", o.ID, err)) // want `text of retryable error err`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return errors.New(fmt.Sprint("reserve: ", err)) // want `text of retryable error err`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf(err.Error()) // want `text of retryable error err`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return &AppError{Code: 503, Msg: err.Error()} // want `\*?AppError keeps only the text of retryable error err and loses its retry delay: store the error and give`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return OpaqueError{Op: "reserve", Err: err} // want `OpaqueError wraps retryable error err but has no Unwrap method, so errors.As cannot find its retry delay: add Unwrap\(\) error`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return annotate(err, "reserve") // want `annotate flattens retryable error err to a string and loses its retry delay: make annotate wrap it with %w`
}

func _(ctx context.Context, o Order) error {
	return describe(reserve(ctx, o)) // want `describe flattens retryable error reserve\(ctx, o\)`
}

func _(te *retrykit.TransientError) error {
	return fmt.Errorf("lookup: %v", te) // want `retryable error te formatted with %v`
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	wrapped := fmt.Errorf("order %s: %w", o.ID, err)
	return fmt.Errorf("handler: %v", wrapped) // want `retryable error wrapped formatted with %v`
}

func _(ctx context.Context, o Order) error {
	joined := errors.Join(ErrInventory, reserve(ctx, o))
	return fmt.Errorf("handler: %v", joined) // want `retryable error joined formatted`
}

func _(ctx context.Context, o Order) error {
	var e error = &WrapError{Err: reserve(ctx, o)}
	return fmt.Errorf("handler: %v", e) // want `retryable error e formatted`
}

func _(ctx context.Context, s *Service) error {
	load := s.Load
	err := load(ctx)
	return fmt.Errorf("load: %v", err) // want `retryable error err formatted`
}

func _(ctx context.Context) error {
	publish := func() error {
		return retrykit.RetryAfter(errors.New("no responders"), 2*time.Second)
	}
	if err := publish(); err != nil {
		return fmt.Errorf("publish: %v", err) // want `retryable error err formatted`
	}
	return nil
}

func _(err error) error {
	r := classify(err)
	return fmt.Errorf("classified: %v", r) // want `retryable error r formatted`
}

func _(id string) error {
	_, err := fetch(id)
	if err != nil {
		return fmt.Errorf("fetch %s: %v", id, err) // want `retryable error err formatted`
	}
	return nil
}

func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("%w: %v", ErrInventory, err) // want `retryable error err formatted with %v`
}

func _(ctx context.Context, o Order) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = reserve(ctx, o); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up: %v", err) // want `retryable error err formatted`
}

// The classification failed on one path only: the other path still
// flattens a retryable error.
func _(ctx context.Context, o Order, strict bool) error {
	err := reserve(ctx, o)
	if strict {
		if _, ok := retrykit.RetryDelay(err); ok {
			return err
		}
	}
	return fmt.Errorf("reserve: %v", err) // want `retryable error err formatted with %v`
}

// A wrap that keeps another error does not keep this one.
func _(ctx context.Context, o Order) error {
	err := reserve(ctx, o)
	return fmt.Errorf("%w: %v", ErrInventory, err) // want `retryable error err formatted with %v`
}
