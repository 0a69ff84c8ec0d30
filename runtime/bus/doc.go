// Package bus maps handler outcomes onto NATS JetStream, losing nothing.
//
// A Handler classifies its failure once (see package retry) and returns it.
// Decide, a pure function, maps the outcome, the server's delivery count
// and what is known of the message's earlier attempts onto a broker
// action, and a Runner carries it out on a jetstream pull consumer:
//
//	handler outcome                               broker action
//	success                                       Ack
//	error carrying RetryDelay() d, d > 0          NakWithDelay(d)
//	same, d == 0                                  NakWithDelay(backoff policy delay for the attempt): a bare Nak would loop
//	transient error without a delay               NakWithDelay(backoff policy delay for the attempt)
//	Snooze(d): not due yet, not a failure         NakWithDelay(d); the attempt number does not move
//	error a class policy takes                    the class's delays, attempt cap, grace window and terminal action
//	error marked permanent                        DLQ write, checked, then Term
//	error without a retry marker                  as transient without a delay if WellKnownTransient
//	                                              (timeouts, temporary DNS failures, refused/reset/closed
//	                                              connections, unreachable hosts, bad database connections,
//	                                              NATS timeouts and no-responders), else as permanent; WithUnclassified
//	                                              (UnclassifiedPermanent) makes every one permanent
//	undecodable payload                           NakWithDelay(5s) until delivery 3, then DLQ + Term
//	transient error on the last delivery          DLQ write, checked, then Term
//	retry past the message-age budget (WithMaxAge) DLQ write (class max_age, the budget's end in the evidence), then Term
//	delivery past the cap (handler not run)       DLQ write, checked, then Term
//	DLQ write failed                              NakWithDelay(5s), doubling per failed write of the message, never Term
//
// # Attempts, not deliveries
//
// The server's NumDelivered counts every delivery: a release at shutdown,
// a snooze, an ack wait that expired. Budgets count attempts: failed
// deliveries. A handler reads its attempt with AttemptFromContext (1 on the
// first; the failed attempts before it plus one).
//
// The runner keeps each message's retry record (package ledger: attempts,
// snoozes, the first failure of each class, the last error) in memory, and,
// with WithLedger, in a JetStream key-value bucket that every instance of
// the consumer reads and that outlives a restart. A delivery whose earlier
// deliveries the runner does not all know (no ledger, and some were on
// another instance or before a restart) counts them as failed attempts,
// from the message's store time: as the server's count does, so budgets
// end early, never late. The message's age is the stream's timestamp,
// which every instance reads.
//
// The delivery cap is the smaller of WithMaxDeliveries (default 100) and
// one less than the consumer's MaxDeliver (the server's last delivery is
// kept spare for a DLQ write that failed on the cap; MaxDeliver 1 leaves no
// spare): it bounds the deliveries of a message that never concludes
// (crashes, ack waits), snoozes included. The runner dead-letters the last
// delivery itself, so the DLQ never depends on the server's MAX_DELIVERIES
// advisory, which is sent once, lazily, to whoever listens at the time.
// WithAdvisories adds that advisory as a safety net for deliveries the
// runner never saw fail (the ack wait expired on the last delivery, or a
// worker crashed during it).
//
// The recommended consumer (ConsumerConfig) has MaxDeliver -1 and leaves
// the cap to the runner: then a DLQ write that fails on the last delivery is
// retried by redelivery like any other. When the consumer's MaxDeliver is the
// cap, the server will not redeliver after the last delivery, so the runner
// keeps that delivery spare, and on it retries a failed DLQ write in
// process, holding the message with heartbeats, until it succeeds or the
// runner stops. If the runner stops first, a Nak would lose the message
// (the server does not deliver past MaxDeliver): the runner hands the dead
// letter back to the stream (see HandBacker, dlq.HandBack), a copy that
// carries the entry, acks the original, and the runner of the consumer
// that receives the copy stores the entry without running the handler.
// The spare delivery's entry keeps the handler's error text and the
// verdict's class (on another instance, from the ledger).
//
// At shutdown a message no handler started (or whose handler the drain
// timeout interrupted) is released with a Nak, so another instance takes it
// at once; on the cap it is dead-lettered instead (class shutdown): a
// release there would come back past the cap, or, on the server's last
// delivery, never.
//
// # Retry budgets
//
// A ClassPolicy (WithClassPolicies) gives one class of errors, matched by
// an errors.Is target (Is), a marker type (As) or a predicate, its own
// delay schedule, attempt cap, grace window (retried only within a time
// from the class's first failure: a static misconfiguration reaches an
// operator in minutes while a rollout race still recovers) and terminal
// action; its dead letters carry its class, whichever budget ended. The
// message-age budget (WithMaxAge) schedules no retry past the message's
// store time plus the budget. Every failure decision says what is left
// (Decision.Budget: attempt, attempts left, the time budget's end and what
// is left of it, the budget that ended), for spans and metrics (package
// bus/otelbus), and a dead letter's evidence names the budget that ran out
// and, for a time budget, its end (dlq.Entry.Budget, BudgetEnd).
//
// # Dead letters
//
// The runner always writes the DLQ and checks the error before Term. If the
// DLQ write fails it sends NakWithDelay(5s, doubling per failed write of the message,
// capped at WithMaxNakDelay) and returns; it never Terms and never sends a
// bare Nak. DLQ writes are idempotent (package dlq), so a crash
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
// consumer's MaxAckPending slots. NewRunner refuses options whose delays
// the cap would cut (and other options that defeat each other: see
// NewRunner).
//
// A consumer with a BackOff list makes nats-server stretch NakWithDelay: the
// redelivery after NakWithDelay(d) on delivery k comes after
// d + BackOff[k-1] - BackOff[0] (measured on nats-server 2.15; BackOff
// indices past the end use the last step). By default (BackOffCompensate) the
// runner reads the list from the consumer info and subtracts the stretch, so
// the redelivery comes after d; when the stretch is d or more it sends
// MinNakDelay and the redelivery comes after the stretch, the earliest the
// server allows, never sooner than d. WithBackOffMode(BackOffRefuse) makes
// NewRunner fail with ErrConsumerBackOff instead. BackOff governs ack-wait
// expiry only; it never excuses a bare Nak.
//
// # Long handlers and shutdown
//
// The ack wait of ConsumerConfig is one minute (DefaultAckWait). While a
// handler runs, the runner sends InProgress about every third of the ack
// wait, so the ack wait need not cover the longest handler; it is what a
// lost acknowledgement costs. A handler call is bounded by
// WithHandlerTimeout. At shutdown the runner stops pulling, releases (Nak)
// buffered messages no handler has started, and waits for running
// handlers up to a drain timeout.
//
// # Observability
//
// The runner logs through log/slog (WithLogger) and calls an observer after
// every delivery with an Event (WithObserver), for metrics; package
// bus/otelbus turns them into OpenTelemetry spans and metrics.
package bus
