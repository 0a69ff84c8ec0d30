// Package kvstore proves that a store call of a library (a JetStream
// key-value bucket's Put, Create, Update, an object store's Put) on a
// receiver named like a dead-letter queue is a DLQ write (CONTRACT.md
// version 3, "Returns an error": its last result is error), and that the
// bucket's reads and other buckets' writes are not.
package kvstore

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type Parker struct {
	deadLetters jetstream.KeyValue
	offsets     jetstream.KeyValue
	dlqObjects  jetstream.ObjectStore
}

func key(msg jetstream.Msg) string {
	md, err := msg.Metadata()
	if err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%s.%d", md.Stream, md.Sequence.Stream)
}

// The failure of the bucket write is logged and the message Termed anyway.
func (p *Parker) _(ctx context.Context, msg jetstream.Msg) {
	if _, err := p.deadLetters.Put(ctx, key(msg), msg.Data()); err != nil {
		log.Printf("park %s: %v", msg.Subject(), err)
	}
	_ = msg.TermWithReason("poison") // want `TermWithReason on the failure path of the DLQ write p.deadLetters.Put`
}

// Term first, the bucket write after it.
func (p *Parker) _(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Term() // want `Term before the DLQ write p.deadLetters.Create`
	_, err := p.deadLetters.Create(ctx, key(msg), msg.Data())
	return err
}

// The object store's write, discarded.
func (p *Parker) _(ctx context.Context, msg jetstream.Msg) error {
	p.dlqObjects.PutBytes(ctx, key(msg), msg.Data())
	return msg.Term() // want `Term after the DLQ write p.dlqObjects.PutBytes whose error is not checked`
}

// Quiet: the bucket write is checked and its failure Naks with delay.
func (p *Parker) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := p.deadLetters.Put(ctx, key(msg), msg.Data()); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// Quiet: a read of the dead-letter bucket is no write.
func (p *Parker) _(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Term()
	_, err := p.deadLetters.Get(ctx, key(msg))
	return err
}

// Quiet: a bucket that is not a dead-letter queue.
func (p *Parker) _(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Term()
	_, err := p.offsets.Put(ctx, key(msg), []byte("done"))
	return err
}
