package exclude

import "fmt"

// Excluded by -retrycontract.exclude=<dir>/legacy_*.go.

func _() error {
	return fmt.Errorf("b: %v", produce())
}
