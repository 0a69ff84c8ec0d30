// Package app decodes with helpers two calls deep (retryLater calls
// queue.Redeliver, which Naks bare) and with helpers whose settlement
// depends on the error they are given (settle Naks a non-nil error bare and
// Acks a nil one): each call is judged with its effect and its argument.
package app

import (
	"encoding/json"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"poisonack/helpers/queue"
)

type Job struct{ ID string }

func retryLater(m jetstream.Msg) { queue.Redeliver(m) }

func pauseAndRetry(m jetstream.Msg) { queue.Later(m) }

// settle maps an outcome onto the message: Nak a failure, Ack a success.
func settle(m jetstream.Msg, err error) {
	if err != nil {
		log.Printf("job failed: %v", err)
		_ = m.Nak()
		return
	}
	_ = m.Ack()
}

// settleLater waits before a retry and Acks a success.
func settleLater(m jetstream.Msg, err error) {
	if err != nil {
		_ = m.NakWithDelay(5e9)
		return
	}
	_ = m.Ack()
}

func handleTwoDeep(m jetstream.Msg) {
	var j Job
	if err := json.Unmarshal(m.Data(), &j); err != nil {
		retryLater(m) // want `call to retryLater bare-Naks the message on the decode failure of json.Unmarshal: the same payload comes back at once`
		return
	}
	_ = m.Ack()
}

func handleSettled(m jetstream.Msg) {
	var j Job
	if err := json.Unmarshal(m.Data(), &j); err != nil {
		settle(m, err) // want `call to settle bare-Naks the message on the decode failure of json.Unmarshal \(given err\)`
		return
	}
	settle(m, nil)
}

func handleSettledNil(m jetstream.Msg) {
	var j Job
	if err := json.Unmarshal(m.Data(), &j); err != nil {
		log.Printf("bad job: %v", err)
		settle(m, nil) // want `call to settle Acks the message on the decode failure of json.Unmarshal \(given nil\) and drops the undecodable payload`
		return
	}
	settle(m, nil)
}

// Not reported: two calls deep, with a delay.
func handlePaused(m jetstream.Msg) {
	var j Job
	if err := json.Unmarshal(m.Data(), &j); err != nil {
		pauseAndRetry(m)
		return
	}
	_ = m.Ack()
}

// Not reported: settleLater waits before retrying a non-nil error, and
// Acks only a nil one.
func handleSettledLater(m jetstream.Msg) {
	var j Job
	if err := json.Unmarshal(m.Data(), &j); err != nil {
		settleLater(m, err)
		return
	}
	settleLater(m, nil)
}
