package otelbus

import "github.com/nats-io/nats.go"

// cloneHeader copies h, so that injecting the trace context does not
// change the message's own headers.
func cloneHeader(h nats.Header) nats.Header {
	out := make(nats.Header, len(h)+1)
	for k, vs := range h {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
