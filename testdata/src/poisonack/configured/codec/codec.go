// Package codec is the service's envelope codec: its Open decodes a
// payload although its name says nothing of it, so the service names it in
// decode-funcs; Seal encodes.
package codec

import "errors"

type Envelope struct {
	Kind string
	Body []byte
}

func Open(data []byte) (Envelope, error) {
	if len(data) == 0 {
		return Envelope{}, errors.New("codec: empty envelope")
	}
	return Envelope{Body: data}, nil
}

func Seal(e Envelope) ([]byte, error) { return e.Body, nil }
