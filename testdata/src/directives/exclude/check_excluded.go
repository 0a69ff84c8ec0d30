package exclude

import "fmt"

func _() error {
	/* want `//retrylint:ignore retryflatten suppresses no finding of retryflatten: remove it` */ return fmt.Errorf("c: %v", produce()) //retrylint:ignore retryflatten excluded for retryflatten already
}
