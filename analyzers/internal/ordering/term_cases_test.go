package ordering_test

import "testing"

// TestTermOrdering proves, on termbeforedlq's spec, when a Term and a DLQ
// write of the same message make a finding, which kind, and where: the
// paths through branches, loops (no back edge crossed), returns, panics
// and calls that never return, select, switch, goto, unreachable code and
// function literals; deferred and spawned writes; the pairing of
// messages; the finding preferred when a Term shows several; generated
// files. TestTermAfterWrite has the handling of a write's error.
func TestTermOrdering(t *testing.T) {
	t.Parallel()
	runCases(t, []orderingCase{
		// Reachability from the Term.
		{name: "term then write", check: termCheck, src: `
func _(c *C, d Delivery) error {
	d.Term()
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "write checked then term", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if err := c.publishDLQ(ctx, d); err != nil {
		return err
	}
	return d.Term()
}`},
		{name: "term on a branch, write after the join", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		d.Term()
	} else {
		d.Nak()
	}
	return c.dlq.Write(ctx, d.Subject(), d.Data())
}`, want: []string{"Before: Term, c.dlq.Write @ d.Term()"}},
		{name: "term and write on exclusive branches", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		return d.Term()
	} else {
		return c.publishDLQ(ctx, d)
	}
}`},
		{name: "term then return before the write", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		d.Term()
		return nil
	}
	return c.publishDLQ(ctx, d)
}`},
		{name: "term then panic", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		d.Term()
		panic("given up")
	}
	return c.publishDLQ(ctx, d)
}`},
		{name: "term then os.Exit", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		d.Term()
		os.Exit(1)
	}
	return c.publishDLQ(ctx, d)
}`},
		{name: "term then a function of the package that never returns", check: termCheck, src: `
func fatal(msg string) {
	log.Printf("fatal: %s", msg)
	panic(msg)
}

func _(c *C, d Delivery) error {
	if cond {
		d.Term()
		fatal("given up")
	}
	return c.publishDLQ(ctx, d)
}`},
		{name: "term then a function that returns", check: termCheck, src: `
func warn(msg string) {
	if cond {
		panic(msg)
	}
}

