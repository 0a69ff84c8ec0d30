// Package jetstream is a signature-only stub of
// github.com/nats-io/nats.go/jetstream for analyzer tests.
package jetstream

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
)

type Msg interface {
	Metadata() (*MsgMetadata, error)
	Data() []byte
	Headers() nats.Header
	Subject() string
	Reply() string
	Ack() error
	DoubleAck(context.Context) error
	Nak() error
	NakWithDelay(delay time.Duration) error
	InProgress() error
	Term() error
	TermWithReason(reason string) error
}

type SequencePair struct {
	Consumer uint64
	Stream   uint64
}

type MsgMetadata struct {
	Sequence     SequencePair
	NumDelivered uint64
	NumPending   uint64
	Timestamp    time.Time
	Stream       string
	Consumer     string
	Domain       string
}

type PubAck struct {
	Stream    string
	Sequence  uint64
	Duplicate bool
}

type PublishOpt func(*pubOpts) error
type pubOpts struct{}

func WithMsgID(id string) PublishOpt            { return nil }
func WithExpectStream(stream string) PublishOpt { return nil }

type PubAckFuture interface {
	Ok() <-chan *PubAck
	Err() <-chan error
	Msg() *nats.Msg
}

type JetStream interface {
	Publish(ctx context.Context, subject string, payload []byte, opts ...PublishOpt) (*PubAck, error)
	PublishMsg(ctx context.Context, msg *nats.Msg, opts ...PublishOpt) (*PubAck, error)
	PublishAsync(subject string, payload []byte, opts ...PublishOpt) (PubAckFuture, error)
	PublishMsgAsync(msg *nats.Msg, opts ...PublishOpt) (PubAckFuture, error)
	PublishAsyncComplete() <-chan struct{}
	KeyValue(ctx context.Context, bucket string) (KeyValue, error)
	Stream(ctx context.Context, stream string) (Stream, error)
	CreateStream(ctx context.Context, cfg StreamConfig) (Stream, error)
	StreamConsumerManager
}

// StreamConsumerManager is embedded in JetStream, as in nats.go: its
// methods' receiver is this interface, not JetStream.
type StreamConsumerManager interface {
	CreateOrUpdateConsumer(ctx context.Context, stream string, cfg ConsumerConfig) (Consumer, error)
	CreateConsumer(ctx context.Context, stream string, cfg ConsumerConfig) (Consumer, error)
	OrderedConsumer(ctx context.Context, stream string, cfg OrderedConsumerConfig) (Consumer, error)
	Consumer(ctx context.Context, stream string, consumer string) (Consumer, error)
}

func New(nc *nats.Conn) (JetStream, error) { return nil, nil }

type StreamConfig struct {
	Name     string
	Subjects []string
}

// AckPolicy is how a consumer's messages are acknowledged.
type AckPolicy int

const (
	AckNonePolicy AckPolicy = iota
	AckAllPolicy
	AckExplicitPolicy
)

// DeliverPolicy is where a consumer starts.
type DeliverPolicy int

const (
	DeliverAllPolicy DeliverPolicy = iota
	DeliverLastPolicy
)

type OrderedConsumerConfig struct {
	FilterSubjects []string
	DeliverPolicy  DeliverPolicy
}

type ConsumerConfig struct {
	Name          string
	Durable       string
	AckPolicy     AckPolicy
	DeliverPolicy DeliverPolicy
	FilterSubject string
	AckWait       time.Duration
	MaxDeliver    int
	BackOff       []time.Duration
}

type Stream interface {
	ConsumerManager
}

// ConsumerManager is embedded in Stream, as in nats.go.
type ConsumerManager interface {
	CreateOrUpdateConsumer(ctx context.Context, cfg ConsumerConfig) (Consumer, error)
	CreateConsumer(ctx context.Context, cfg ConsumerConfig) (Consumer, error)
	OrderedConsumer(ctx context.Context, cfg OrderedConsumerConfig) (Consumer, error)
	Consumer(ctx context.Context, name string) (Consumer, error)
}

type MessageHandler func(msg Msg)

type PullConsumeOpt interface{ configureConsume() }
type FetchOpt func(*fetchOpts) error
type fetchOpts struct{}

type ConsumeContext interface{ Stop() }

type MessagesContext interface {
	Next() (Msg, error)
	Stop()
}

type MessageBatch interface {
	Messages() <-chan Msg
	Error() error
}

type Consumer interface {
	Consume(handler MessageHandler, opts ...PullConsumeOpt) (ConsumeContext, error)
	Messages(opts ...PullConsumeOpt) (MessagesContext, error)
	Next(opts ...FetchOpt) (Msg, error)
	Fetch(batch int, opts ...FetchOpt) (MessageBatch, error)
	FetchNoWait(batch int) (MessageBatch, error)
}

type KeyValueEntry interface {
	Key() string
	Value() []byte
	Revision() uint64
}

// KeyValue is a JetStream key-value bucket.
type KeyValue interface {
	Get(ctx context.Context, key string) (KeyValueEntry, error)
	Put(ctx context.Context, key string, value []byte) (uint64, error)
	PutString(ctx context.Context, key string, value string) (uint64, error)
	Create(ctx context.Context, key string, value []byte) (uint64, error)
	Update(ctx context.Context, key string, value []byte, revision uint64) (uint64, error)
	Delete(ctx context.Context, key string) error
	Keys(ctx context.Context) ([]string, error)
}

type ObjectInfo struct {
	Name string
	Size uint64
}

// ObjectStore is a JetStream object store.
type ObjectStore interface {
	PutBytes(ctx context.Context, name string, data []byte) (*ObjectInfo, error)
	GetBytes(ctx context.Context, name string) ([]byte, error)
}
