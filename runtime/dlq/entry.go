package dlq

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// Header names of the evidence an entry carries.
const (
	HeaderSubject      = "Dlq-Subject"       // original subject
	HeaderStream       = "Dlq-Stream"        // original stream
	HeaderConsumer     = "Dlq-Consumer"      // consumer that gave up
	HeaderStreamSeq    = "Dlq-Stream-Seq"    // stream sequence of the original
	HeaderConsumerSeq  = "Dlq-Consumer-Seq"  // consumer sequence of the last delivery
	HeaderStored       = "Dlq-Stored"        // when the original was stored (RFC 3339)
	HeaderDeliveries   = "Dlq-Deliveries"    // delivery count when it was given up
	HeaderAttempts     = "Dlq-Attempts"      // attempt number of the delivery that gave up (releases and snoozes not counted)
	HeaderBudget       = "Dlq-Budget"        // the retry budget that ran out: attempts, grace, age, deliveries, backoff
	HeaderBudgetEnd    = "Dlq-Budget-End"    // when that budget ended, for a time budget (RFC 3339)
	HeaderFirstFailure = "Dlq-First-Failure" // first failure seen (RFC 3339)
	HeaderLastFailure  = "Dlq-Last-Failure"  // failure that dead-lettered it (RFC 3339)
	HeaderClass        = "Dlq-Class"         // classification, such as "permanent"
	HeaderRetryDelay   = "Dlq-Retry-Delay"   // delay the error carried (time.Duration text)
	HeaderError        = "Dlq-Error"         // error text, escaped to one line
	HeaderErrorTypes   = "Dlq-Error-Types"   // dynamic types along the error chain, comma separated
	HeaderHandler      = "Dlq-Handler"       // handler that failed on it
	HeaderOriginalSize = "Dlq-Original-Size" // original payload size, set when the payload was truncated
	HeaderReduced      = "Dlq-Reduced"       // set on an entry stored without its payload and original headers
	HeaderReducedWhy   = "Dlq-Reduced-Why"   // why it was: ReducedTooLarge or ReducedRedactor
	HeaderOrigPrefix   = "Dlq-Orig-"         // prefix of the original headers
)

// ErrNotEntry is returned when a message read from the DLQ stream is not an
// entry (it lacks the evidence headers).
var ErrNotEntry = errors.New("dlq: not a DLQ entry")

// maxErrorText bounds the error text kept in an entry.
const maxErrorText = 4096

// maxMinimalErrorText bounds the error text of a minimal entry.
const maxMinimalErrorText = 256

// Reasons an entry is reduced (Entry.ReducedWhy).
const (
	ReducedTooLarge = "too large for the DLQ stream"
	ReducedRedactor = "redactor failed"
)

// Entry is a dead-lettered message and the evidence of why.
type Entry struct {
	// Where the message came from. Stream, Consumer, StreamSeq and Stored
	// identify it (see ID).
	Subject     string
	Stream      string
	Consumer    string
	StreamSeq   uint64
	ConsumerSeq uint64
	Stored      time.Time // when the stream stored the original

	// Why it was given up.
	Deliveries   uint64        // delivery count at the time
	Attempts     uint64        // attempt number at the time: failed attempts, not releases or snoozes (bus); 0 if unknown
	Budget       string        // the retry budget that ran out (bus: attempts, grace, age, deliveries, backoff); "" for none
	BudgetEnd    time.Time     // when that budget ended, for a time budget (a grace window, the message-age budget)
	FirstFailure time.Time     // first failure the writer knew of (bus: from its ledger, else this process; LastFailure if none earlier)
	LastFailure  time.Time     // the failure that dead-lettered it
	Class        string        // classification, such as "permanent"
	RetryDelay   time.Duration // delay the error carried, if any
	Error        string        // error text
	ErrorTypes   []string      // dynamic types along the error chain
	Handler      string        // handler that failed

	// The message itself.
	Header nats.Header
	Data   []byte

	// OriginalSize is the size of the original payload when Data was
	// truncated to fit the DLQ, 0 otherwise. A truncated entry cannot be
	// replayed.
	OriginalSize int

	// Reduced is set when the entry is stored without its payload and its
	// original headers, because the full entry did not fit the DLQ
	// stream's limits (a header near the 64 KiB limit, which the origin
	// stream accepted, no longer fits beside the evidence). A reduced
	// entry keeps the evidence and cannot be replayed.
	Reduced bool
	// ReducedWhy says why an entry is reduced: ReducedTooLarge, or
	// ReducedRedactor (the Redactor failed: the entry is minimal, its
	// error text withheld, since the redactor may have had to mask it).
	ReducedWhy string

	// Set on entries read from the DLQ stream.
	Seq     uint64    // sequence in the DLQ stream
	Written time.Time // when the DLQ stream stored it
}

// ID returns the entry's identity: "<stream>.<consumer>.<stream
// seq>.<store time in unix ns>", with any character that is not allowed in a
// subject token replaced by '_' and a zero store time written as 0. Writes of entries with the same ID store one
// entry.
func (e *Entry) ID() string {
	var b strings.Builder
	b.WriteString(token(e.Stream))
	b.WriteByte('.')
	b.WriteString(token(e.Consumer))
	b.WriteByte('.')
	b.WriteString(strconv.FormatUint(e.StreamSeq, 10))
	b.WriteByte('.')
	var ns int64
	if !e.Stored.IsZero() {
		ns = e.Stored.UnixNano()
	}
	b.WriteString(strconv.FormatInt(ns, 10))
	return b.String()
}

