package dlq

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Defaults of a Store.
const (
	DefaultStream        = "DLQ"
	DefaultSubjectPrefix = "dlq"
	// DefaultDuplicates is the duplicate window of a stream New creates. The
	// expected-last-subject-sequence check keeps writes idempotent after the
	// window too; the window makes a repeated write cheap.
	DefaultDuplicates = time.Hour
	// headroom is kept free under the server's max_payload for the protocol
	// and the JetStream headers the client adds.
	headroom = 1024
)

var (
	// ErrInvalidOption is wrapped by every error an Option returns.
	ErrInvalidOption = errors.New("dlq: invalid option")
	// ErrStreamConfig is returned by New when the DLQ stream exists but does
	// not capture the DLQ subjects.
	ErrStreamConfig = errors.New("dlq: stream does not capture the DLQ subjects")
	// ErrRedacted is wrapped by the error Write returns when the Redactor
	// fails and the minimal entry Write then stores instead (the evidence
	// without payload, headers or error text, which could leak what the
	// redactor protects) could not be stored either.
	ErrRedacted = errors.New("dlq: redactor failed")
	// ErrTooLarge is returned by Write when the entry's headers alone exceed
	// the server's max_payload, so that no part of the payload fits.
	ErrTooLarge = errors.New("dlq: entry headers exceed the server's max payload")
)

// Redactor rewrites an entry before it is stored: it may drop or mask
// payload, headers or error text. It receives a copy it may modify. An error
// stops the write (fail closed).
type Redactor func(e *Entry) error

// Store is a DLQ stream. It is safe for concurrent use.
type Store struct {
	js         jetstream.JetStream
	stream     jetstream.Stream
	name       string
	prefix     string
	duplicates time.Duration
	maxPayload int
	redact     Redactor
	create     bool
	storage    jetstream.StorageType
	replicas   int
}

// Option configures a Store. It returns an error wrapping ErrInvalidOption
// when its argument is out of range.
type Option func(*Store) error

// WithStream sets the DLQ stream name (default "DLQ").
func WithStream(name string) Option {
	return func(s *Store) error {
		if name == "" || strings.ContainsAny(name, ".*> \t\r\n") {
			return fmt.Errorf("%w: stream name %q", ErrInvalidOption, name)
		}
		s.name = name
		return nil
	}
}

// WithSubjectPrefix sets the subject prefix of entries (default "dlq").
// Entries are stored under "<prefix>.>".
func WithSubjectPrefix(prefix string) Option {
	return func(s *Store) error {
		if prefix == "" || strings.ContainsAny(prefix, "*> \t\r\n") || strings.HasPrefix(prefix, ".") || strings.HasSuffix(prefix, ".") || strings.Contains(prefix, "..") {
			return fmt.Errorf("%w: subject prefix %q", ErrInvalidOption, prefix)
		}
		s.prefix = prefix
		return nil
	}
}

// WithDuplicates sets the duplicate window of the stream New creates
// (default 1h).
func WithDuplicates(d time.Duration) Option {
	return func(s *Store) error {
		if d <= 0 {
			return fmt.Errorf("%w: duplicate window %v must be positive", ErrInvalidOption, d)
		}
		s.duplicates = d
		return nil
	}
}

// WithMaxPayload bounds the payload kept in an entry, in bytes. Longer
// payloads are truncated and the entry records the original size. Whatever
// the bound, the payload is also cut so that the entry fits the server's
// max_payload. 0 (the default) keeps as much as fits.
func WithMaxPayload(n int) Option {
	return func(s *Store) error {
		if n < 0 {
			return fmt.Errorf("%w: max payload %d must not be negative", ErrInvalidOption, n)
		}
		s.maxPayload = n
		return nil
	}
}

// WithRedactor sets a hook that rewrites every entry before it is stored.
func WithRedactor(r Redactor) Option {
	return func(s *Store) error {
		if r == nil {
			return fmt.Errorf("%w: nil redactor", ErrInvalidOption)
		}
		s.redact = r
		return nil
	}
}

// WithoutCreate makes New bind to an existing stream and fail if there is
// none, for DLQ streams managed elsewhere.
func WithoutCreate() Option {
	return func(s *Store) error {
		s.create = false
		return nil
	}
}

// WithStorage sets the storage of the stream New creates (default file).
func WithStorage(st jetstream.StorageType) Option {
	return func(s *Store) error {
		if st != jetstream.FileStorage && st != jetstream.MemoryStorage {
			return fmt.Errorf("%w: storage %v", ErrInvalidOption, st)
		}
		s.storage = st
		return nil
	}
}

// WithReplicas sets the replica count of the stream New creates (default 1).
func WithReplicas(n int) Option {
	return func(s *Store) error {
		if n < 1 || n > 5 {
			return fmt.Errorf("%w: replicas %d not in 1..5", ErrInvalidOption, n)
		}
		s.replicas = n
		return nil
	}
}

