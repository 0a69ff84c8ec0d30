// Package downstream acknowledges messages after calls into the packages
// above: the producer's error branch is found through facts; the
// non-producer's is not reported.
package downstream

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/crosspkg/middle"
	"ackretryable/crosspkg/upstream"
)

type Notifier struct{ mail *middle.Mailer }

func (n *Notifier) _(ctx context.Context, msg jetstream.Msg) {
	if err := n.mail.Send(ctx, string(msg.Data())); err != nil {
		msg.Ack() // want `Ack in the error branch of retryable error err from Send`
		return
	}
	msg.Ack()
}

func (n *Notifier) _(ctx context.Context, msg jetstream.Msg) {
	send := n.mail.Send
	if err := send(ctx, string(msg.Data())); err != nil {
		msg.Ack() // want `Ack in the error branch of retryable error err from send`
	}
}

func (n *Notifier) _(msg jetstream.Msg) {
	if err := upstream.Throttle(0); err != nil {
		msg.Ack() // want `Ack in the error branch of retryable error err from Throttle`
	}
}

func (n *Notifier) _(msg jetstream.Msg) {
	if err := n.mail.Validate(string(msg.Data())); err != nil {
		msg.Ack()
	}
}

func (n *Notifier) _(ctx context.Context, msg jetstream.Msg) {
	if err := n.mail.Send(ctx, string(msg.Data())); err != nil {
		var te upstream.ThrottledError
		if errors.As(err, &te) {
			msg.NakWithDelay(te.After)
			return
		}
		msg.Ack()
	}
}
