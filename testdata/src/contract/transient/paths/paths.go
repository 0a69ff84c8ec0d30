// Package paths proves the facts the contract model's transient-path
// analysis gives at each probe() call. The probe reports them as
// space-separated marks: T:err[:delay] (a retry classification of err
// succeeded, with the delay expression in scope), P:err (the error branch
// of a retryable producer's err), B:err (that branch, with err not
// classified since it was produced), E (an error is known non-nil), Z (a
// delay is known <= 0), "-" (nothing) and "none" (not evaluated here).
// The nil key of errors not held in a variable prints as "_".
package paths

import (
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"time"

	"contract/transient/classify"
)

func probe() {}

type retryDelayer interface{ RetryDelay() time.Duration }

type Store interface{ Save(key string) error }

// process is a retryable producer through classify.Unavailable.
func process(key string) error {
	if key == "" {
		return classify.Unavailable("process", time.Second)
	}
	return nil
}

func fetch(key string) ([]byte, error) {
	if err := process(key); err != nil {
		return nil, fmt.Errorf("fetch %s: %w", key, err)
	}
	return nil, nil
}

func validate(key string) error { return errors.New("invalid key") }

func isRetryable(err error) bool { return strings.Contains(err.Error(), "retry") }

func _() {
	if err := process("a"); err != nil {
		probe() // want `^P:err B:err E$`
	}
	probe() // want `^-$`
}

func _() {
	data, err := fetch("a")
	if err == nil {
		_ = data
		return
	}
	probe() // want `^P:err B:err E$`
}

func _() {
	if err := validate("a"); err != nil {
		probe() // want `^E$`
	}
}

func _(s Store) {
	err := s.Save("a")
	if d, ok := classify.RetryDelay(err); ok {
		probe() // want `^T:err:d E$`
	} else {
		probe() // want `^-$`
	}
}

func _() {
	err := process("a")
	if err != nil {
		d, ok := classify.RetryDelay(err)
		if !ok {
			probe() // want `^E$`
			return
		}
		probe() // want `^T:err:d E$`
		if d > 0 {
			return
		}
		probe() // want `^T:err:d E Z$`
	}
}

func _(s Store) {
	err := s.Save("a")
	var rd retryDelayer
	if errors.As(err, &rd) {
		probe() // want `^T:err:rd.RetryDelay\(\) E$`
		if rd.RetryDelay() <= 0 {
			probe() // want `^T:err:rd.RetryDelay\(\) E Z$`
		}
	}
}

func _(s Store) {
	err := s.Save("a")
	var te *classify.TempError
	switch {
	case err == nil:
		probe() // want `^-$`
	case errors.As(err, &te):
		probe() // want `^T:err:te.RetryDelay\(\) E$`
	default:
		probe() // want `^E$`
	}
}

func _() {
	err := process("a")
	switch e := err.(type) {
	case nil:
		probe() // want `^-$`
	case *classify.TempError:
		probe() // want `^T:err:e.RetryDelay\(\) E$`
	default:
		probe() // want `^E$`
	}
}

// A case of several types: its body knows what one of them tells (the
// join of what each type's success tells), the edge past it that none
// matched, whatever order the CFG tests them in.
func _() {
	err := process("a")
	switch err.(type) {
	case *classify.TempError, nil:
		probe() // want `^-$`
	default:
		probe() // want `^E$`
	}
}

func _() {
	err := process("a")
	switch err.(type) {
	case nil, *classify.TempError:
		probe() // want `^-$`
	default:
		probe() // want `^E$`
	}
}

func _(err error) {
	switch err.(type) {
	case *classify.TempError, retryDelayer:
		probe() // want `^T:err E$`
	case *strings.Reader:
		probe() // want `^E$`
	default:
		probe() // want `^-$`
	}
}

func _() {
	err := process("a")
	switch err.(type) {
	case *classify.TempError:
	case retryDelayer, nil:
		probe() // want `^-$`
	default:
		probe() // want `^E$`
	}
}

func _(s Store) {
	if err := s.Save("a"); isRetryable(err) {
		probe() // want `^T:err E$`
	}
	if err := s.Save("b"); classify.ShouldRetry(err) {
		probe() // want `^T:err E$`
	}
	if err := s.Save("c"); !classify.ShouldRetry(err) {
		probe() // want `^-$`
	}
}

func _() {
	if err := process("a"); err != nil {
		err = fmt.Errorf("process: %v", err)
		probe() // want `^E$`
	}
	if err := process("b"); err != nil {
		err = fmt.Errorf("process: %w", err)
		probe() // want `^P:err B:err E$`
	}
	if err := process("c"); err != nil {
		err = validate("c")
		probe() // want `^-$`
	}
}

