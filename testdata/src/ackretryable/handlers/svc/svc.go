// Package svc registers handlers with package bus. A handler's `return
// nil` is an Ack by the bus: in a retryable producer's error branch, the
// transient fault is acked away.
package svc

import (
	"context"
	"fmt"
	"errors"
	"log"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/bus"
	"ackretryable/handlers/fieldbus"
	"ackretryable/handlers/router"
	"ackretryable/handlers/tablebus"
	"golang.org/x/sync/errgroup"
	"retrykit"
)

type Service struct{}

// reserve is a retryable producer.
func (s *Service) reserve(ctx context.Context, data []byte) error {
	if len(data) == 0 {
		return retrykit.RetryAfter(errors.New("inventory busy"), 2*time.Second)
	}
	return nil
}

func (s *Service) handleOrder(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		slog.Warn("reserve failed", "err", err)
		return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message; return the error \(or NakWithDelay its retry delay\)`
	}
	return nil
}

func (s *Service) handleAssigned(ctx context.Context, msg jetstream.Msg) error {
	err := s.reserve(ctx, msg.Data())
	if err != nil {
		log.Printf("reserve: %v", err)
		return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Process Ack the message`
	}
	return nil
}

func handlePlain(ctx context.Context, msg jetstream.Msg) error {
	s := &Service{}
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

// handleClassified classifies first: returning nil after the retry
// classification failed is a decision about a permanent error.
func (s *Service) handleClassified(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		if _, ok := retrykit.RetryDelay(err); ok {
			return err
		}
		return nil
	}
	return nil
}

// handleReturns returns the error: the bus retries later.
func (s *Service) handleReturns(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return err
	}
	return nil
}

func (s *Service) Register(ctx context.Context, c jetstream.Consumer, msg jetstream.Msg) {
	_, _ = bus.Subscribe(c, s.handleOrder)
	_, _ = bus.Subscribe(c, handlePlain)
	_, _ = bus.Subscribe(c, s.handleClassified)
	_, _ = bus.Subscribe(c, s.handleReturns)
	bus.Process(ctx, msg, s.handleAssigned)
	_, _ = bus.Subscribe(c, func(ctx context.Context, msg jetstream.Msg) error {
		if err := s.reserve(ctx, msg.Data()); err != nil {
			return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
		}
		return nil
	})
	// Functions passed to callers that do not Ack: quiet.
	bus.Go(func() error {
		if err := s.reserve(ctx, nil); err != nil {
			return nil
		}
		return nil
	})
	_ = bus.Retry(3, func() error {
		if err := s.reserve(ctx, nil); err != nil {
			return nil
		}
		return nil
	})
}

// Registered through a bus that keeps the handler in a struct field.
func (s *Service) handleStored(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes fieldbus.NewConsumer Ack the message`
	}
	return nil
}

func (s *Service) handleSet(ctx context.Context, msg jetstream.Msg) error {
	err := s.reserve(ctx, msg.Data())
	if err != nil {
		return nil // want `returning nil makes c.SetHandler Ack the message`
	}
	return nil
}

func (s *Service) RegisterStored() {
	c := fieldbus.NewConsumer(s.handleStored)
	c.SetHandler(s.handleSet)
}

// Registered with a bus marked //retrylint:handler.
func (s *Service) handleTabled(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes tablebus.Run Ack the message`
	}
	return nil
}

func (s *Service) RegisterTabled(ctx context.Context, msg jetstream.Msg) {
	tablebus.Run(ctx, msg, s.handleTabled)
}

// A worker of this package keeps its handler in a field and loops over a
// batch, continuing past a failed message.
type worker struct {
	handle func(context.Context, jetstream.Msg) error
}

func (w *worker) run(ctx context.Context, batch []jetstream.Msg) {
	for _, msg := range batch {
		if err := w.handle(ctx, msg); err != nil {
			_ = msg.NakWithDelay(time.Second)
			continue
		}
		_ = msg.Ack()
	}
}

func (s *Service) handleBatched(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes the handle field's caller Ack the message`
	}
	return nil
}

func (s *Service) NewBatchWorker() *worker { return &worker{handle: s.handleBatched} }

// A closure held in a variable, then registered.
func (s *Service) RegisterVar(c jetstream.Consumer) {
	onPaid := func(ctx context.Context, msg jetstream.Msg) error {
		if err := s.reserve(ctx, msg.Data()); err != nil {
			return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
		}
		return nil
	}
	_, _ = bus.Subscribe(c, onPaid)
}

// Registered through middleware that wraps it.
func (s *Service) handleWrapped(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

// Not reported as a handler: Swallow does not return what it wraps.
func (s *Service) handleSwallowed(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil
	}
	return nil
}

func (s *Service) RegisterWrapped(c jetstream.Consumer) {
	_, _ = bus.Subscribe(c, bus.Logging(s.handleWrapped))
	_, _ = bus.Subscribe(c, bus.Swallow(s.handleSwallowed))
}

