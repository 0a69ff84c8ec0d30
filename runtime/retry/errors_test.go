package retry_test

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/retrylint/retrylint/runtime/retry"
)

// carrier is a retry carrier defined outside package retry: intent travels as
// behaviour, not as a concrete type.
type carrier struct{ d time.Duration }

func (c carrier) Error() string             { return "carrier" }
func (c carrier) RetryDelay() time.Duration { return c.d }

// opaque wraps an error without Unwrap: it kills the intent.
type opaque struct{ err error }

func (o opaque) Error() string { return o.err.Error() }

func TestRetryAfterNilBecomesRetryRequested(t *testing.T) {
	err := retry.RetryAfter(nil, time.Second)
	if !errors.Is(err, retry.ErrRetryRequested) {
		t.Fatalf("RetryAfter(nil) = %v, want it to wrap ErrRetryRequested", err)
	}
	if d, ok := retry.RetryDelay(err); !ok || d != time.Second {
		t.Fatalf("RetryDelay = %v, %v; want 1s, true", d, ok)
	}
	if !errors.Is(retry.Transient(nil), retry.ErrRetryRequested) {
		t.Fatal("Transient(nil) does not wrap ErrRetryRequested")
	}
	if retry.Permanent(nil) != nil {
		t.Fatal("Permanent(nil) != nil")
	}
}

func TestRetryAfterClampsNegativeDelay(t *testing.T) {
	err := retry.RetryAfter(io.EOF, -5*time.Second)
	d, ok := retry.RetryDelay(err)
	if !ok || d != 0 {
		t.Fatalf("RetryDelay = %v, %v; want 0, true", d, ok)
	}
	// A foreign carrier with a negative delay is clamped on the way out too.
	if d, ok := retry.RetryDelay(carrier{-time.Second}); !ok || d != 0 {
		t.Fatalf("RetryDelay(negative carrier) = %v, %v; want 0, true", d, ok)
	}
	if c := retry.Classify(carrier{-time.Second}); c.Kind != retry.KindDelayed || c.Delay != 0 {
		t.Fatalf("Classify(negative carrier) = %+v", c)
	}
}

func TestTransientErrorMethods(t *testing.T) {
	err := retry.RetryAfter(io.EOF, 3*time.Second)
	var te *retry.DelayedError
	if !errors.As(err, &te) {
		t.Fatal("RetryAfter does not return a *DelayedError")
	}
	if te.Unwrap() != io.EOF || te.RetryDelay() != 3*time.Second {
		t.Fatalf("Unwrap/RetryDelay = %v/%v", te.Unwrap(), te.RetryDelay())
	}
	if got, want := err.Error(), "EOF (retry after 3s)"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, io.EOF) {
		t.Fatal("cause lost")
	}
}

func TestRetryDelaySurvivesWrapping(t *testing.T) {
	base := retry.RetryAfter(io.ErrUnexpectedEOF, 2*time.Second)
	cases := map[string]error{
		"%w":              fmt.Errorf("load: %w", base),
		"%w twice":        fmt.Errorf("a: %w", fmt.Errorf("b: %w", base)),
		"multi %w":        fmt.Errorf("%w and %w", io.EOF, base),
		"errors.Join":     errors.Join(io.EOF, base),
		"foreign":         fmt.Errorf("x: %w", carrier{2 * time.Second}),
		"join of foreign": errors.Join(nil, carrier{2 * time.Second}),
	}
	for name, err := range cases {
		d, ok := retry.RetryDelay(err)
		if !ok || d != 2*time.Second {
			t.Errorf("%s: RetryDelay = %v, %v; want 2s, true", name, d, ok)
		}
		if c := retry.Classify(err); c.Kind != retry.KindDelayed || c.Delay != 2*time.Second {
			t.Errorf("%s: Classify = %+v", name, c)
		}
	}
}

func TestRetryDelayDiesWhenFlattened(t *testing.T) {
	base := retry.RetryAfter(io.EOF, time.Second)
	cases := map[string]error{
		"%v":                 fmt.Errorf("load: %v", base),
		"errors.New":         errors.New(base.Error()),
		"wrapper w/o Unwrap": opaque{base},
	}
	for name, err := range cases {
		if d, ok := retry.RetryDelay(err); ok {
			t.Errorf("%s: RetryDelay = %v, true; the intent should be gone", name, d)
		}
		if c := retry.Classify(err); c.Kind != retry.KindPermanent {
			t.Errorf("%s: Classify = %v, want permanent", name, c.Kind)
		}
	}
}

