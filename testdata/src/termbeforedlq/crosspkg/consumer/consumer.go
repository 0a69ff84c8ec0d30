// Package consumer proves that DLQ writers and may-Term helpers declared in
// other packages are found through facts: a helper Terms on a
// non-retriable status, and only then does its caller write the
// dead-letter sink.
package consumer

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"termbeforedlq/crosspkg/dlqhelper"
	"termbeforedlq/crosspkg/termhelper"
)

// Shipments consumes shipment events.
type Shipments struct {
	pub  *dlqhelper.Publisher
	sink *dlqhelper.Sink
	dlq  *dlqhelper.Store
	nc   *nats.Conn
}

func (s *Shipments) deliver(ctx context.Context, data []byte) error { return nil }

// The may-Term helper Terms on a 4xx, then the caller parks the message.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	err := s.deliver(ctx, msg.Data())
	status := termhelper.StatusOf(err)
	termhelper.Settle(msg, status) // want `call to termhelper\.Settle may Term the message before the DLQ write s\.pub\.Park`
	if status >= 400 {
		return s.pub.Park(ctx, msg)
	}
	return nil
}

// Transitively through another helper, legacy API.
func _(s *Shipments, msg *nats.Msg) error {
	termhelper.Reject("bad shipment", msg) // want `call to termhelper\.Reject may Term the message before the DLQ write s\.nc\.Publish`
	return s.nc.Publish("shipments.DLQ", msg.Data)
}

// A publisher method in another package that publishes to the DLQ.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write s\.pub\.Park`
	return s.pub.Park(ctx, msg)
}

// The OnDeadLetter hook field of another package's type.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write s\.sink\.OnDeadLetter`
	return s.sink.OnDeadLetter(ctx, msg.Data())
}

// A method of any name on a field named dlq.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write s\.dlq\.Put`
	return s.dlq.Put(ctx, msg.Subject(), msg.Data())
}

// A function marked //retrylint:dlq in another package.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write dlqhelper\.Quarantine`
	return dlqhelper.Quarantine(ctx, msg.Data())
}

// Unchecked write through another package's writer.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	_ = s.pub.Park(ctx, msg)
	return msg.Term() // want `Term after the DLQ write s\.pub\.Park whose error is not checked`
}

// A writer that returns nothing, started with go.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	go s.pub.Forward(ctx, msg)
	return msg.Term() // want `Term not ordered after the DLQ write s\.pub\.Forward started with go`
}

// Not reported: the DLQ-first pattern through the helpers.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	if err := s.pub.Park(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return termhelper.Settle(msg, 422)
}

// Not reported: a helper that parks and Terms is judged inside.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	return termhelper.ParkAndTerm(ctx, s.pub, msg)
}

// A swallowing writer (contract version 2): Forward always parks the
// message and drops the park's error, so the Term after it may follow a
// lost write.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg) error {
	s.pub.Forward(ctx, msg)
	return msg.Term() // want `Term after the DLQ write s.pub.Forward whose error is not checked`
}

// Not reported: the ledger is not known to write a DLQ by default.
func _(s *Shipments, ctx context.Context, msg jetstream.Msg, ledger *dlqhelper.Ledger) error {
	msg.Term()
	return ledger.Record(ctx, msg.Data())
}
