// Package dlq keeps the evidence of messages that will not be retried, in a
// JetStream stream, and replays it.
//
// An Entry holds the failed message (subject, headers, payload) and the
// evidence needed to triage it: where it came from (stream, consumer, stream
// and consumer sequence, store time), how often it was delivered, when it
// first and last failed, how it was classified, the retry delay it carried,
// the error text and the type names along the error chain, and the handler
// that failed on it.
//
// Store.Write publishes an entry and returns nil only once the JetStream
// publish ack confirms it is stored. A bus layer must call it, and check its
// error, before it terminates the message (Term): if the write fails the
// message must stay in its stream (NakWithDelay) so that no evidence is lost.
//
// Writes are idempotent. Every entry has an identity made of the origin
// stream, consumer, stream sequence and store time (Entry.ID). It is the
// entry's Nats-Msg-Id, so JetStream's duplicate window drops a second write,
// and the last token of its subject, written with an expected last subject
// sequence of 0, so the server also rejects a second write after the window
// has passed. Write reports both cases as success. A worker that crashes
// between the DLQ write and Term therefore never duplicates evidence: the
// message is redelivered, written again (a no-op), and terminated.
//
// Entries are stored on "<prefix>.<stream>.<consumer>.<stream seq>.<store
// time in unix ns>" in a stream that New creates when it does not exist.
// Evidence goes in headers named Dlq-*, the original headers are kept under
// Dlq-Orig-<name> so that none of them (Nats-Msg-Id, Nats-Expected-*) can
// change how the DLQ stream stores the entry, and the payload is the original
// payload, truncated to a bound that keeps the entry under the server's
// max_payload (Entry.OriginalSize records the cut). A Redactor may rewrite an
// entry before it is stored.
//
// Store.Replay republishes chosen entries to their original subjects with
// their original headers.
package dlq
