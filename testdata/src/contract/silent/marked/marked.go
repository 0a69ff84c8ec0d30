// Package marked keeps failed payloads in an archive that no name calls a
// dead-letter queue: a directive says so (a DLQ writer fact).
package marked

import "os"

// Archive keeps payload under key.
//
//retrylint:dlq
func Archive(key string, payload []byte) error {
	return os.WriteFile(key, payload, 0o600)
}
