// Package app registers the handlers views declares, which take a
// feed.Event and no message: the drops views' facts record (DropFact) are
// reported here, at the registration. A handler that returns its error,
// one hooked where nothing Acks on nil (feed.Tap) and one never
// registered stay quiet.
package app

import (
	"ackretryable/eventfeed/feed"
	"ackretryable/eventfeed/views"
)

func _(f *feed.Feed, s *views.Stock) {
	feed.Typed(f, "stock.received", s.OnReceived) // want `retryable error err from upsert is dropped by handler \(\*views.Stock\).OnReceived: returning nil makes feed.Typed Ack the message`
}

func _(f *feed.Feed, s *views.Stock) {
	f.Route("stock.counted", s.OnCounted) // want `retryable error err from upsert is dropped by handler \(\*views.Stock\).OnCounted: returning nil makes f.Route Ack the message`
}

func _(f *feed.Feed, s *views.Stock) {
	f.Route("stock.audited", feed.WithMeta(s.OnAudited)) // want `retryable error err from upsert is dropped by handler \(\*views.Stock\).OnAudited: returning nil makes f.Route Ack the message`
}

// Quiet: OnShipped returns the error.
func _(f *feed.Feed, s *views.Stock) {
	f.Route("stock.shipped", s.OnShipped)
}

// Quiet: a tap Naks whatever its hooks return.
func _(t *feed.Tap, s *views.Stock) {
	t.Hook("stock.counted", s.OnCounted)
}
