package fix

// A deferred literal that re-annotates the named error result with %v
// flattens whatever the function returns: reported at the Errorf, fixed to
// %w.

import (
	"fmt"
	"log"
)

func reserve(id string) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("reserve %s: %v", id, err) // want `retryable error err formatted with %v loses its retry delay`
		}
	}()
	return process(id)
}

// The result assigned before a naked return.
func release(id string) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("release %s: %s", id, err) // want `retryable error err formatted with %s loses its retry delay`
		}
	}()
	err = process(id)
	return
}

// Not reported: %w keeps the chain.
func commit(id string) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("commit %s: %w", id, err)
		}
	}()
	return process(id)
}

// Not reported: nothing the function returns may be retryable.
func validate(id string) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("validate %s: %v", id, err)
		}
	}()
	if id == "" {
		return fmt.Errorf("empty id")
	}
	return nil
}

// Not reported: logging in the deferred literal makes no new error.
func audit(id string) (err error) {
	defer func() {
		if err != nil {
			log.Printf("audit %s: %v", id, err)
		}
	}()
	return process(id)
}

// Not reported: a literal that is called, not deferred, runs before the
// return.
func prepare(id string) (err error) {
	annotate := func() {
		if err != nil {
			err = fmt.Errorf("prepare %s: %v", id, err)
		}
	}
	annotate()
	return process(id)
}
