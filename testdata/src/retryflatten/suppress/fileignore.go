// A //retrylint:file-ignore naming the check, with a reason, silences it
// in its whole file.

//retrylint:file-ignore retryflatten,barenak the operators' console shows these errors verbatim

package suppress

import "fmt"

func _() error {
	return fmt.Errorf("fa: %v", produce())
}

func _() error {
	return fmt.Errorf("fb: %v", produce())
}