// Handlers in a map of routes, subscribed in a loop and by lookup.
func (s *Service) handleRouted(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

func (s *Service) handleLookedUp(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

func (s *Service) RegisterRoutes(c jetstream.Consumer) {
	routes := map[string]bus.Handler{
		"orders.routed": s.handleRouted,
	}
	for _, h := range routes {
		_, _ = bus.Subscribe(c, h)
	}
	byName := map[string]bus.Handler{}
	byName["orders.looked-up"] = s.handleLookedUp
	_, _ = bus.Subscribe(c, byName["orders.looked-up"])
}

// Handlers in a table of route structs, subscribed in a loop by their
// field, one of them through middleware.
type route struct {
	durable string
	handle  bus.Handler
}

func (s *Service) handleTable(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

func (s *Service) handleTableWrapped(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

func (s *Service) handleTableUnused(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // a route's other field: never subscribed
	}
	return nil
}

func (s *Service) RegisterTable(c jetstream.Consumer) {
	routes := []route{
		{durable: "table", handle: s.handleTable},
		{durable: "wrapped", handle: bus.Logging(s.handleTableWrapped)},
	}
	for _, r := range routes {
		_, _ = bus.Subscribe(c, r.handle)
	}
	other := []struct{ name, audit bus.Handler }{{audit: s.handleTableUnused}}
	for _, r := range other {
		_, _ = bus.Subscribe(c, r.name)
	}
}

// A generic decoding router: the handler receives the decoded value.
type Placed struct{ SKU string }

func decodePlaced(data []byte) (Placed, error) { return Placed{SKU: string(data)}, nil }

func (s *Service) handlePlaced(ctx context.Context, p Placed) error {
	if err := s.reserve(ctx, []byte(p.SKU)); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes router.Route Ack the message`
	}
	return nil
}

func (s *Service) handleTimed(ctx context.Context, p Placed) error {
	err := s.reserve(ctx, []byte(p.SKU))
	if err != nil {
		slog.Warn("reserve", "err", err)
		return nil // want `returning nil makes router.Route Ack the message`
	}
	return nil
}

// Not reported: the generic handler returns the error.
func (s *Service) handlePlacedRight(ctx context.Context, p Placed) error {
	if err := s.reserve(ctx, []byte(p.SKU)); err != nil {
		return fmt.Errorf("reserve %s: %w", p.SKU, err)
	}
	return nil
}

// Not reported: a nil return on the success path.
func (s *Service) handleNoop(ctx context.Context, p Placed) error {
	if p.SKU == "" {
		return nil
	}
	return s.reserve(ctx, []byte(p.SKU))
}

// Not reported: the error is identified as something else first.
var errSoldOut = errors.New("sold out")

func (s *Service) handleSoldOut(ctx context.Context, p Placed) error {
	if err := s.reserve(ctx, []byte(p.SKU)); err != nil {
		if errors.Is(err, errSoldOut) {
			return nil
		}
		return err
	}
	return nil
}

// Not reported: returning nil after settling with a delay is the bus's
// business; here nothing is settled and the error goes back.
func (s *Service) handleLogged(ctx context.Context, p Placed) error {
	if err := s.reserve(ctx, []byte(p.SKU)); err != nil {
		log.Printf("reserve: %v", err)
		return err
	}
	return nil
}

func (s *Service) RegisterRouter(c jetstream.Consumer) {
	_, _ = router.Route(c, decodePlaced, s.handlePlaced)
	_, _ = router.Route(c, decodePlaced, router.Timed(s.handleTimed))
	_, _ = router.Route(c, decodePlaced, s.handlePlacedRight)
	_, _ = router.Route(c, decodePlaced, s.handleNoop)
	_, _ = router.Route[Placed](c, decodePlaced, s.handleSoldOut)
	_, _ = router.Route(c, decodePlaced, s.handleLogged)
}

// Not reported: a nil return after the error was handled by a retry
// classification that failed (a permanent error, dropped on purpose).
func (s *Service) handlePermanent(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		if _, ok := retrykit.RetryDelay(err); !ok {
			return nil
		}
		return err
	}
	return nil
}

// Not reported: a handler-shaped function nobody registers.
func (s *Service) handleUnregistered(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil
	}
	return nil
}

func (s *Service) RegisterPermanent(c jetstream.Consumer) {
	_, _ = bus.Subscribe(c, s.handlePermanent)
}

// Not reported: errgroup.Go keeps the first error; it acks nothing.
func (s *Service) RunGroup(ctx context.Context, msg jetstream.Msg) error {
	var g errgroup.Group
	g.Go(func() error {
		if err := s.reserve(ctx, msg.Data()); err != nil {
			return nil
		}
		return nil
	})
	return g.Wait()
}
