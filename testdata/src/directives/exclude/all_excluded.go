package exclude

import "fmt"

func _() error {
	return fmt.Errorf("b: %v", produce()) //retrylint:ignore excluded for every check: not reported
}

func _() {
	_ = 1 //retrylint:ignore barenack nothing here, and nothing reported
}
