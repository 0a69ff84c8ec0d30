// Package poisonack defines an Analyzer that reports an undecodable
// payload acknowledged, redelivered at once, or dropped without evidence.
//
// # Analyzer poisonack
//
// poisonack: undecodable payload acknowledged, redelivered at once, or dropped
//
// A payload that cannot be decoded will not decode on the next delivery
// either, unless the decoder is fixed; the contract keeps it: NakWithDelay
// (5s) until delivery 3, then a checked DLQ write and Term. poisonack
// reports, on a decode-failure path (the error branch of a call that
// decodes a message's payload, before it rejoins the normal flow):
//
//   - an Ack (Ack, AckSync, DoubleAck), when that path writes no DLQ: the
//     payload disappears as if it had been handled;
//   - a bare Nak: the same bytes come back at once, up to the delivery
//     cap, a tight loop that only ends by dropping them;
//   - a Term (or a call of a helper that may Term the message) when that
//     path writes no DLQ, and the package writes a DLQ anywhere: the
//     service keeps evidence, but not for this message.
//
// Helpers count like the calls they make: a helper that always Acks or
// bare-Naks the message, directly or through helpers of its own
// (retryLater(m) calling queue.Redeliver(m), which Naks), is that Ack or
// Nak at the call. A helper whose settlement depends on the error it is
// given (settle(msg, err): a bare Nak when err != nil, an Ack when nil) is
// judged with the argument: given the decode's own error, its non-nil
// effect happens; given nil, its nil effect. Given anything else (another
// error, a fresh error) it stays quiet. A helper that waits before a retry
// (NakWithDelay on non-nil) is quiet with any argument.
//
// In a handler (see ackretryable), `return nil` on a decode-failure path
// is an Ack by the bus that called it, reported at the return. A handler
// declared in one package and registered in another is known as one only
// where it is registered: its package exports the returns as a fact
// (DecodeDropFact, on every exported function with a message parameter
// and an error result), and the registering package reports them at the
// registration call, one diagnostic per return, naming the handler
// function (orders.HandleCreated) and the bus, with the return, the
// decode, the registration and the bus's Ack as related locations: the
// report is the registering package's, in its file, where gopls and
// analysistest see it.
//
// A handler's []byte (or reader) parameter is the payload when its caller
// passes it the message's data: a bus calling its handler parameter with
// msg.Data(), or, decided for version 3, a worker pool whose constructor
// stores the handler in a field that the pool calls with msg.Data() (the
// argument positions where any call of the field passes the payload). A
// bool handler's `return true` on that payload's decode failure is then
// reported like `return nil`.
//
// A decode is a call that returns an error, that is a decoder, and that
// takes the message's payload (msg.Data(), msg.Data, a variable holding
// it, a slice or conversion of it, a reader or decoder over it:
// bytes.NewReader, strings.NewReader, bufio.NewReader, json.NewDecoder,
// the table's libraries' NewDecoder, csv.NewReader). The decoders
// (contract version 3) are a table by import path and name: encoding/json,
// encoding/xml, encoding/gob, encoding/csv reads, protobuf's proto,
// protojson and prototext, github.com/golang/protobuf/proto, msgpack v5,
// cbor v2, hamba avro v2, goavro v2's NativeFromBinary, yaml.v3,
// sigs.k8s.io/yaml, BurntSushi toml, json-iterator, sonic, goccy go-json,
// segmentio's encoding/json, and CloudEvents' binding.ToEvent (of a
// protocol message built from the message) and event.DataAs (of the event
// it returned); a message profile's decode methods ("decode" in a profile
// file); the functions of -retrycontract.decode-funcs (the form of
// dlq-funcs, and checked alike: an entry that names nothing in a loaded
// package stops the command line, and the retrylint meta check reports
// it); and any function or method whose name matches the decode pattern
// (-retrycontract.decode-pattern, default (?i)(unmarshal|decode): a
// decodeOrder of the service's own). Decided: the pattern still applies
// to every package, the table's included, as in version 2; the table adds
// what no name says. Other calls of the table's libraries over the
// payload (cbor.Wellformed, DecMode.Valid, an encode) are not decodes. The settled
// message must be the decoded one (or either is unknown). The path is the
// body of the if statement that tests the decode's error (err != nil, or
// the else of err == nil), the error held in the if's init or in a
// variable the decode assigned.
//
// Messages that nothing redelivers (contract version 3) are not judged:
// those of a core NATS subscription (nc.Subscribe, QueueSubscribe,
// ChanSubscribe, SubscribeSync), an ordered consumer, an AckNone consumer,
// an ephemeral consumer created and read once in the same function, and
// the legacy API's subscriptions with nats.OrderedConsumer() or
// nats.AckNone(), where the package shows the origin: the same function
// (through assignments, method calls, receives and range loops), or a
// function or method of the package registered as such a subscription's
// handler. Decided: a handler registered from another package, or a
// message passed on to a helper, shows no origin and is judged as before.
//
// Not reported: NakWithDelay (any delay); an Ack or Term on a path that
// also writes the DLQ, before or after it (when the order or the check is
// wrong, dlqunchecked or termbeforedlq reports it: one defect, one
// report); a call of a helper that writes the
// DLQ and Terms; returning without settling (the ack wait redelivers);
// decoding anything but the payload (a header, a config file, an HTTP
// body); a Term on decode failure in a package that writes no DLQ at all
// (it has chosen to drop poison). Payload parameters of handlers
// (func(ctx, data []byte) error registered with a bus) are not followed
// yet, nor are handlers the bus reaches through fields or middleware.
//
// Fix:
//
//	if err := json.Unmarshal(msg.Data(), &order); err != nil {
//		if meta, _ := msg.Metadata(); meta != nil && meta.NumDelivered < 3 {
//			return msg.NakWithDelay(5 * time.Second)
//		}
//		if err := s.dlq.Write(ctx, msg, err); err != nil {
//			return msg.NakWithDelay(5 * time.Second)
//		}
//		return msg.Term()
//	}
package poisonack

import _ "embed"

//go:embed doc.go
var docSource string
