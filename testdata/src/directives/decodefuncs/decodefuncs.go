package decodefuncs // want `decode-funcs entry directives/decodefuncs.Codec.Opne \(-retrycontract.decode-funcs\) names no method Codec.Opne of package decodefuncs: a typo hides findings`

// Codec opens envelopes; the configuration names its Open method and
// unwrap as payload decoders, and Opne by a typo.
type Codec struct{}

func (Codec) Open(data []byte) ([]byte, error) { return data, nil }

func unwrap(data []byte) ([]byte, error) { return Codec{}.Open(data) }