// New returns the Store of a DLQ stream, creating the stream if it does not
// exist (unless WithoutCreate). The stream New creates captures
// "<prefix>.>", keeps entries on file with no limits, discards new entries
// rather than old evidence if an operator adds limits, and has a one hour
// duplicate window. An existing stream is used as it is, if it captures the
// DLQ subjects; otherwise New returns an error wrapping ErrStreamConfig.
func New(ctx context.Context, js jetstream.JetStream, opts ...Option) (*Store, error) {
	s := &Store{
		js:         js,
		name:       DefaultStream,
		prefix:     DefaultSubjectPrefix,
		duplicates: DefaultDuplicates,
		create:     true,
		storage:    jetstream.FileStorage,
		replicas:   1,
	}
	for _, opt := range opts {
		if err := opt(s); err != nil {
			return nil, err
		}
	}
	if js == nil {
		return nil, fmt.Errorf("%w: nil JetStream", ErrInvalidOption)
	}
	st, err := js.Stream(ctx, s.name)
	if errors.Is(err, jetstream.ErrStreamNotFound) && s.create {
		st, err = js.CreateStream(ctx, jetstream.StreamConfig{
			Name:        s.name,
			Description: "retrylint dead-letter queue: failed messages and the evidence of why",
			Subjects:    []string{s.prefix + ".>"},
			Retention:   jetstream.LimitsPolicy,
			Discard:     jetstream.DiscardNew,
			Storage:     s.storage,
			Replicas:    s.replicas,
			Duplicates:  s.duplicates,
			AllowDirect: true,
		})
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) { // created concurrently
			st, err = js.Stream(ctx, s.name)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("dlq: stream %s: %w", s.name, err)
	}
	if !captures(st.CachedInfo().Config.Subjects, s.prefix) {
		return nil, fmt.Errorf("%w: stream %s subjects %q do not cover %s.>", ErrStreamConfig, s.name, st.CachedInfo().Config.Subjects, s.prefix)
	}
	s.stream = st
	return s, nil
}

// captures reports whether one of the stream subjects matches every subject
// under prefix (that is, every subject that "<prefix>.>" matches).
func captures(subjects []string, prefix string) bool {
	pt := strings.Split(prefix, ".")
	for _, f := range subjects {
		if capturesAll(strings.Split(f, "."), pt) {
			return true
		}
	}
	return false
}

func capturesAll(filter, prefix []string) bool {
	for i, tok := range filter {
		switch {
		case tok == ">":
			return true // matches the rest, and "<prefix>.>" has at least one token more
		case i >= len(prefix):
			return false // one token more, but "<prefix>.>" also matches deeper subjects
		case tok != "*" && tok != prefix[i]:
			return false
		}
	}
	return false // the filter ends without '>'
}

// Name returns the DLQ stream name.
func (s *Store) Name() string { return s.name }

// Subject returns the subject an entry is stored on.
func (s *Store) Subject(e *Entry) string { return s.prefix + "." + e.ID() }

// Write stores e and returns nil once the JetStream publish ack confirms it,
// or once it finds that an entry with the same ID is already stored (a
// repeated write after a crash or a lost Term). Any other failure is
// returned, wrapped: the caller must then keep the message for redelivery
// and must not terminate it. e is not modified.
//
// A refusal that no retry can cure does not keep the message in
// redelivery forever:
//
//   - an entry that does not fit the stream's limits (a header near the
//     64 KiB limit, a MaxMsgSize) is stored reduced (see Entry.Reduced):
//     without its payload and original headers; if that does not fit
//     either, minimal: the evidence alone, the error text cut to 256
//     bytes;
//   - an entry the Redactor fails on (a JSON-parsing redactor fails on
//     exactly the undecodable messages) is stored minimal, without
//     payload, headers or error text, since storing what the redactor
//     could not mask could leak what it protects.
//
// Either is flagged (Reduced, ReducedWhy) and cannot be replayed.
func (s *Store) Write(ctx context.Context, e *Entry) error {
	err := s.write(ctx, e)
	switch {
	case errors.Is(err, ErrRedacted):
		if err2 := s.writeMinimal(ctx, e, ReducedRedactor); err2 != nil {
			return fmt.Errorf("%w; nor could its minimal form be stored: %w", err, err2)
		}
		return nil
	case !tooLarge(err):
		return err
	}
	r := *e
	r.Header, r.Data, r.Reduced, r.ReducedWhy = nil, nil, true, ReducedTooLarge
	err = s.write(ctx, &r)
	switch {
	case err == nil:
		return nil
	case tooLarge(err):
		err = s.writeMinimal(ctx, e, ReducedTooLarge)
	case errors.Is(err, ErrRedacted):
		err = s.writeMinimal(ctx, e, ReducedRedactor)
	}
	if err != nil {
		return fmt.Errorf("dlq: the entry did not fit, nor did its reduced form: %w", err)
	}
	return nil
}

