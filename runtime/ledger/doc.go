// Package ledger keeps, on the NATS server, what a bus runner knows of the
// retries of each message that failed: how many attempts failed, how often
// the handler snoozed it, when it first failed, when each class of failure
// was first seen and how many attempts it took, and the last error.
//
// The server's own count, NumDelivered, counts every delivery: a release
// at shutdown, a snooze (a handler asking for a later retry that is not a
// failure), an ack wait that expired. Budgets that must count attempts,
// not deliveries, and windows that start at a class's first failure
// (package bus: ClassPolicy.Within), need a record that outlives the
// process that saw the failure and that every instance of the consumer
// reads: a runner that only remembers in memory forgets at a restart, and
// another instance never knew. The record lives in a JetStream key-value
// bucket, keyed by the message's identity (stream, consumer, stream
// sequence, store time), written before the runner asks for the
// redelivery and deleted once the message is settled for good.
//
// A Record is small (a few hundred bytes, the error text bounded to 1 KiB)
// and is written only when a delivery fails or is snoozed: the success path
// of a message that never failed costs nothing. Records that outlive their
// message (a process that died between the settlement and the delete)
// expire with the bucket's TTL.
package ledger
