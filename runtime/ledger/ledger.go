package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Defaults of a Store.
const (
	DefaultBucket = "RETRY_LEDGER"
	// DefaultTTL is how long a record is kept after its last write. A
	// message that keeps failing rewrites its record at every failure, so
	// the TTL only has to outlast the longest redelivery delay (10 minutes
	// by default in package bus); it bounds what a process that died
	// before deleting a record leaves behind.
	DefaultTTL = 24 * time.Hour
)

// maxErrorText bounds the error text a record keeps.
const maxErrorText = 1024

// maxClasses bounds the classes a record keeps; the oldest first failure
// is dropped first.
const maxClasses = 16

var (
	// ErrInvalidOption is wrapped by every error an Option returns.
	ErrInvalidOption = errors.New("ledger: invalid option")
	// ErrBadRecord is wrapped by the error Load returns for a value that
	// is not a record (written by something else).
	ErrBadRecord = errors.New("ledger: not a record")
)

// Key identifies a message as one consumer sees it: the record of each
// consumer is its own. Stored, the stream's store time of the message,
// keeps a record from applying to another message that got the same
// sequence after the stream was recreated.
type Key struct {
	Stream, Consumer string
	Seq              uint64
	Stored           time.Time
}

// String returns the bucket key: "<stream>.<consumer>.<seq>.<store time in
// unix ns>", characters a key cannot hold replaced by '_'.
func (k Key) String() string {
	var b strings.Builder
	b.WriteString(token(k.Stream))
	b.WriteByte('.')
	b.WriteString(token(k.Consumer))
	b.WriteByte('.')
	b.WriteString(strconv.FormatUint(k.Seq, 10))
	b.WriteByte('.')
	var ns int64
	if !k.Stored.IsZero() {
		ns = k.Stored.UnixNano()
	}
	b.WriteString(strconv.FormatInt(ns, 10))
	return b.String()
}

// token makes s a non-empty key token: letters, digits, '-', '_', '=' and
// '/' are kept, anything else becomes '_'.
func token(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '=', r == '/':
			return r
		}
		return '_'
	}, s)
}

// Class is the history of one class of failure of a message.
type Class struct {
	First    time.Time `json:"first"`    // when an attempt first failed with this class
	Attempts int       `json:"attempts"` // attempts that failed with it
}

// Record is what is known of a message's earlier deliveries. The zero
// Record is a message that never failed.
type Record struct {
	// Attempts is the number of failed attempts. Releases at shutdown,
	// snoozes and ack waits that expired are not attempts.
	Attempts int `json:"attempts,omitempty"`
	// Snoozes is the number of deliveries the handler snoozed.
	Snoozes int `json:"snoozes,omitempty"`
	// Seen is the number of deliveries recorded: Attempts + Snoozes.
	// A record that has seen every earlier delivery is complete without a
	// ledger (package bus counts the others as failed attempts).
	Seen uint64 `json:"seen,omitempty"`
	// LastDelivery is the NumDelivered of the last delivery recorded.
	LastDelivery uint64 `json:"last_delivery,omitempty"`

	FirstFailure time.Time        `json:"first_failure,omitzero"`
	LastFailure  time.Time        `json:"last_failure,omitzero"`
	Classes      map[string]Class `json:"classes,omitempty"`
	LastClass    string           `json:"last_class,omitempty"`
	// LastError and LastErrorTypes are the text and the type names of the
	// last failure, kept so that a dead letter written on a later delivery
	// (one past the delivery cap, the server's spare delivery) still says
	// what the handler said, on any instance.
	LastError      string   `json:"last_error,omitempty"`
	LastErrorTypes []string `json:"last_error_types,omitempty"`
	// Verdict is the class of a dead letter decided on an earlier delivery
	// whose DLQ write failed: the next delivery writes it without running
	// the handler again.
	Verdict string `json:"verdict,omitempty"`
	// VerdictReason is that dead letter's reason.
	VerdictReason string `json:"verdict_reason,omitempty"`
}

// Failed returns r with one more failed attempt of class at now, on
// delivery n, with err's text and type names.
func (r Record) Failed(class string, now time.Time, n uint64, errText string, errTypes []string) Record {
	r.Classes = maps.Clone(r.Classes)
	r.Attempts++
	r.Seen++
	r.LastDelivery = n
	if r.FirstFailure.IsZero() {
		r.FirstFailure = now
	}
	r.LastFailure = now
	c := r.Classes[class]
	if c.First.IsZero() {
		c.First = now
	}
	c.Attempts++
	if r.Classes == nil {
		r.Classes = make(map[string]Class, 1)
	}
	r.Classes[class] = c
	for len(r.Classes) > maxClasses {
		oldest := slices.MinFunc(slices.Collect(maps.Keys(r.Classes)), func(a, b string) int {
			return r.Classes[a].First.Compare(r.Classes[b].First)
		})
		delete(r.Classes, oldest)
	}
	r.LastClass = class
	if len(errText) > maxErrorText {
		errText = strings.ToValidUTF8(errText[:maxErrorText], "") + "…"
	}
	r.LastError = errText
	r.LastErrorTypes = slices.Clone(errTypes)
	return r
}