func TestClassify(t *testing.T) {
	delayed := retry.RetryAfter(io.EOF, time.Second)
	cases := []struct {
		name  string
		err   error
		kind  retry.Kind
		delay time.Duration
	}{
		{"nil", nil, retry.KindNone, 0},
		{"plain error is permanent", io.EOF, retry.KindPermanent, 0},
		{"RetryAfter", delayed, retry.KindDelayed, time.Second},
		{"RetryAfter zero", retry.RetryAfter(io.EOF, 0), retry.KindDelayed, 0},
		{"Transient", retry.Transient(io.EOF), retry.KindTransient, 0},
		{"wrapped Transient", fmt.Errorf("x: %w", retry.Transient(io.EOF)), retry.KindTransient, 0},
		{"Permanent", retry.Permanent(io.EOF), retry.KindPermanent, 0},
		{"Permanent outside RetryAfter wins", retry.Permanent(delayed), retry.KindPermanent, 0},
		{"RetryAfter outside Permanent wins", retry.RetryAfter(retry.Permanent(io.EOF), 2*time.Second), retry.KindDelayed, 2 * time.Second},
		{"Join: first marker wins", errors.Join(retry.Transient(io.EOF), delayed), retry.KindTransient, 0},
		{"Join: markers after plain errors", errors.Join(io.EOF, delayed), retry.KindDelayed, time.Second},
		{"Permanent() false is no marker", fmt.Errorf("x: %w", notPermanent{delayed}), retry.KindDelayed, time.Second},
		{"Retryable() false is no marker", notRetryable{}, retry.KindPermanent, 0},
	}
	for _, tc := range cases {
		c := retry.Classify(tc.err)
		if c.Kind != tc.kind || c.Delay != tc.delay {
			t.Errorf("%s: Classify = %v/%v, want %v/%v", tc.name, c.Kind, c.Delay, tc.kind, tc.delay)
		}
		if want := tc.kind == retry.KindDelayed || tc.kind == retry.KindTransient; c.Transient() != want {
			t.Errorf("%s: Transient() = %v", tc.name, c.Transient())
		}
	}
}

type notPermanent struct{ err error }

func (e notPermanent) Error() string   { return "not permanent" }
func (e notPermanent) Unwrap() error   { return e.err }
func (e notPermanent) Permanent() bool { return false }

type notRetryable struct{}

func (notRetryable) Error() string   { return "no" }
func (notRetryable) Retryable() bool { return false }

func TestKindString(t *testing.T) {
	got := []string{retry.KindNone.String(), retry.KindPermanent.String(), retry.KindDelayed.String(), retry.KindTransient.String(), retry.Kind(9).String()}
	want := []string{"none", "permanent", "delayed", "transient", "Kind(9)"}
	if !slices.Equal(got, want) {
		t.Fatalf("Kind strings = %q, want %q", got, want)
	}
}

func TestTypeNames(t *testing.T) {
	err := fmt.Errorf("ctx: %w", errors.Join(retry.RetryAfter(io.EOF, time.Second), retry.Permanent(io.ErrClosedPipe)))
	got := retry.TypeNames(err)
	want := []string{"*fmt.wrapError", "*errors.joinError", "*retry.DelayedError", "*errors.errorString", "*retry.PermanentError", "*errors.errorString"}
	if !slices.Equal(got, want) {
		t.Fatalf("TypeNames = %q, want %q", got, want)
	}
	if retry.TypeNames(nil) != nil {
		t.Fatal("TypeNames(nil) != nil")
	}
}

func TestErrorTexts(t *testing.T) {
	if got := retry.Transient(io.EOF).Error(); got != "EOF" {
		t.Errorf("Transient text = %q", got)
	}
	if got := retry.Permanent(io.EOF).Error(); got != "EOF" {
		t.Errorf("Permanent text = %q", got)
	}
	var pe *retry.PermanentError
	if !errors.As(retry.Permanent(io.EOF), &pe) || pe.Unwrap() != io.EOF {
		t.Error("PermanentError does not unwrap to its cause")
	}
	var re *retry.TransientError
	if !errors.As(retry.Transient(io.EOF), &re) || re.Unwrap() != io.EOF {
		t.Error("TransientError does not unwrap to its cause")
	}
}
