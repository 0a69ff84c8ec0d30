package main

import (
	"example.com/shop/bus"
	"example.com/shop/svc"
)

func main() {
	s := &svc.Service{}
	_, _ = bus.Subscribe(nil, s.HandleOrder)
	_, _ = bus.Subscribe(nil, s.HandleFine)
	_, _ = bus.Subscribe(nil, s.HandleDecoded)
	_, _ = bus.Subscribe(nil, s.HandleDecodedFine)
	_, _ = bus.Subscribe(nil, s.HandleParked)
	_, _ = bus.Subscribe(nil, s.HandleParkedFine)
	_, _ = bus.Subscribe(nil, bus.JSON(s.HandleTyped))
	_, _ = bus.Subscribe(nil, bus.JSON(s.HandleTypedFine))
	_, _ = bus.Subscribe(nil, s.HandlePermanent)
	_, _ = bus.Subscribe(nil, s.HandlePermanentFine)
}
