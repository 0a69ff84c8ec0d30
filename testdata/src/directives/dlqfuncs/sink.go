package dlqfuncs // want `dlq-funcs entry directives/dlqfuncs.Sink.Prak \(-retrycontract.dlq-funcs\) names no method Sink.Prak of package dlqfuncs: a typo hides findings`

// Sink parks messages that cannot be processed; the configuration names
// its Park method and deadLetter as DLQ writers, and Prak by a typo.
type Sink struct{}

func (Sink) Park(subject string, data []byte) error { return nil }

func deadLetter(data []byte) error { return Sink{}.Park("dlq.orders", data) }
