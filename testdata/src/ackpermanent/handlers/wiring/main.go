// Command wiring registers the handlers of billing and ledger with the
// bus: billing's permanent-failure Ack is reported here, at its return;
// ledger, which keeps no dead letters, and billing's Audit, which no bus
// calls, are not.
package main

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"ackpermanent/handlers/billing"
	"ackpermanent/handlers/bus"
	"ackpermanent/handlers/ledger"
)

func run(c jetstream.Consumer, b *billing.Handlers, l *ledger.Ledger, msg jetstream.Msg) {
	_, _ = bus.Subscribe(c, b.HandleCharge)
	_, _ = bus.Subscribe(c, b.HandleRefund)
	_, _ = bus.Subscribe(c, b.HandleDuplicate)
	_, _ = bus.Subscribe(c, l.HandlePosting)
	_ = b.Audit(context.Background(), msg)
}

func main() {}
