// Package app wires the entry router: a handler of package invoices
// registered here with AddHandler drops a retryable error its facts
// record, reported at the registration, also when wrapped by a middleware
// factory's middleware. An auditor, and a handler wrapped by Refuse's
// middleware, registered here stay quiet.
package app

import (
	"time"

	"ackretryable/entryrouter/invoices"
	"ackretryable/entryrouter/router"
)

func _(s *invoices.Service) {
	r := router.New()
	r.AddHandler("invoice.void", "invoices.void", s.HandleVoid) // want `retryable error err from charge is dropped by handler \(\*invoices.Service\).HandleVoid: returning nil makes r.AddHandler Ack the message`
	r.AddAudit("invoice.void.audit", s.HandleVoid)
	r.AddHandler("invoice.void.late", "invoices.void", router.Deadline(time.Minute)(s.HandleVoid)) // want `retryable error err from charge is dropped by handler \(\*invoices.Service\).HandleVoid: returning nil makes r.AddHandler Ack the message`
	r.AddHandler("invoice.void.dry", "invoices.void", router.Refuse("dry run")(s.HandleVoid))
}