// writeMinimal stores the evidence of e alone: its identity (so the write
// stays idempotent with e's), counts, times, class and handler, and the
// error text cut short, or withheld when the redactor failed. It does not
// run the redactor, which has nothing left to mask.
func (s *Store) writeMinimal(ctx context.Context, e *Entry, why string) error {
	m := &Entry{
		Subject: e.Subject, Stream: e.Stream, Consumer: e.Consumer,
		StreamSeq: e.StreamSeq, ConsumerSeq: e.ConsumerSeq, Stored: e.Stored,
		Deliveries: e.Deliveries, Attempts: e.Attempts, Budget: e.Budget, BudgetEnd: e.BudgetEnd,
		FirstFailure: e.FirstFailure, LastFailure: e.LastFailure,
		Class: e.Class, RetryDelay: e.RetryDelay, Handler: e.Handler,
		Reduced: true, ReducedWhy: why,
	}
	if why == ReducedRedactor {
		m.Error = "error text withheld: the redactor failed on this entry"
	} else {
		m.Error = e.Error
		if len(m.Error) > maxMinimalErrorText {
			m.Error = strings.ToValidUTF8(m.Error[:maxMinimalErrorText], "") + "…"
		}
	}
	return s.publish(ctx, m)
}

func (s *Store) write(ctx context.Context, e *Entry) error {
	c := *e
	c.Header = cloneHeader(e.Header)
	c.ErrorTypes = append([]string(nil), e.ErrorTypes...)
	if s.redact != nil {
		if err := s.redact(&c); err != nil {
			return fmt.Errorf("%w: entry %s: %w", ErrRedacted, c.ID(), err)
		}
	}
	return s.publish(ctx, &c)
}

// publish stores c, which it may modify, as it is.
func (s *Store) publish(ctx context.Context, c *Entry) error {
	id := c.ID()
	c.OriginalSize = 0
	m := nats.NewMsg(s.prefix + "." + id)
	m.Header = c.header()
	limit := s.payloadLimit(m.Header)
	if limit < 0 {
		return fmt.Errorf("%w: entry %s", ErrTooLarge, id)
	}
	m.Data = c.Data
	if len(c.Data) > limit {
		c.OriginalSize = len(c.Data)
		m.Header[HeaderOriginalSize] = []string{fmt.Sprint(len(c.Data))}
		m.Data = c.Data[:limit]
	}
	_, err := s.js.PublishMsg(ctx, m,
		jetstream.WithMsgID(id),
		jetstream.WithExpectStream(s.name),
		jetstream.WithExpectLastSequencePerSubject(0),
	)
	if err != nil {
		if alreadyStored(err) {
			return nil
		}
		return fmt.Errorf("dlq: write %s: %w", id, err)
	}
	return nil // a PubAck with Duplicate set is a repeated write: stored once
}

// payloadLimit returns how many payload bytes fit next to h.
func (s *Store) payloadLimit(h nats.Header) int {
	size := 0
	for k, vs := range h {
		for _, v := range vs {
			size += len(k) + len(v) + 4 // "k: v\r\n"
		}
	}
	// Nats-Msg-Id, Nats-Expected-Stream, Nats-Expected-Last-Subject-Sequence.
	size += 128 + len(s.name) + len(h.Get(HeaderStream)) + len(h.Get(HeaderConsumer))
	limit := int(s.js.Conn().MaxPayload()) - size - headroom
	if limit < 0 {
		return -1
	}
	if s.maxPayload > 0 {
		limit = min(limit, s.maxPayload)
	}
	return limit
}

// alreadyStored reports whether err says that an entry is already stored on
// the subject: the server's "wrong last sequence" answer to the expected last
// subject sequence of 0.
// tooLarge reports whether a write failed because the entry's headers
// cannot fit: the server refused them, or no payload byte fits beside
// them.
func tooLarge(err error) bool {
	var apiErr *jetstream.APIError
	return errors.Is(err, ErrTooLarge) ||
		errors.As(err, &apiErr) && (apiErr.ErrorCode == jsErrCodeHeaderTooLarge || apiErr.ErrorCode == jetstream.JSErrCodeStreamMessageExceedsMaximum)
}

// jsErrCodeHeaderTooLarge is nats-server's error code for a message whose
// header exceeds the 64 KiB limit (JSStreamHeaderExceedsMaximumErr); the
// client library has no name for it.
const jsErrCodeHeaderTooLarge jetstream.ErrorCode = 10097

func alreadyStored(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	return apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
}

func cloneHeader(h nats.Header) nats.Header {
	if h == nil {
		return nil
	}
	c := make(nats.Header, len(h))
	for k, vs := range h {
		c[k] = append([]string(nil), vs...)
	}
	return c
}
