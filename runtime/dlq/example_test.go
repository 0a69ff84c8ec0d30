package dlq_test

import (
	"context"
	"fmt"
	"log"

	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/natstest"
)

// Inspect the DLQ after an incident, then replay what a fix now handles.
func ExampleStore_Replay() {
	srv, err := natstest.New(".")
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Shutdown()
	nc, js, err := srv.Connect()
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	ctx := context.Background()
	store, err := dlq.New(ctx, js)
	if err != nil {
		log.Fatal(err)
	}
	for e, err := range store.Entries(ctx) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e.Seq, e.Subject, e.Class, e.Deliveries, e.Error)
	}
	done, err := store.Replay(ctx,
		dlq.ReplayFilter(func(e *dlq.Entry) bool { return e.Class == "permanent" }),
		dlq.ReplayDelete())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(done), "replayed")
}
