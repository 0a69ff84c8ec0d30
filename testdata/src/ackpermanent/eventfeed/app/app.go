// Package app registers handlers that take a feed.Event and no message,
// wrapped in guard's middleware: the closure the middleware returns is the
// handler, and the returns guard's facts record (PermanentDropFact) are
// reported here, at the registration. A middleware that decides with
// errors.Is, one that returns one of two closures, one that dead-letters
// first, and one registered where nothing Acks on nil stay quiet.
package app

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/eventfeed/feed"
	"ackretryable/eventfeed/guard"
	"ackretryable/eventfeed/views"
)

func _(f *feed.Feed, s *views.Stock) {
	f.Route("stock.shipped", guard.SkipFailures(s.OnShipped)) // want `handler guard.SkipFailures returning nil \(f.Route then Acks the message\) after err was classified as a permanent failure drops the message without evidence`
}

// Quiet: SkipSeen's nil follows an errors.Is decision.
func _(f *feed.Feed, s *views.Stock) {
	f.Route("stock.shipped", guard.SkipSeen(s.OnShipped))
}

// Quiet: SkipFailuresIf returns one of two closures.
func _(f *feed.Feed, s *views.Stock) {
	f.Route("stock.shipped", guard.SkipFailuresIf(true, s.OnShipped))
}

// Quiet: Park writes the DLQ first and returns the write's error.
func _(f *feed.Feed, p *guard.Parker, s *views.Stock) {
	f.Route("stock.shipped", p.Park(s.OnShipped))
}

func _(c jetstream.Consumer) {
	_ = feed.Raw(c, guard.SkipRaw(func(ctx context.Context, msg jetstream.Msg) error { return nil })) // want `handler guard.SkipRaw returning nil \(feed.Raw then Acks the message\)`
}

// Quiet: ParkRaw's closure dead-letters its message first.
func _(c jetstream.Consumer, p *guard.Parker) {
	_ = feed.Raw(c, p.ParkRaw(func(ctx context.Context, msg jetstream.Msg) error { return nil }))
}

// Quiet: a tap Naks whatever its hooks return.
func _(t *feed.Tap, s *views.Stock) {
	t.Hook("stock.shipped", guard.SkipFailures(s.OnShipped))
}
