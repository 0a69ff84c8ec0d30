package exclude

import "fmt"

// Excluded by -retryflatten.exclude=exclude/flattened.go, a relative glob
// (matched at any depth).

func _() error {
	return fmt.Errorf("c: %v", produce())
}
