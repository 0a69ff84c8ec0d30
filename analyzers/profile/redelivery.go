package profile

import "slices"

// Redelivery names where a library's messages come from when nothing
// redelivers them (CONTRACT.md version 3, "Messages that nothing
// redelivers"): an Ack there settles nothing the server would redeliver,
// so the checks that judge what an Ack, a Nak or a Term loses leave those
// messages alone. Every list is optional.
type Redelivery struct {
	// Callbacks are subscriptions whose handler argument receives
	// messages nothing redelivers: core NATS's (*nats.Conn).Subscribe.
	Callbacks []Method `json:"callbacks,omitempty"`
	// Channels are subscriptions whose channel argument receives them:
	// (*nats.Conn).ChanSubscribe.
	Channels []Method `json:"channels,omitempty"`
	// Sources return a subscription or a consumer whose messages nothing
	// redelivers: (*nats.Conn).SubscribeSync, an ordered consumer.
	Sources []Method `json:"sources,omitempty"`
	// Optioned are subscriptions whose messages nothing redelivers when
	// one of their arguments is a call of one of Options
	// (js.Subscribe(subj, h, nats.AckNone())).
	Optioned []Method `json:"optioned,omitempty"`
	Options  []Method `json:"options,omitempty"`
	// Creates are consumer creations whose configuration literal decides:
	// NoAck set (AckPolicy: AckNonePolicy), or none of Named set (an
	// ephemeral consumer) and the consumer read once, by one of Reads,
	// in the function that creates it.
	Creates []Method `json:"creates,omitempty"`
	NoAck   *Field   `json:"no_ack,omitempty"`
	Named   []string `json:"named,omitempty"`
	Reads   []string `json:"reads,omitempty"`
	// Handlers are the methods of such a consumer or subscription whose
	// handler argument receives its messages (Consume).
	Handlers []string `json:"handlers,omitempty"`
}

// Methods returns every method of rd's lists, for a cheap test by name
// before a call is matched against one list.
func (rd *Redelivery) Methods() []Method {
	return slices.Concat(rd.Callbacks, rd.Channels, rd.Sources, rd.Optioned, rd.Options, rd.Creates)
}

// Method is a function (Recv empty) or a method of a named type of the
// package at Path.
type Method struct {
	Path string `json:"path"`
	Recv string `json:"recv,omitempty"`
	Name string `json:"name"`
}

// Field is a configuration field set to a constant of the package at
// Path: AckPolicy: jetstream.AckNonePolicy.
type Field struct {
	Name  string `json:"name"`
	Value Method `json:"value"`
}

const (
	natsPath = "github.com/nats-io/nats.go"
	jsPath   = "github.com/nats-io/nats.go/jetstream"
)

// natsRedelivery: core NATS subscriptions, and the legacy JetStream API's
// ordered and AckNone subscriptions.
var natsRedelivery = &Redelivery{
	Callbacks: []Method{{natsPath, "Conn", "Subscribe"}, {natsPath, "Conn", "QueueSubscribe"}},
	Channels:  []Method{{natsPath, "Conn", "ChanSubscribe"}, {natsPath, "Conn", "ChanQueueSubscribe"}},
	Sources:   []Method{{natsPath, "Conn", "SubscribeSync"}, {natsPath, "Conn", "QueueSubscribeSync"}},
	Optioned: []Method{{natsPath, "JetStreamContext", "Subscribe"}, {natsPath, "JetStreamContext", "QueueSubscribe"},
		{natsPath, "JetStreamContext", "SubscribeSync"}, {natsPath, "JetStreamContext", "PullSubscribe"},
		{natsPath, "JetStreamContext", "ChanSubscribe"}},
	Options: []Method{{Path: natsPath, Name: "OrderedConsumer"}, {Path: natsPath, Name: "AckNone"}},
	Reads:   []string{"NextMsg", "Fetch"},
}

// jetStreamRedelivery: ordered consumers, AckNone consumers, and
// ephemeral consumers read once (a history or replay reader).
var jetStreamRedelivery = &Redelivery{
	// nats.go declares these in StreamConsumerManager (embedded in
	// JetStream) and ConsumerManager (embedded in Stream): a call through
	// JetStream resolves to the embedded interface's method. The outer
	// names stay for copies of the API that declare them directly.
	Sources: []Method{{jsPath, "JetStream", "OrderedConsumer"}, {jsPath, "Stream", "OrderedConsumer"},
		{jsPath, "StreamConsumerManager", "OrderedConsumer"}, {jsPath, "ConsumerManager", "OrderedConsumer"}},
	Creates: []Method{{jsPath, "JetStream", "CreateConsumer"}, {jsPath, "JetStream", "CreateOrUpdateConsumer"},
		{jsPath, "Stream", "CreateConsumer"}, {jsPath, "Stream", "CreateOrUpdateConsumer"},
		{jsPath, "StreamConsumerManager", "CreateConsumer"}, {jsPath, "StreamConsumerManager", "CreateOrUpdateConsumer"},
		{jsPath, "ConsumerManager", "CreateConsumer"}, {jsPath, "ConsumerManager", "CreateOrUpdateConsumer"}},
	NoAck:    &Field{Name: "AckPolicy", Value: Method{Path: jsPath, Name: "AckNonePolicy"}},
	Named:    []string{"Durable", "Name"},
	Reads:    []string{"Fetch", "FetchNoWait", "FetchBytes", "Next"},
	Handlers: []string{"Consume"},
}
