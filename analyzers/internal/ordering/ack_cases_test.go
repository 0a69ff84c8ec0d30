package ordering_test

import "testing"

// TestAckOrdering proves, on dlqunchecked's spec, the settlements that
// only the Ack checks have: a handler's `return nil` (its bus then Acks)
// and a return at which a deferred Ack runs; and what Candidates returns
// for an exported function that could be a handler registered elsewhere.
func TestAckOrdering(t *testing.T) {
	t.Parallel()
	runCases(t, []orderingCase{
		{name: "ack then write", check: ackCheck, src: `
func _(c *C, d Delivery) error {
	d.Ack()
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Ack, c.publishDLQ @ d.Ack()"}},
		{name: "handler returns nil after an unchecked write", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	_ = c.publishDLQ(ctx, d)
	return nil
}

func register(c *C, d Delivery) { Subscribe(d, c.handle) }
`, want: []string{"UncheckedWrite: returning nil (Subscribe then Acks the message), c.publishDLQ @ return nil"}},
		{name: "handler returns nil on the failure path", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	if err := c.publishDLQ(ctx, d); err != nil {
		c.logger.Error("dead letter", "err", err)
	}
	return nil
}

func register(c *C, d Delivery) { Subscribe(d, c.handle) }
`, want: []string{"FailurePath: returning nil (Subscribe then Acks the message), c.publishDLQ @ return nil"}},
		{name: "handler returns the write's error", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	if cond {
		return nil
	}
	return c.publishDLQ(ctx, d)
}

func register(c *C, d Delivery) { Subscribe(d, c.handle) }
`},
		{name: "handler returns nil after a checked write", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	if err := c.publishDLQ(ctx, d); err != nil {
		return err
	}
	return nil
}

func register(c *C, d Delivery) { Subscribe(d, c.handle) }
`},
		{name: "handler returns the error on the failure path, nil after", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if err != nil {
		c.logger.Error("dead letter", "err", err)
		return err
	}
	return nil
}

func register(c *C, d Delivery) { Subscribe(d, c.handle) }
`},
		{name: "handler with a deferred write: it runs before the bus Acks", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	defer c.publishDLQ(ctx, d)
	return nil
}

func register(c *C, d Delivery) { Subscribe(d, c.handle) }
`},
		{name: "handler with a write started with go", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	go c.publishDLQ(ctx, d)
	return nil
}

func register(c *C, d Delivery) { Subscribe(d, c.handle) }
`, want: []string{"Spawned: returning nil (Subscribe then Acks the message), c.publishDLQ @ return nil"}},
		{name: "not a handler: return nil settles nothing", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	_ = c.publishDLQ(ctx, d)
	return nil
}
`},
		{name: "the handler's related locations", check: ackCheck, related: true, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	_ = c.publishDLQ(ctx, d)
	return nil
}

func register(c *C, d Delivery) { Subscribe(d, c.handle) }
`, want: []string{"UncheckedWrite: returning nil (Subscribe then Acks the message), c.publishDLQ @ return nil" +
			" | the DLQ write @ _ = c.publishDLQ(ctx, d)" +
			" | Subscribe Acks the message here @ d.Ack()"}},
		{name: "deferred ack at a return", check: ackCheck, related: true, src: `
func _(c *C, d Delivery) error {
	defer d.Ack()
	_ = c.publishDLQ(ctx, d)
	return nil
}`, want: []string{"UncheckedWrite: the deferred Ack (running at this return), c.publishDLQ @ return nil" +
			" | the DLQ write @ _ = c.publishDLQ(ctx, d)" +
			" | the deferred Ack @ defer d.Ack()"}},
		{name: "deferred ack deferred after a deferred write: the Ack runs first", check: ackCheck, src: `
func _(c *C, d Delivery) error {
	defer c.publishDLQ(ctx, d)
	defer d.Ack()
	return nil
}`, want: []string{"DeferredAfter: the deferred Ack (running at this return), c.publishDLQ @ return nil"}},
		{name: "deferred ack deferred before a deferred write: the write runs first", check: ackCheck, src: `
func _(c *C, d Delivery) error {
	defer d.Ack()
	defer c.publishDLQ(ctx, d)
	return nil
}`},
		{name: "deferred ack, the return Naks", check: ackCheck, src: `
func _(c *C, d Delivery) error {
	defer d.Ack()
	if err := c.publishDLQ(ctx, d); err != nil {
		return d.Nak()
	}
	return nil
}`},
		{name: "candidate: an exported function that could be a handler", check: ackCheck, src: `
func (c *C) Handle(ctx context.Context, d Delivery) error {
	_ = c.publishDLQ(ctx, d)
	return nil
}
`, want: []string{"candidate UncheckedWrite: returning nil (the bus then Acks the message), c.publishDLQ @ return nil"}},
		{name: "candidate: its return nil first settling on a path, not its Ack", check: ackCheck, src: `
func (c *C) Handle(ctx context.Context, d Delivery) error {
	_ = c.publishDLQ(ctx, d)
	if cond {
		d.Ack()
		return nil
	}
	return (nil)
}
`, want: []string{
			"UncheckedWrite: Ack, c.publishDLQ @ d.Ack()",
			"candidate UncheckedWrite: returning nil (the bus then Acks the message), c.publishDLQ @ return (nil)",
		}},
		{name: "candidate: unexported, not one", check: ackCheck, src: `
func (c *C) handle(ctx context.Context, d Delivery) error {
	_ = c.publishDLQ(ctx, d)
	return nil
}
`},
	})
}
