// Command orders-consumer wires the order handlers to JetStream consumers.
package main

import (
	"context"
	"log"
	"os"
	"os/signal"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/examples/orders/handlers"
	"github.com/retrylint/retrylint/examples/orders/inventory"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	h := &handlers.Orders{JS: js, Inventory: &inventory.Client{Capacity: 10}}

	consumers := map[string]func(context.Context, jetstream.Msg){
		"orders-placed":     h.HandlePlaced,
		"orders-cancelled":  h.HandleCancelled,
		"inventory-restock": h.HandleRestock,
	}
	for name, handle := range consumers {
		c, err := js.Consumer(ctx, "ORDERS", name)
		if err != nil {
			log.Fatal(err)
		}
		cc, err := c.Consume(func(msg jetstream.Msg) { handle(ctx, msg) })
		if err != nil {
			log.Fatal(err)
		}
		defer cc.Stop()
	}
	<-ctx.Done()
}
