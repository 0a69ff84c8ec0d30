// Package msgpack is a stub of github.com/vmihailenco/msgpack/v5 with the
// signatures the tests use.
package msgpack

import "io"

func Unmarshal(data []byte, v interface{}) error { return nil }
func Marshal(v interface{}) ([]byte, error)      { return nil, nil }

type Decoder struct{}

func NewDecoder(r io.Reader) *Decoder                  { return &Decoder{} }
func (d *Decoder) Decode(v interface{}) error          { return nil }
func (d *Decoder) Reset(r io.Reader)                   {}
func (d *Decoder) DecodeMulti(v ...interface{}) error  { return nil }
func (d *Decoder) Skip() error                         { return nil }
func (d *Decoder) UseLooseInterfaceDecoding(flag bool) {}
