// Package mail holds typed job handlers that package app registers with
// the queue registry. SendWelcome drops a retryable error: a defect that
// app reports at its registration. The functions app registers as an
// observer, a probe or a canary drop one too, but no runner Acks their
// nil.
package mail

import (
	"context"
	"errors"
	"time"

	"retrykit"
)

// Welcome is the job of a welcome mail.
type Welcome struct{ To string }

// Kind implements queue.Kinded.
func (Welcome) Kind() string { return "mail.welcome" }

// Digest is the job of a weekly digest.
type Digest struct{ To string }

// Kind implements queue.Kinded.
func (Digest) Kind() string { return "mail.digest" }

// Bounce is the job of a bounce notice.
type Bounce struct{ To string }

// Kind implements queue.Kinded.
func (Bounce) Kind() string { return "mail.bounce" }

// Sender sends mail.
type Sender struct{}

// Deliver is a retryable producer.
func (s *Sender) Deliver(ctx context.Context, to string) error {
	if to == "" {
		return retrykit.RetryAfter(errors.New("smtp busy"), 5*time.Second)
	}
	return nil
}

// SendWelcome drops the retryable error of Deliver.
func (s *Sender) SendWelcome(ctx context.Context, job Welcome) error { // want SendWelcome:"drops a retryable error if a caller acks on nil"
	if err := s.Deliver(ctx, job.To); err != nil {
		return nil
	}
	return nil
}

// SendDigest returns it.
func (s *Sender) SendDigest(ctx context.Context, job Digest) error {
	return s.Deliver(ctx, job.To)
}

// Resend is registered untyped; it drops the retryable error too.
func (s *Sender) Resend(ctx context.Context, payload []byte) error { // want Resend:"drops a retryable error if a caller acks on nil"
	if err := s.Deliver(ctx, string(payload)); err != nil {
		return nil
	}
	return nil
}

// Audit is registered as an observer.
func (s *Sender) Audit(ctx context.Context, payload []byte) error { // want Audit:"drops a retryable error if a caller acks on nil"
	if err := s.Deliver(ctx, string(payload)); err != nil {
		return nil
	}
	return nil
}

// Check is registered as a probe.
func (s *Sender) Check(ctx context.Context, payload []byte) error { // want Check:"drops a retryable error if a caller acks on nil"
	if err := s.Deliver(ctx, string(payload)); err != nil {
		return nil
	}
	return nil
}

// Canary is registered as a canary.
func (s *Sender) Canary(ctx context.Context, payload []byte) error { // want Canary:"drops a retryable error if a caller acks on nil"
	if err := s.Deliver(ctx, string(payload)); err != nil {
		return nil
	}
	return nil
}
