package ordering_test

import "testing"

// TestTermAfterWrite proves, on termbeforedlq's spec, what a Term after a
// DLQ write makes of the write's error: discarded (_ =, a statement, a
// swallowing writer), assigned and only logged or overwritten (through :=,
// =, var, several results or values), tested on the spot or later (!=,
// ==, nil first, negation, && and ||), its failure branch reaching the
// Term; and the look-alikes not judged: checked and returned, collected,
// switched on, stored in a field or a value that is no error, tested in a
// way not followed, given to the Term's helper.
func TestTermAfterWrite(t *testing.T) {
	t.Parallel()
	runCases(t, []orderingCase{
		{name: "error discarded with _", check: termCheck, src: `
func _(c *C, d Delivery) error {
	_ = c.publishDLQ(ctx, d)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.publishDLQ @ return d.Term()"}},
		{name: "write as a statement", check: termCheck, src: `
func _(c *C, d Delivery) error {
	c.publishDLQ(ctx, d)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.publishDLQ @ return d.Term()"}},
		{name: "error only logged", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	log.Printf("dead letter: %v", err)
	c.logger.Error("dead letter", "err", err)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.publishDLQ @ return d.Term()"}},
		{name: "error overwritten", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	err = c.apply(ctx, nil)
	if err != nil {
		return err
	}
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.publishDLQ @ return d.Term()"}},
		{name: "error declared with var, not checked", check: termCheck, src: `
func _(c *C, d Delivery) error {
	var err = c.publishDLQ(ctx, d)
	log.Print(err)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.publishDLQ @ return d.Term()"}},
		{name: "error assigned to a declared variable", check: termCheck, src: `
func _(c *C, d Delivery) error {
	var err error
	err = c.publishDLQ(ctx, d)
	log.Print(err)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.publishDLQ @ return d.Term()"}},
		{name: "error assigned with another value", check: termCheck, src: `
func _(c *C, d Delivery) error {
	n, err := len(d.Data()), c.publishDLQ(ctx, d)
	log.Print(n, err)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.publishDLQ @ return d.Term()"}},
		{name: "error kept in a value that is not an error", check: termCheck, src: `
func _(c *C, d Delivery) error {
	var v any
	v = c.publishDLQ(ctx, d)
	log.Print(v)
	return d.Term()
}`},
		{name: "error not checked across a branch on something else", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if cond {
		log.Print("a")
	} else {
		log.Print("b")
	}
	c.logger.Warn("dead letter", "err", err)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.publishDLQ @ return d.Term()"}},
		{name: "swallowing writer", check: termCheck, src: `
func (c *C) bury(ctx context.Context, d Delivery) {
	if err := c.publishDLQ(ctx, d); err != nil {
		log.Print(err)
	}
}

func _(c *C, d Delivery) error {
	c.bury(ctx, d)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.bury @ return d.Term()"}},
		{name: "error assigned and checked", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if err != nil {
		return err
	}
	return d.Term()
}`},
		{name: "error checked with == nil", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if err == nil {
		return d.Term()
	}
	return err
}`},
		{name: "error collected", check: termCheck, src: `
func _(c *C, d Delivery) error {
	var errs []error
	err := c.publishDLQ(ctx, d)
	errs = append(errs, err)
	d.Term()
	return errors.Join(errs...)
}`},
		{name: "error passed to a switch tag", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	switch err {
	case nil:
	}
	return d.Term()
}`},
		{name: "failure branch switches on the error", check: termCheck, src: `
var errGone = errors.New("gone")

func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if err != nil {
		switch err {
		case errGone:
			return err
		}
	}
	return d.Term()
}`},
		{name: "error stored in a field", check: termCheck, src: `
func _(c *C, d Delivery) error {
	c.lastErr = c.publishDLQ(ctx, d)
	return d.Term()
}`},
		{name: "error tested by a call we cannot follow", check: termCheck, src: `
var errGone = errors.New("gone")

func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if errors.Is(err, errGone) {
		return err
	}
	return d.Term()
}`},
		{name: "failure branch falls through to the term", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if err := c.publishDLQ(ctx, d); err != nil {
		log.Printf("dead letter: %v", err)
	}
	return d.Term()
}`, want: []string{"FailurePath: Term, c.publishDLQ @ return d.Term()"}},
		{name: "failure tested with nil first", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if nil != err {
		log.Print(err)
	}
	return d.Term()
}`, want: []string{"FailurePath: Term, c.publishDLQ @ return d.Term()"}},
		{name: "another condition and failure", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if cond && len(d.Data()) != 0 && err != nil {
		log.Print(err)
	}
	return d.Term()
}`, want: []string{"FailurePath: Term, c.publishDLQ @ return d.Term()"}},
		{name: "error compared with a sentinel", check: termCheck, src: `
var errGone = errors.New("gone")

func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	if err == errGone {
		return nil
	}
	return d.Term()
}`},
		{name: "write tested in place", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if c.publishDLQ(ctx, d) != nil {
		c.logger.Warn("dead letter failed")
	}
	return d.Term()
}`, want: []string{"FailurePath: Term, c.publishDLQ @ return d.Term()"}},
		{name: "write tested in place, negated", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if !(c.publishDLQ(ctx, d) == nil) {
		return nil
	}
	return d.Term()
}`},
		{name: "failure with another condition", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if err := c.publishDLQ(ctx, d); err != nil && cond {
		c.logger.Warn("dead letter failed")
	}
	return d.Term()
}`, want: []string{"FailurePath: Term, c.publishDLQ @ return d.Term()"}},
		{name: "success or another condition", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if err := c.publishDLQ(ctx, d); err == nil || cond {
		return d.Term()
	}
	return nil
}`},
		{name: "term on the failure branch", check: termCheck, src: `
func _(c *C, d Delivery) error {
	err := c.publishDLQ(ctx, d)
	switch {
	case err != nil:
		d.Term()
	}
	return err
}`, want: []string{"FailurePath: Term, c.publishDLQ @ d.Term()"}},
		{name: "error given to the term's helper", check: termCheck, src: `
func settle(d Delivery, err error) {
	if err == nil {
		d.Term()
	}
}

func _(c *C, d Delivery) {
	err := c.publishDLQ(ctx, d)
	settle(d, err)
}`},
		{name: "error given to the term's helper, a term after", check: termCheck, src: `
func settle(d Delivery, err error) {
	d.Term()
}

func _(c *C, d Delivery) {
	err := c.publishDLQ(ctx, d)
	settle(d, err)
	d.Term()
}`},
		{name: "operands before the call: a term inside the write's arguments", check: termCheck, src: `
func _(c *C, d Delivery) {
	_ = c.dlq.Write(ctx, fmt.Sprint(d.Term()), d.Data())
}`, want: []string{"Before: Term, c.dlq.Write @ _ = c.dlq.Write(ctx, fmt.Sprint(d.Term()), d.Data())"}},
		{name: "two results, error not checked", check: termCheck, src: `
func _(c *C, d Delivery) error {
	n, err := c.dlqN.Write(ctx, d.Data())
	log.Println(n, err)
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.dlqN.Write @ return d.Term()"}},
		{name: "two results, error discarded", check: termCheck, src: `
func _(c *C, d Delivery) error {
	n, _ := c.dlqN.Write(ctx, d.Data())
	_ = n
	return d.Term()
}`, want: []string{"UncheckedWrite: Term, c.dlqN.Write @ return d.Term()"}},
		{name: "two results, error checked", check: termCheck, src: `
func _(c *C, d Delivery) error {
	if _, err := c.dlqN.Write(ctx, d.Data()); err != nil {
		return err
	}
	return d.Term()
}`},
	})
}
