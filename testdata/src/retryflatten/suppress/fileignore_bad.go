package suppress

// //retrylint:file-ignore directives that do not silence retryflatten:
// without a reason, naming another check, with a typo in the list, or
// without a check list (file-ignore always names its checks).

//retrylint:file-ignore retryflatten

//retrylint:file-ignore barenak the stream caps deliveries

//retrylint:file-ignore retryflaten the caller retries on its own schedule

//retrylint:file-ignore the caller retries on its own schedule

import "fmt"

func _() error {
	return fmt.Errorf("fc: %v", produce()) // want `formatted with %v`
}
