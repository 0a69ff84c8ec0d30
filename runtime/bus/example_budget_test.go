package bus_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/retry"
)

// Retry budgets: "no pool mapping" gets a grace window of two minutes from
// its first failure, then fails fast under its own class; any other
// transient failure stops by the message's age. Decide is walked here with
// a clock of its own; a Runner passes the ledger's record and the stream's
// timestamp (bus.WithClassPolicies, bus.WithMaxAge, bus.WithLedger).
func ExampleClassPolicy() {
	errNoPoolMapping := errors.New("no pool mapping")
	cfg := bus.DefaultConfig()
	cfg.MaxAge = time.Hour
	cfg.Classes = []bus.ClassPolicy{{
		Class:  "no_pool_mapping",
		Match:  bus.Is(errNoPoolMapping),
		Delays: []time.Duration{30 * time.Second},
		Within: 2 * time.Minute,
	}}
	stored := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var hist ledger.Record // the message's retry record, as the ledger keeps it
	for i, at := range []time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute} {
		now := stored.Add(at)
		d := bus.Decide(bus.Input{
			NumDelivered: uint64(i + 1), Ran: true, Err: fmt.Errorf("pick subject: %w", errNoPoolMapping),
			History: hist, HistoryExact: true, Now: now, Stored: stored,
		}, &cfg)
		b := d.Budget
		fmt.Printf("attempt %d: %v %v class=%s left=%v ended=%q until %s\n",
			b.Attempt, d.Action, d.Requested, d.Class, b.Left, b.Ended, b.End.Format("15:04"))
		hist = hist.Failed(string(d.Class), now, uint64(i+1), "pick subject: no pool mapping", nil)
	}
	late := bus.Decide(bus.Input{NumDelivered: 1, Ran: true, Err: retry.Transient(errors.New("inventory busy")),
		HistoryExact: true, Now: stored.Add(59*time.Minute + 59*time.Second), Stored: stored}, &cfg)
	fmt.Printf("an old message: %v class=%s ended=%q at %s\n", late.Action, late.Class, late.Budget.Ended, late.Budget.End.Format("15:04"))
	// Output:
	// attempt 1: nak-delay 30s class=no_pool_mapping left=2m0s ended="" until 12:03
	// attempt 2: nak-delay 30s class=no_pool_mapping left=1m0s ended="" until 12:03
	// attempt 3: dead-letter 0s class=no_pool_mapping left=0s ended="grace" until 12:03
	// an old message: dead-letter class=max_age ended="age" at 13:00
}
