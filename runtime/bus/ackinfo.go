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
	delivered, streamSeq, _, ok = ackFields(reply)
	return delivered, streamSeq, ok
}

// ackFields is ackInfo with the message's store time in unix nanoseconds
// (the <tm> token), which the message-age budget and the retry ledger's
// keys need.
func ackFields(reply string) (delivered, streamSeq uint64, stored int64, ok bool) {
	rest, found := strings.CutPrefix(reply, "$JS.ACK.")
	if !found {
		return 0, 0, 0, false
	}
	var skip int // tokens before <delivered>
	switch n := strings.Count(rest, ".") + 1 + 2; {
	case n == 9:
		skip = 2
	case n >= 11:
		skip = 4
	default:
		return 0, 0, 0, false
	}
	for range skip {
		_, rest, _ = strings.Cut(rest, ".")
	}
	d, rest, _ := strings.Cut(rest, ".")
	s, rest, _ := strings.Cut(rest, ".")
	_, rest, _ = strings.Cut(rest, ".") // <cseq>
	tm, _, _ := strings.Cut(rest, ".")
	delivered, ok1 := parseNum(d)
	streamSeq, ok2 := parseNum(s)
	ts, ok3 := parseNum(tm)
	return delivered, streamSeq, int64(min(ts, 1<<63-1)), ok1 && ok2 && ok3
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
