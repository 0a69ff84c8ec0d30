// Package yaml is a stub of gopkg.in/yaml.v3 with the signatures the
// tests use.
package yaml

import "io"

func Unmarshal(in []byte, out interface{}) error { return nil }

type Decoder struct{}

func NewDecoder(r io.Reader) *Decoder         { return &Decoder{} }
func (d *Decoder) Decode(v interface{}) error { return nil }
func (d *Decoder) KnownFields(enable bool)    {}

type Node struct{}

// Decode decodes the node into v: not the payload, a node already parsed.
func (n *Node) Decode(v interface{}) error { return nil }