// Snoozed returns r with one more snooze, on delivery n.
func (r Record) Snoozed(n uint64) Record {
	r.Snoozes++
	r.Seen++
	r.LastDelivery = n
	return r
}

// Store is a ledger in a JetStream key-value bucket. It is safe for
// concurrent use.
type Store struct {
	kv       jetstream.KeyValue
	bucket   string
	ttl      time.Duration
	storage  jetstream.StorageType
	replicas int
	create   bool
}

// Option configures a Store. It returns an error wrapping ErrInvalidOption
// when its argument is out of range.
type Option func(*Store) error

// WithBucket sets the bucket name (default RETRY_LEDGER).
func WithBucket(name string) Option {
	return func(s *Store) error {
		if name == "" || strings.ContainsFunc(name, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
		}) {
			return fmt.Errorf("%w: bucket name %q", ErrInvalidOption, name)
		}
		s.bucket = name
		return nil
	}
}

// WithTTL sets how long a record is kept after its last write (default
// 24h), for the bucket New creates. It must outlast the longest
// redelivery delay: a record that expires while its message waits
// makes the runner count the earlier deliveries as failed attempts.
func WithTTL(d time.Duration) Option {
	return func(s *Store) error {
		if d < time.Second {
			return fmt.Errorf("%w: TTL %v must be at least 1s", ErrInvalidOption, d)
		}
		s.ttl = d
		return nil
	}
}

// WithStorage sets the storage of the bucket New creates (default file).
func WithStorage(st jetstream.StorageType) Option {
	return func(s *Store) error {
		if st != jetstream.FileStorage && st != jetstream.MemoryStorage {
			return fmt.Errorf("%w: storage %v", ErrInvalidOption, st)
		}
		s.storage = st
		return nil
	}
}

// WithReplicas sets the replica count of the bucket New creates (default
// 1).
func WithReplicas(n int) Option {
	return func(s *Store) error {
		if n < 1 || n > 5 {
			return fmt.Errorf("%w: replicas %d not in 1..5", ErrInvalidOption, n)
		}
		s.replicas = n
		return nil
	}
}

// WithoutCreate makes New bind to an existing bucket and fail if there is
// none, for buckets managed elsewhere.
func WithoutCreate() Option {
	return func(s *Store) error {
		s.create = false
		return nil
	}
}

// New returns the Store of a ledger bucket, creating the bucket (history 1,
// the TTL, file storage) if it does not exist, unless WithoutCreate. An
// existing bucket is used as it is.
func New(ctx context.Context, js jetstream.JetStream, opts ...Option) (*Store, error) {
	s := &Store{bucket: DefaultBucket, ttl: DefaultTTL, storage: jetstream.FileStorage, replicas: 1, create: true}
	for _, opt := range opts {
		if err := opt(s); err != nil {
			return nil, err
		}
	}
	if js == nil {
		return nil, fmt.Errorf("%w: nil JetStream", ErrInvalidOption)
	}
	kv, err := js.KeyValue(ctx, s.bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) && s.create {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:      s.bucket,
			Description: "retrylint retry ledger: attempts and first failures of messages being retried",
			History:     1,
			TTL:         s.ttl,
			Storage:     s.storage,
			Replicas:    s.replicas,
		})
		if errors.Is(err, jetstream.ErrBucketExists) { // created concurrently
			kv, err = js.KeyValue(ctx, s.bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("ledger: bucket %s: %w", s.bucket, err)
	}
	s.kv = kv
	return s, nil
}

// Bucket returns the bucket name.
func (s *Store) Bucket() string { return s.bucket }

// Load returns the record of k. found is false, with a nil error, when
// there is none: the message never failed (or its record expired).
func (s *Store) Load(ctx context.Context, k Key) (r Record, found bool, err error) {
	e, err := s.kv.Get(ctx, k.String())
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return Record{}, false, nil
	case err != nil:
		return Record{}, false, fmt.Errorf("ledger: load %s: %w", k, err)
	}
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return Record{}, false, fmt.Errorf("%w: %s: %w", ErrBadRecord, k, err)
	}
	return r, true, nil
}

// Save stores r as the record of k once the server confirms it.
func (s *Store) Save(ctx context.Context, k Key, r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("ledger: save %s: %w", k, err)
	}
	if _, err := s.kv.Put(ctx, k.String(), b); err != nil {
		return fmt.Errorf("ledger: save %s: %w", k, err)
	}
	return nil
}

// Delete removes the record of k; deleting a record that does not exist is
// not an error.
func (s *Store) Delete(ctx context.Context, k Key) error {
	if err := s.kv.Purge(ctx, k.String()); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("ledger: delete %s: %w", k, err)
	}
	return nil
}
