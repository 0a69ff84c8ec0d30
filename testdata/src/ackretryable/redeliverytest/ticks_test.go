package redeliverytest

import (
	"testing"

	"github.com/nats-io/nats.go"
)

func TestOnTick(t *testing.T) {
	var nc *nats.Conn
	ticks := &Ticks{}
	if _, err := nc.Subscribe("ticks", ticks.onTick); err != nil {
		t.Fatal(err)
	}
}