// Truncated reports whether the payload was cut to fit the DLQ.
func (e *Entry) Truncated() bool { return e.OriginalSize > 0 }

// token makes s a valid, non-empty subject token.
func token(s string) string {
	if s == "" {
		return "_"
	}
	if !strings.ContainsFunc(s, badTokenRune) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if badTokenRune(r) {
			return '_'
		}
		return r
	}, s)
}

func badTokenRune(r rune) bool {
	return r == '.' || r == '*' || r == '>' || r <= ' ' || r == 0x7f
}

// escaper and unescaper keep a header value on one line, reversibly.
var (
	escaper   = strings.NewReplacer(`\`, `\\`, "\r", `\r`, "\n", `\n`)
	unescaper = strings.NewReplacer(`\\`, `\`, `\r`, "\r", `\n`, "\n")
)

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// header returns the DLQ message headers of e: the evidence and the original
// headers under HeaderOrigPrefix.
func (e *Entry) header() nats.Header {
	h := make(nats.Header, 16+len(e.Header))
	set := func(k, v string) {
		if v != "" {
			h[k] = []string{v}
		}
	}
	set(HeaderSubject, e.Subject)
	set(HeaderStream, e.Stream)
	set(HeaderConsumer, e.Consumer)
	set(HeaderStreamSeq, strconv.FormatUint(e.StreamSeq, 10))
	set(HeaderConsumerSeq, strconv.FormatUint(e.ConsumerSeq, 10))
	set(HeaderStored, timeText(e.Stored))
	set(HeaderDeliveries, strconv.FormatUint(e.Deliveries, 10))
	if e.Attempts > 0 {
		set(HeaderAttempts, strconv.FormatUint(e.Attempts, 10))
	}
	set(HeaderBudget, escaper.Replace(e.Budget))
	set(HeaderBudgetEnd, timeText(e.BudgetEnd))
	set(HeaderFirstFailure, timeText(e.FirstFailure))
	set(HeaderLastFailure, timeText(e.LastFailure))
	set(HeaderClass, escaper.Replace(e.Class))
	if e.RetryDelay > 0 {
		set(HeaderRetryDelay, e.RetryDelay.String())
	}
	msg := e.Error
	if len(msg) > maxErrorText {
		msg = strings.ToValidUTF8(msg[:maxErrorText], "") + "…"
	}
	set(HeaderError, escaper.Replace(msg))
	set(HeaderErrorTypes, escaper.Replace(strings.Join(e.ErrorTypes, ",")))
	set(HeaderHandler, escaper.Replace(e.Handler))
	if e.OriginalSize > 0 {
		set(HeaderOriginalSize, strconv.Itoa(e.OriginalSize))
	}
	if e.Reduced {
		set(HeaderReduced, "true")
		set(HeaderReducedWhy, escaper.Replace(e.ReducedWhy))
	}
	for k, vs := range e.Header {
		h[HeaderOrigPrefix+k] = append([]string(nil), vs...)
	}
	return h
}

// Decode reads an entry from a message of the DLQ stream: its headers, its
// payload, and its sequence and store time in that stream.
func Decode(h nats.Header, data []byte, seq uint64, written time.Time) (*Entry, error) {
	if h.Get(HeaderStream) == "" || h.Get(HeaderStreamSeq) == "" {
		return nil, fmt.Errorf("%w: seq %d has no %s/%s header", ErrNotEntry, seq, HeaderStream, HeaderStreamSeq)
	}
	e := &Entry{
		Subject:  h.Get(HeaderSubject),
		Stream:   h.Get(HeaderStream),
		Consumer: h.Get(HeaderConsumer),
		Class:    unescaper.Replace(h.Get(HeaderClass)),
		Budget:   unescaper.Replace(h.Get(HeaderBudget)),
		Error:    unescaper.Replace(h.Get(HeaderError)),
		Handler:  unescaper.Replace(h.Get(HeaderHandler)),
		Data:     data,
		Seq:      seq,
		Written:  written,
	}
	var errs []error
	num := func(k string) uint64 {
		v := h.Get(k)
		if v == "" {
			return 0
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", k, err))
		}
		return n
	}
	when := func(k string) time.Time {
		v := h.Get(k)
		if v == "" {
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", k, err))
		}
		return t
	}
	e.StreamSeq = num(HeaderStreamSeq)
	e.ConsumerSeq = num(HeaderConsumerSeq)
	e.Deliveries = num(HeaderDeliveries)
	e.Attempts = num(HeaderAttempts)
	e.BudgetEnd = when(HeaderBudgetEnd)
	e.OriginalSize = int(num(HeaderOriginalSize))
	e.Reduced = h.Get(HeaderReduced) == "true"
	e.ReducedWhy = unescaper.Replace(h.Get(HeaderReducedWhy))
	e.Stored = when(HeaderStored)
	e.FirstFailure = when(HeaderFirstFailure)
	e.LastFailure = when(HeaderLastFailure)
	if v := h.Get(HeaderRetryDelay); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", HeaderRetryDelay, err))
		}
		e.RetryDelay = d
	}
	if v := unescaper.Replace(h.Get(HeaderErrorTypes)); v != "" {
		e.ErrorTypes = strings.Split(v, ",")
	}
	for k, vs := range h {
		if name, ok := strings.CutPrefix(k, HeaderOrigPrefix); ok {
			if e.Header == nil {
				e.Header = nats.Header{}
			}
			e.Header[name] = append([]string(nil), vs...)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: seq %d: %w", ErrNotEntry, seq, errors.Join(errs...))
	}
	return e, nil
}
