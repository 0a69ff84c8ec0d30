package main

import (
	"context"

	"example.com/wired/natsbus"
	"example.com/wired/svc"
)

func main() {
	s := svc.New(natsbus.New(nil), natsbus.Hooks{})
	_ = s.Start(context.Background())
}
