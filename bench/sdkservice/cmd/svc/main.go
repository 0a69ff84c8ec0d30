package main

import (
	"context"
	"log"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"example.com/sdkservice/clients0"
	"example.com/sdkservice/clients1"
	"example.com/sdkservice/clients2"
	"example.com/sdkservice/clients3"
	"example.com/sdkservice/clients4"
	"example.com/sdkservice/queue"
	"example.com/sdkservice/store"
)

func main() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	c, err := js.Consumer(ctx, "ORDERS", "svc")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := queue.Consume(ctx, c, &store.Store{DB: dynamodb.NewFromConfig(cfg)}); err != nil {
		log.Fatal(err)
	}
	_, _, _, _, _ = clients0.New(cfg), clients1.New(cfg), clients2.New(cfg), clients3.New(cfg), clients4.New(cfg)
	select {}
}
