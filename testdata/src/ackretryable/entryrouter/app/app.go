// Package app wires the entry router: a handler of package invoices
// registered here with AddHandler drops a retryable error its facts
// record, reported at the registration. An auditor registered here stays
// quiet.
package app

import (
	"ackretryable/entryrouter/invoices"
	"ackretryable/entryrouter/router"
)

func _(s *invoices.Service) {
	r := router.New()
	r.AddHandler("invoice.void", "invoices.void", s.HandleVoid) // want `retryable error err from charge is dropped by handler \(\*invoices.Service\).HandleVoid: returning nil makes r.AddHandler Ack the message`
	r.AddAudit("invoice.void.audit", s.HandleVoid)
}
