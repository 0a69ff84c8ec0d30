package contract

// RetryInSight reports whether an error of the package can hold a retry
// carrier at all (vocabulary.go): when not, no error is retryable there.
func (m *Model) RetryInSight() bool { return m.gate.MayRetry }
