// Package handlers registers handlers with a bus that Acks when they
// return nil: returning nil on a decode failure acks the undecodable
// payload away.
package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/bus"
	"ackretryable/handlers/fieldbus"
	"ackretryable/handlers/tablebus"
	"ackretryable/helpers/settle"
	"poisonack/databus"
)

type Order struct {
	ID string `json:"id"`
}

func handleOrder(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		slog.Warn("bad order", "err", err)
		return nil // want `returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message: the undecodable payload disappears as if it were handled`
	}
	return nil
}

// Returning the decode error lets the bus retry or dead-letter it.
func handleReturns(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return err
	}
	return nil
}

// Settling the message itself with a delay, then returning nil: the bus's
// Ack of an already settled message changes nothing.
func handleDelayed(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return err
	}
	return nil
}

// Not a handler: returning nil here acks nothing.
func validate(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil
	}
	return nil
}

func Register(ctx context.Context, c jetstream.Consumer, msg jetstream.Msg) {
	_, _ = bus.Subscribe(c, handleOrder)
	_, _ = bus.Subscribe(c, handleReturns)
	_, _ = bus.Subscribe(c, handleDelayed)
	_ = validate(ctx, msg)
	bus.Process(ctx, msg, func(ctx context.Context, msg jetstream.Msg) error {
		var o Order
		if err := json.NewDecoder(nil).Decode(&o); err != nil {
			return nil // a decode of something else: quiet
		}
		if err := json.Unmarshal(msg.Data(), &o); err != nil {
			return nil // want `returning nil on the decode failure of json.Unmarshal makes bus.Process Ack the message`
		}
		return nil
	})
}

// A handler that receives the payload: its []byte parameter is the
// message's data (CONTRACT.md, "The payload in a handler").
func projectSession(ctx context.Context, data []byte) error {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return nil // want `returning nil on the decode failure of json.Unmarshal makes databus.Handle Ack the message`
	}
	return nil
}

// Not reported: the same handler returning the decode error.
func projectRight(ctx context.Context, data []byte) error {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return err
	}
	return nil
}

// Not reported: a []byte that is not the payload (not a handler).
func parseConfig(data []byte) error {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return nil
	}
	return nil
}

func RegisterData(ctx context.Context, msg jetstream.Msg) {
	databus.Handle(ctx, msg, projectSession)
	databus.Handle(ctx, msg, projectRight)
	_ = parseConfig(nil)
}

// A decoder over the payload, the error assigned first.
func handleDecoded(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	err := json.NewDecoder(bytes.NewReader(msg.Data())).Decode(&o)
	if err != nil {
		return nil // want `returning nil on the decode failure of json.NewDecoder\(bytes.NewReader\(msg.Data\(\)\)\).Decode makes bus.Subscribe Ack the message`
	}
	return nil
}

// The else of err == nil.
func handleElse(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err == nil {
		slog.Info("order", "id", o.ID)
	} else {
		return nil // want `returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message`
	}
	return nil
}

// Wrapped by middleware.
func handleWrapped(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil // want `returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message`
	}
	return nil
}

// Kept in a map of routes.
func handleRouted(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil // want `returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message`
	}
	return nil
}

// A payload parameter decoded through a reader.
func projectReader(ctx context.Context, data []byte) error {
	var o Order
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&o); err != nil {
		return nil // want `returning nil on the decode failure of json.NewDecoder\(bytes.NewReader\(data\)\).Decode makes databus.Handle Ack the message`
	}
	return nil
}

// Not reported: the handler dead-letters (and checks) before returning nil.
func handleParked(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		if err := parkDLQ(ctx, msg); err != nil {
			return err
		}
		return nil
	}
	return nil
}

func parkDLQ(ctx context.Context, msg jetstream.Msg) error { return nil }

// Not reported: a decode of a header value.
func handleHeader(ctx context.Context, msg jetstream.Msg) error {
	var trace map[string]string
	if err := json.Unmarshal([]byte(msg.Headers().Get("X-Trace")), &trace); err != nil {
		return nil
	}
	return nil
}

// Not reported: a handler of a bus that does not Ack (a goroutine runner).
func handleBackground(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil
	}
	return nil
}

func RegisterMore(ctx context.Context, c jetstream.Consumer, msg jetstream.Msg) {
	_, _ = bus.Subscribe(c, handleDecoded)
	_, _ = bus.Subscribe(c, handleElse)
	_, _ = bus.Subscribe(c, bus.Logging(handleWrapped))
	routes := map[string]bus.Handler{"orders.routed": handleRouted}
	for _, h := range routes {
		_, _ = bus.Subscribe(c, h)
	}
	databus.Handle(ctx, msg, projectReader)
	_, _ = bus.Subscribe(c, handleParked)
	_, _ = bus.Subscribe(c, handleHeader)
	bus.Go(func() error { return handleBackground(ctx, msg) })
}

// Stored in a bus's handler field.
func handleStored(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil // want `returning nil on the decode failure of json.Unmarshal makes fieldbus.NewConsumer Ack the message`
	}
	return nil
}

// Held in a variable.
func RegisterVar(c jetstream.Consumer) {
	h := func(ctx context.Context, msg jetstream.Msg) error {
		var o Order
		if err := json.Unmarshal(msg.Data(), &o); err != nil {
			slog.Warn("bad", "err", err)
			return nil // want `returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message`
		}
		return nil
	}
	_, _ = bus.Subscribe(c, h)
	_ = fieldbus.NewConsumer(handleStored)
	_, _ = bus.Subscribe(c, handleWrappedErr)
	_, _ = bus.Subscribe(c, handleDecodedOK)
}

// Not reported: the decode error is wrapped and returned.
func handleWrappedErr(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return fmt.Errorf("decode order: %w", err)
	}
	return nil
}

// Not reported: nil on the success path of the decode.
func handleDecodedOK(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err == nil {
		return nil
	}
	return errors.New("undecodable")
}

// Registered with a bus marked //retrylint:handler.
func handleTabled(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil // want `returning nil on the decode failure of json.Unmarshal makes tablebus.Run Ack the message`
	}
	return nil
}

func RegisterTabled(ctx context.Context, msg jetstream.Msg) {
	tablebus.Run(ctx, msg, handleTabled)
}

// Helpers of another package that Ack or bare-Nak whatever they are given.
func handleWithHelpers(ctx context.Context, msg jetstream.Msg) {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		settle.Done(msg, "undecodable") // want `call to settle.Done Acks the message on the decode failure of json.Unmarshal and drops the undecodable payload`
		return
	}
	settle.Done(msg, "ok")
}

func handleWithRetry(ctx context.Context, msg jetstream.Msg) {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		settle.Retry(msg) // want `call to settle.Retry bare-Naks the message on the decode failure of json.Unmarshal`
		return
	}
	settle.Done(msg, "ok")
}

// Not reported: Finish Acks only a nil error; it is given the decode error.
func handleFinish(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return settle.Finish(msg, err)
	}
	return settle.Finish(msg, nil)
}
