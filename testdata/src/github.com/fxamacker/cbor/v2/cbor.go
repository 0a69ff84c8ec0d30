// Package cbor is a stub of github.com/fxamacker/cbor/v2 with the
// signatures the tests use.
package cbor

import "io"

func Unmarshal(data []byte, v interface{}) error { return nil }

// Wellformed checks that data is one well-formed CBOR data item: a
// validation, not a decode into a value.
func Wellformed(data []byte) error { return nil }

// DecMode is the interface of configured decoders.
type DecMode interface {
	Unmarshal(data []byte, v interface{}) error
	NewDecoder(r io.Reader) *Decoder
	Valid(data []byte) error
}

type DecOptions struct{}

func (opts DecOptions) DecMode() (DecMode, error) { return nil, nil }

type Decoder struct{}

func NewDecoder(r io.Reader) *Decoder         { return &Decoder{} }
func (d *Decoder) Decode(v interface{}) error { return nil }