func _() {
	var err error
	for i := 0; i < 3; i++ {
		if err = process("a"); err == nil {
			break
		}
	}
	probe() // want `^-$`
	if err != nil {
		probe() // want `^P:err B:err E$`
	}
}

func _() {
	if err := process("a"); err != nil {
		if errors.Is(err, io.EOF) {
			probe() // want `^E$`
			return
		}
		probe() // want `^P:err E$`
	}
}

func _() {
	if err := process("a"); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			probe() // want `^E$`
		}
		if err == io.EOF {
			probe() // want `^E$`
		}
		log.Printf("process: %v", err)
		probe() // want `^E$`
	}
}

func _() {
	if err := process("a"); err != nil {
		log.Printf("process: %v", err)
		probe() // want `^P:err B:err E$`
	}
}

func _() {
	if err := process("a"); err != nil {
		if d, ok := classify.RetryDelay(err); ok && d > 0 {
			probe() // want `^T:err:d E$`
		} else if ok {
			probe() // want `^T:err:d E Z$`
		} else {
			probe() // want `^E$`
		}
	}
}

func _(s Store) {
	err := s.Save("a")
	d, ok := classify.DelayOf(err)
	if !ok || d <= 0 {
		return
	}
	probe() // want `^T:err:d E$`
	if d < time.Minute {
		probe() // want `^T:err:d E$`
	}
	switch d {
	case 0:
		probe() // want `^T:err:d E Z$`
	}
}

func _() {
	if process("a") != nil {
		probe() // want `^P:_ B:_ E$`
	}
}

func _(s Store) {
	save := s.Save
	if err := save("a"); err != nil {
		probe() // want `^E$`
	}
}

func _() {
	if err := process("a"); err != nil {
		defer probe() // want `^none$`
		go func() {
			probe() // want `^-$`
		}()
	}
}

func _() {
	err := process("a")
	d, ok := classify.RetryDelay(err)
	err = validate("a")
	if ok {
		probe() // want `^-$`
	}
	_ = d
}

func _(s Store) {
	err := s.Save("a")
	if t, ok := err.(*classify.TempError); ok {
		probe() // want `^T:err:t.RetryDelay\(\) E$`
	}
}

func _(err error) {
	const ack, retry, dead = 0, 1, 2
	act, delay := ack, time.Duration(0)
	if err != nil {
		if d, ok := classify.RetryDelay(err); ok {
			act, delay = retry, d
			probe() // want `^T:err:d E$`
		} else {
			act = dead
		}
	}
	switch act {
	case retry:
		probe() // want `^T:err:delay E$`
	case dead:
		probe() // want `^-$`
	}
	_ = delay
}

// The false side of ok && d > 0: a later classification of the same error
// that succeeds finds a delay <= 0. Another bound tells nothing; nor does a
// predicate known only by its name, or a replaced error.
func _(err error) {
	if d, ok := classify.RetryDelay(err); ok && d > 0 {
		return
	}
	probe() // want `^-$`
	if classify.ShouldRetry(err) {
		probe() // want `^T:err E Z$`
	}
	if d, ok := classify.RetryDelay(err); ok {
		probe() // want `^T:err:d E Z$`
	}
	werr := fmt.Errorf("again: %w", err)
	if classify.ShouldRetry(werr) {
		probe() // want `^T:werr E Z$`
	}
	err = validate("a")
	if classify.ShouldRetry(err) {
		probe() // want `^T:err E$`
	}
}

func _(err error) {
	if d, ok := classify.RetryDelay(err); ok {
		if d > 0 {
			return
		}
	}
	if classify.ShouldRetry(err) {
		probe() // want `^T:err E Z$`
	}
}

func _(err error) {
	if d, ok := classify.RetryDelay(err); ok && d > time.Minute {
		return
	}
	if classify.ShouldRetry(err) {
		probe() // want `^T:err E$`
	}
	if isRetryable(err) {
		return
	}
	if d, ok := classify.RetryDelay(err); ok {
		probe() // want `^T:err:d E$`
	}
}

func _(err error) {
	if isRetryable(err) {
		return
	}
	if classify.ShouldRetry(err) {
		probe() // want `^T:err E$`
	}
}

// A variable that records the decision as a constant brings the facts of
// the paths that set it back to its tests; a test it cannot pass is
// unreachable.
func _(err error) {
	retry := false
	if classify.ShouldRetry(err) {
		retry = true
	}
	if retry {
		probe() // want `^T:err E$`
	} else {
		probe() // want `^-$`
	}
	const idle, busy = "idle", "busy"
	state := idle
	if state == busy {
		probe() // want `^none$`
	}
	state = strings.ToLower(state)
	if state == busy {
		probe() // want `^-$`
	}
}
