// Package app wires the job runner: it imports the registry (queue) and
// its runner (dispatch), so it sees that dispatch Acks where a Task's exec
// field returns nil and that queue.Register stores its handler there.
// Handlers registered with Register that drop a retryable error are
// reported, a function of package mail at the registration and a literal
// at its return; an observer, a probe and a canary registered with the
// same functions stay quiet.
package app

import (
	"context"

	"ackretryable/jobrunner/dispatch"
	"ackretryable/jobrunner/mail"
	"ackretryable/jobrunner/queue"
)

func _(s *mail.Sender) *dispatch.Runner {
	reg := queue.New()
	queue.Register(reg, s.SendWelcome) // want `retryable error err from Deliver is dropped by handler \(\*mail.Sender\).SendWelcome: returning nil makes queue.Register Ack the message`
	queue.Register(reg, s.SendDigest)
	queue.Register(reg, func(ctx context.Context, job mail.Bounce) error {
		if err := s.Deliver(ctx, job.To); err != nil {
			return nil // want `retryable error err from Deliver is dropped: returning nil makes queue.Register Ack the message`
		}
		return nil
	})
	queue.Raw(reg, "mail.resend", s.Resend) // want `retryable error err from Deliver is dropped by handler \(\*mail.Sender\).Resend: returning nil makes queue.Raw Ack the message`
	queue.Observe(reg, "mail.audit", s.Audit)
	queue.AddProbe(reg, "mail.check", s.Check)
	queue.AddCanary(reg, "mail.canary", s.Canary)
	return dispatch.New(reg)
}
