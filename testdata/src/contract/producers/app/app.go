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
