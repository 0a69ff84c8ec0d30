// Package nats is a signature-only stub of github.com/nats-io/nats.go for
// analyzer tests: just the API the testdata uses, so tests never fetch
// modules.
package nats

import (
	"context"
	"time"
)

const MsgIdHdr = "Nats-Msg-Id"

type Header map[string][]string

func (h Header) Set(key, value string) {}
func (h Header) Get(key string) string { return "" }

type Msg struct {
	Subject string
	Reply   string
	Header  Header
	Data    []byte
	Sub     *Subscription
}

type AckOpt interface{ configureAck() }

type MsgMetadata struct {
	NumDelivered uint64
	Stream       string
	Consumer     string
	Timestamp    time.Time
}

func NewMsg(subject string) *Msg { return &Msg{Subject: subject, Header: Header{}} }

func (m *Msg) Ack(opts ...AckOpt) error                               { return nil }
func (m *Msg) AckSync(opts ...AckOpt) error                           { return nil }
func (m *Msg) Nak(opts ...AckOpt) error                               { return nil }
func (m *Msg) NakWithDelay(delay time.Duration, opts ...AckOpt) error { return nil }
func (m *Msg) Term(opts ...AckOpt) error                              { return nil }
func (m *Msg) InProgress(opts ...AckOpt) error                        { return nil }
func (m *Msg) Respond(data []byte) error                              { return nil }
func (m *Msg) Metadata() (*MsgMetadata, error)                        { return nil, nil }
func Context(ctx context.Context) AckOpt                              { return nil }

type Subscription struct{}

func (s *Subscription) Unsubscribe() error                          { return nil }
func (s *Subscription) NextMsg(timeout time.Duration) (*Msg, error) { return nil, nil }
func (s *Subscription) Fetch(batch int, opts ...PullOpt) ([]*Msg, error) {
	return nil, nil
}

type MsgHandler func(msg *Msg)

type Option func(*Options) error
type Options struct{}

type Conn struct{}

func Connect(url string, options ...Option) (*Conn, error) { return &Conn{}, nil }

func (nc *Conn) Publish(subj string, data []byte) error               { return nil }
func (nc *Conn) PublishMsg(m *Msg) error                              { return nil }
func (nc *Conn) PublishRequest(subj, reply string, data []byte) error { return nil }
func (nc *Conn) Flush() error                                         { return nil }
func (nc *Conn) Request(subj string, data []byte, timeout time.Duration) (*Msg, error) {
	return nil, nil
}
func (nc *Conn) Subscribe(subj string, cb MsgHandler) (*Subscription, error) { return nil, nil }
func (nc *Conn) QueueSubscribe(subj, queue string, cb MsgHandler) (*Subscription, error) {
	return nil, nil
}
func (nc *Conn) ChanSubscribe(subj string, ch chan *Msg) (*Subscription, error) { return nil, nil }
func (nc *Conn) SubscribeSync(subj string) (*Subscription, error)               { return nil, nil }
func (nc *Conn) QueueSubscribeSync(subj, queue string) (*Subscription, error) {
	return nil, nil
}
func (nc *Conn) Close()                                            {}
func (nc *Conn) JetStream(opts ...JSOpt) (JetStreamContext, error) { return nil, nil }

type JSOpt interface{ configureJSContext() }
type PubOpt interface{ configurePublish() }
type SubOpt interface{ configureSubscribe() }
type PullOpt interface{ configurePull() }

type PubAck struct {
	Stream    string
	Sequence  uint64
	Duplicate bool
}

type PubAckFuture interface {
	Ok() <-chan *PubAck
	Err() <-chan error
	Msg() *Msg
}

func MsgId(id string) PubOpt         { return nil }
func AckWait(t time.Duration) SubOpt { return nil }
func MaxDeliver(n int) SubOpt        { return nil }
func ManualAck() SubOpt              { return nil }
func Durable(name string) SubOpt     { return nil }
func OrderedConsumer() SubOpt        { return nil }
func AckNone() SubOpt                { return nil }
func AckExplicit() SubOpt            { return nil }

type JetStreamContext interface {
	Publish(subj string, data []byte, opts ...PubOpt) (*PubAck, error)
	PublishMsg(m *Msg, opts ...PubOpt) (*PubAck, error)
	PublishAsync(subj string, data []byte, opts ...PubOpt) (PubAckFuture, error)
	PublishMsgAsync(m *Msg, opts ...PubOpt) (PubAckFuture, error)
	PublishAsyncComplete() <-chan struct{}
	Subscribe(subj string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
	QueueSubscribe(subj, queue string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
	PullSubscribe(subj, durable string, opts ...SubOpt) (*Subscription, error)
}

var ErrTimeout = errTimeout{}

type errTimeout struct{}

func (errTimeout) Error() string { return "nats: timeout" }
