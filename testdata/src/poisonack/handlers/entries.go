package handlers

// Handlers of the entry router, which see a wrapper message built from
// the JetStream message: the wrapper's []byte field is its payload (the
// profile cannot name it), so returning nil on its decode failure is the
// Worker's Ack. Decoding its subject, a string, decodes no payload.

import (
	"context"
	"encoding/json"
	"log/slog"

	"ackretryable/entryrouter/router"
)

type Invoice struct {
	ID string `json:"id"`
}

func mountInvoices(r *router.Router) {
	r.AddHandler("invoice.created", "invoices.created", onInvoiceCreated)
	r.AddHandler("invoice.subject", "invoices.subject", onInvoiceSubject)
	r.AddHandler("invoice.voided", "invoices.voided", onInvoiceVoided)
	r.AddHandler("invoice.part", "invoices.part", onInvoicePart)
	r.AddHandler("invoice.named", "invoices.named", onInvoiceNamed)
}

func onInvoiceCreated(ctx context.Context, msg *router.Message) error {
	var inv Invoice
	if err := json.Unmarshal(msg.Body, &inv); err != nil {
		slog.Warn("bad invoice", "err", err)
		return nil // want `returning nil on the decode failure of json.Unmarshal makes r.AddHandler Ack the message`
	}
	return nil
}

func onInvoiceVoided(ctx context.Context, msg *router.Message) error {
	var inv Invoice
	if err := json.Unmarshal(msg.Bytes(), &inv); err != nil {
		return nil // want `returning nil on the decode failure of json.Unmarshal makes r.AddHandler Ack the message`
	}
	return nil
}

// Not reported: a call with arguments is no payload accessor.
func onInvoicePart(ctx context.Context, msg *router.Message) error {
	var inv Invoice
	if err := json.Unmarshal(msg.Part(1), &inv); err != nil {
		return nil
	}
	return nil
}

// Not reported: a method returning a string is no payload accessor.
func onInvoiceNamed(ctx context.Context, msg *router.Message) error {
	var id string
	if err := json.Unmarshal([]byte(msg.String()), &id); err != nil {
		return nil
	}
	return nil
}

// Not reported: the subject is not the payload.
func onInvoiceSubject(ctx context.Context, msg *router.Message) error {
	var id string
	if err := json.Unmarshal([]byte(msg.Subject), &id); err != nil {
		return nil
	}
	return nil
}