func _(c *C, d Delivery) error {
	if cond {
		d.Term()
		warn("given up")
	}
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "write before term in a loop: back edge not crossed", check: termCheck, src: `
func _(c *C, d Delivery) {
	for i := 0; i < 3; i++ {
		if i > 0 {
			if err := c.publishDLQ(ctx, d); err != nil {
				return
			}
			continue
		}
		d.Term()
	}
}`},
		{name: "term then write in the same iteration", check: termCheck, src: `
func _(c *C, ds []Delivery) {
	for _, d := range ds {
		d.Term()
		if err := c.publishDLQ(ctx, d); err != nil {
			continue
		}
	}
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "term in select case, write after", check: termCheck, src: `
func _(c *C, d Delivery) error {
	select {
	case <-ch:
		d.Term()
	default:
	}
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "term in select case that returns", check: termCheck, src: `
func _(c *C, d Delivery) error {
	select {
	case <-ch:
		return d.Term()
	default:
	}
	return c.publishDLQ(ctx, d)
}`},
		{name: "term and write in different switch cases", check: termCheck, src: `
func _(c *C, d Delivery, x int) error {
	switch x {
	case 1:
		return d.Term()
	case 2:
		return c.publishDLQ(ctx, d)
	}
	return nil
}`},
		{name: "term falls through to the write's case", check: termCheck, src: `
func _(c *C, d Delivery, x int) error {
	switch x {
	case 1:
		d.Term()
		fallthrough
	case 2:
		return c.publishDLQ(ctx, d)
	}
	return nil
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "term in type switch case, write after", check: termCheck, src: `
func _(c *C, d Delivery, v any) error {
	switch v.(type) {
	case int:
		d.Term()
	}
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "goto forward to the write", check: termCheck, src: `
func _(c *C, d Delivery) error {
	d.Term()
	goto write
write:
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "goto jumps over the write", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		d.Term()
		goto done
	}
	if err := c.publishDLQ(ctx, d); err != nil {
		return err
	}
done:
	return nil
}`},
		{name: "goto backward to the write: a back edge", check: termCheck, src: `
func _(c *C, d Delivery) error {
again:
	if err := c.publishDLQ(ctx, d); err != nil {
		return err
	}
	d.Term()
	if cond {
		goto again
	}
	return nil
}`},

		{name: "unreachable code after a return", check: termCheck, src: `
func _(c *C, d Delivery) error {
	return nil
	d.Term()
	return c.publishDLQ(ctx, d)
}`},

		// Function literals.
		{name: "literal holding the term, never called", check: termCheck, src: `
func _(c *C, d Delivery) error {
	f := func() { d.Term() }
	_ = f
	return c.publishDLQ(ctx, d)
}`},
		{name: "literal called on the spot, then the write", check: termCheck, src: `
func _(c *C, d Delivery) error {
	func() { d.Term() }()
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: call to a function literal that may Term the message, c.publishDLQ @ func() { d.Term() }()"}},
		{name: "literal's own body is checked on its own", check: termCheck, src: `
func _(c *C, d Delivery) {
	go func() {
		d.Term()
		_ = c.publishDLQ(ctx, d)
	}()
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "term outside, write inside a literal not called", check: termCheck, src: `
func _(c *C, d Delivery) {
	d.Term()
	f := func() error { return c.publishDLQ(ctx, d) }
	_ = f
}`},

		{name: "write in a literal called on the spot", check: termCheck, src: `
func _(c *C, d Delivery) {
	d.Term()
	func() {
		_ = c.publishDLQ(ctx, d)
	}()
}`, want: []string{"Before: Term, in a function literal @ d.Term()"}},
		{name: "may-Term helper, then the write", check: termCheck, related: true, src: `
func terminate(d Delivery) {
	if cond {
		d.Term()
	}
}

func _(c *C, d Delivery) error {
	terminate(d)
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: call to terminate may Term the message, c.publishDLQ @ terminate(d)" +
			" | the DLQ write @ return c.publishDLQ(ctx, d)" +
			" | the Term inside terminate @ d.Term()"}},

		// Deferred and spawned.
		{name: "deferred write before the term", check: termCheck, src: `
func _(c *C, d Delivery) error {
	defer c.publishDLQ(ctx, d)
	return d.Term()
}`, want: []string{"DeferredAfter: Term, c.publishDLQ @ return d.Term()"}},
		{name: "deferred write after the term", check: termCheck, src: `
func _(c *C, d Delivery) error {
	d.Term()
	defer c.publishDLQ(ctx, d)
	return nil
}`, want: []string{"DeferredAfter: Term, c.publishDLQ @ d.Term()"}},
		{name: "deferred term", check: termCheck, src: `
func _(c *C, d Delivery) error {
	defer d.Term()
	if err := c.publishDLQ(ctx, d); err != nil {
		return err
	}
	return nil
}`},
		{name: "write started with go", check: termCheck, src: `
func _(c *C, d Delivery) error {
	go c.publishDLQ(ctx, d)
	return d.Term()
}`, want: []string{"Spawned: Term, c.publishDLQ @ return d.Term()"}},
		{name: "write started with go on another branch", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		go c.publishDLQ(ctx, d)
		return nil
	}
	return d.Term()
}`},

		// Messages.
		{name: "write of another message", check: termCheck, src: `
func _(c *C, d, other Delivery) error {
	d.Term()
	return c.publishDLQ(ctx, other)
}`},
		{name: "write of no message value", check: termCheck, src: `
func _(c *C, d Delivery) error {
	d.Term()
	return c.dlq.Write(ctx, "orders.DLQ", nil)
}`, want: []string{"Before: Term, c.dlq.Write @ d.Term()"}},
		{name: "no write at all", check: termCheck, src: `
func _(c *C, d Delivery) error {
	d.Term()
	return c.apply(ctx, d.Data())
}`},

		// Preference: the lower kind, then the earlier write.
		{name: "before preferred over unchecked", check: termCheck, src: `
func _(c *C, d Delivery) error {
	_ = c.publishDLQ(ctx, d)
	d.Term()
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
		{name: "earlier write preferred", check: termCheck, src: `
func _(c *C, d Delivery) error {
	d.Term()
	_ = c.dlq.Write(ctx, d.Subject(), d.Data())
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.dlq.Write @ d.Term()"}},
		{name: "same kind: the earlier write kept", check: termCheck, src: `
func _(c *C, d Delivery) error {
	_ = c.dlq.Write(ctx, d.Subject(), d.Data())
	_ = c.publishDLQ(ctx, d)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.dlq.Write @ return d.Term()"}},
		{name: "a lower kind found first is kept", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		goto term
	}
	goto write
term:
	d.Term()
	return c.dlq.Write(ctx, "orders.DLQ", nil)
write:
	_ = c.publishDLQ(ctx, d)
	goto term
}`, want: []string{"Before: Term, c.dlq.Write @ d.Term()"}},
		{name: "each term its own finding", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if cond {
		d.Term()
	} else {
		d.Term()
	}
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()", "Before: Term, c.publishDLQ @ d.Term()"}},

		// Generated files are skipped by ordering itself, not only by the
		// check's pass.
		{name: "generated file", check: termCheck, generated: true, src: `
func _(c *C, d Delivery) error {
	d.Term()
	return c.publishDLQ(ctx, d)
}`},
		{name: "generated file, reported straight to the pass", check: rawTermCheck, generated: true, src: `
func _(c *C, d Delivery) error {
	d.Term()
	return c.publishDLQ(ctx, d)
}`},
		{name: "not generated, reported straight to the pass", check: rawTermCheck, src: `
func _(c *C, d Delivery) error {
	d.Term()
	return c.publishDLQ(ctx, d)
}`, want: []string{"Before: Term, c.publishDLQ @ d.Term()"}},
	})
}
