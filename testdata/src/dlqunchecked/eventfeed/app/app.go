// Package app registers handlers that take a feed.Event and no message,
// wrapped in guard's parking middleware: the closure the middleware
// returns is the handler, and the returns guard's facts record
// (LostWriteFact) are reported here, at the registration. A middleware
// that returns the write's error, and one registered where nothing Acks
// on nil, stay quiet.
package app

import (
	"ackretryable/eventfeed/feed"
	"ackretryable/eventfeed/guard"
	"ackretryable/eventfeed/views"
)

func _(f *feed.Feed, p *guard.Parker, s *views.Stock) {
	f.Route("stock.shipped", p.ParkBestEffort(s.OnShipped)) // want `handler \(\*guard.Parker\).ParkBestEffort returning nil \(f.Route then Acks the message\)`
}

// Quiet: Park returns the write's error.
func _(f *feed.Feed, p *guard.Parker, s *views.Stock) {
	f.Route("stock.shipped", p.Park(s.OnShipped))
}

// Quiet: a tap Naks whatever its hooks return.
func _(t *feed.Tap, p *guard.Parker, s *views.Stock) {
	t.Hook("stock.shipped", p.ParkBestEffort(s.OnShipped))
}
