// Package testfuncs proves that test functions are out of scope: the
// same defect is quiet in Test, Benchmark and Fuzz functions and TestMain,
// and reported in a test file's helpers, in Example functions and in a
// function whose name only starts like a test's.
package testfuncs

import (
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

// HandleTerm Terms an undecodable payload. The package writes no dead
// letter but in a test function, out of scope: terminating is its policy,
// not a dead-letter write forgotten here.
func HandleTerm(msg jetstream.Msg) error {
	var v map[string]any
	if err := json.Unmarshal(msg.Data(), &v); err != nil {
		return msg.Term()
	}
	return msg.Ack()
}
