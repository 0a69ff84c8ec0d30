package bus

import "strings"

// ackInfo reads the delivery count and the stream sequence from a JetStream
// ack subject without allocating, for the success path, where the runner
// needs nothing else. It accepts the two formats nats.go parses:
//
//	$JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<tm>.<pending>
//	$JS.ACK.<domain>.<hash>.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<tm>.<pending>[.<token>...]
//
// and reports ok false for anything else; the caller then uses
// Msg.Metadata, which stays the reference.
func ackInfo(reply string) (delivered, streamSeq uint64, ok bool) {
	rest, found := strings.CutPrefix(reply, "$JS.ACK.")
	if !found {
		return 0, 0, false
	}
	var skip int // tokens before <delivered>
	switch n := strings.Count(rest, ".") + 1 + 2; {
	case n == 9:
		skip = 2
	case n >= 11:
		skip = 4
	default:
		return 0, 0, false
	}
	for range skip {
		_, rest, _ = strings.Cut(rest, ".")
	}
	d, rest, _ := strings.Cut(rest, ".")
	s, _, _ := strings.Cut(rest, ".")
	delivered, ok1 := parseNum(d)
	streamSeq, ok2 := parseNum(s)
	return delivered, streamSeq, ok1 && ok2
}

// parseNum parses a positive decimal number of at most 19 digits.
func parseNum(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}
