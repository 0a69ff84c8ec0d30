// Package app proves producer facts cross package boundaries.
package app

import (
	"fmt"

	"contract/producers/lib"
)

func Reserve() error { // want Reserve:"retryable producer"
	if err := lib.Instantiated(); err != nil {
		return lib.Wrap("reserve", err)
	}
	return nil
}

func Plain() error {
	return lib.Wrap("plain", fmt.Errorf("no carrier"))
}

func Throttle() error { // want Throttle:"retryable producer"
	return lib.ErrThrottled
}

func Busy() error { // want Busy:"retryable producer"
	return fmt.Errorf("app: %w", lib.ErrBusy)
}

func PlainValue() error {
	return lib.ErrPlain
}
