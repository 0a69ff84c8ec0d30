// Package bus maps handler outcomes onto NATS JetStream, losing nothing.
//
// A Handler classifies its failure once (see package retry) and returns it.
// Decide, a pure function, maps the outcome and the server's delivery count
// onto a broker action, and a Runner carries it out on a jetstream pull
// consumer:
//
//	handler outcome                               broker action
//	success                                       Ack
//	error carrying RetryDelay() d, d > 0          NakWithDelay(d)
//	same, d == 0                                  Nak
//	transient error without a delay               NakWithDelay(backoff policy delay for the attempt)
//	error marked permanent                        DLQ write, checked, then Term
//	error without a retry marker                  as transient without a delay if WellKnownTransient
//	                                              (timeouts, temporary DNS failures, refused/reset/closed
//	                                              connections, unreachable hosts, bad database connections,
//	                                              NATS timeouts and no-responders), else as permanent; WithUnclassified
//	                                              (UnclassifiedPermanent) makes every one permanent
//	undecodable payload                           NakWithDelay(5s) until delivery 3, then DLQ + Term
//	transient error on the last delivery          DLQ write, checked, then Term
//	delivery past the cap (handler not run)       DLQ write, checked, then Term
//	DLQ write failed                              NakWithDelay(5s), never Term
//
// # Attempts
//
// The attempt number is the server's NumDelivered from the message metadata,
// never an in-process counter that restarts with the process. The delivery
// cap is the smaller of WithMaxDeliveries (default 100) and one less than
// the consumer's MaxDeliver (the server's last delivery is kept spare for a
// DLQ write that failed on the cap; MaxDeliver 1 leaves no spare). The runner dead-letters the last delivery itself, so the DLQ
// never depends on the server's MAX_DELIVERIES advisory, which is sent once,
// lazily, to whoever listens at the time. WithAdvisories adds that advisory
// as a safety net for deliveries the runner never saw fail (the ack wait
// expired on the last delivery, or a worker crashed during it).
//
// The recommended consumer (ConsumerConfig) has MaxDeliver -1 and leaves
// the cap to the runner: then a DLQ write that fails on the last delivery is
// retried by redelivery like any other. When the consumer's MaxDeliver is the
// cap, the server will not redeliver after the last delivery, so the runner
// keeps that delivery spare, and on it retries a failed DLQ write in
// process, holding the message with heartbeats, until it succeeds or the
// runner stops.
//
// At shutdown a message no handler started (or whose handler the drain
// timeout interrupted) is released with a Nak, so another instance takes it
// at once; on the cap it is dead-lettered instead (class shutdown): a
// release there would come back past the cap, or, on the server's last
// delivery, never.
//
// # Dead letters
//
// The runner always writes the DLQ and checks the error before Term. If the
// write fails it sends NakWithDelay(5s) and returns; it never Terms and never
// sends a bare Nak. DLQ writes are idempotent (package dlq), so a crash
// between the write and Term leads to a redelivery, a second write that
// stores nothing, and Term: the DLQ holds exactly one entry.
//
// While the DLQ is down, a message whose write failed keeps its verdict
// (its handler does not run again) and comes back after a delay that
// doubles per failed write; every other message is handled as usual.
// WithOutagePause(n) adds a breaker: after n failed writes in a row the
// runner also stops taking deliveries for a while, which stops pulling;
// the next write, successful, ends the outage. With
// WithConfirmedSettlement, Ack and Term are requests the server answers,
// and the event of each delivery says whether it did.
//
// # Delays
//
// Every redelivery delay is capped (WithMaxNakDelay, default 10 minutes),
// because a message waiting for a delayed redelivery holds one of the
// consumer's MaxAckPending slots.
//
// A consumer with a BackOff list makes nats-server stretch NakWithDelay: the
// redelivery after NakWithDelay(d) on delivery k comes after
// d + BackOff[k-1] - BackOff[0] (measured on nats-server 2.15; BackOff
// indices past the end use the last step). By default (BackOffCompensate) the
// runner reads the list from the consumer info and subtracts the stretch, so
// the redelivery comes after d; when the stretch is d or more it sends
// MinNakDelay and the redelivery comes after the stretch, the earliest the
// server allows, never sooner than d. WithBackOffMode(BackOffRefuse) makes
// NewRunner fail with ErrConsumerBackOff instead. A plain Nak (delay 0) is
// not stretched. BackOff governs ack-wait expiry only; it never excuses a
// bare Nak.
//
// # Long handlers and shutdown
//
// The ack wait of ConsumerConfig is 10 minutes. While a handler runs, the
// runner sends InProgress about every third of the ack wait. At shutdown it stops
// pulling, releases (Nak) buffered messages no handler has started, and
// waits for running handlers up to a drain timeout.
//
// # Observability
//
// The runner logs through log/slog (WithLogger) and calls an observer after
// every delivery with an Event (WithObserver), for metrics.
package bus
