// Package deadletter keeps failed payloads for later, with no message in
// sight: its name says it writes a dead-letter queue (a DLQ writer fact).
package deadletter

import (
	"context"
	"os"
)

// Store keeps failed payloads.
type Store struct{ dir string }

// SendToDLQ keeps payload with the reason it failed.
func (s *Store) SendToDLQ(ctx context.Context, payload []byte, reason string) error {
	return os.WriteFile(s.dir+"/"+reason, payload, 0o600)
}

// Park keeps a payload that failed for good: a DLQ writer, since it
// calls one.
func (s *Store) Park(ctx context.Context, payload []byte) error {
	return s.SendToDLQ(ctx, payload, "parked")
}
