// Package app registers the handlers views declares, which take a
// feed.Event and no message: the drops views' facts record (DropFact) are
// reported here, at the registration, also with a bus that Acks in a
// helper it passes the handler's error to (feed.Hub). A handler that
// returns its error, one hooked where nothing Acks on nil (feed.Tap,
// feed.Mirror, feed.Relay, feed.Echo) and one never registered stay
// quiet.
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

func _(h *feed.Hub, s *views.Stock) {
	h.Handle("stock.counted", s.OnCounted) // want `retryable error err from upsert is dropped by handler \(\*views.Stock\).OnCounted: returning nil makes h.Handle Ack the message`
}

// Quiet: Mirror's helper Naks on nil, Relay's is passed another error
// than its hooks', and Echo's tests another.
func _(m *feed.Mirror, r *feed.Relay, e *feed.Echo, s *views.Stock) {
	m.Handle("stock.counted", s.OnCounted)
	r.Handle("stock.counted", s.OnCounted)
	e.Handle("stock.counted", s.OnCounted)
}

// Quiet: OnShipped returns the error.
func _(f *feed.Feed, s *views.Stock) {
	f.Route("stock.shipped", s.OnShipped)
}

// Quiet: a tap Naks whatever its hooks return.
func _(t *feed.Tap, s *views.Stock) {
	t.Hook("stock.counted", s.OnCounted)
}
