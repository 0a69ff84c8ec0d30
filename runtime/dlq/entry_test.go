package dlq

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

func TestEntryIDIsASubjectSuffix(t *testing.T) {
	e := &Entry{Stream: "S", Consumer: "a.b c*>", StreamSeq: 9, Stored: time.Unix(0, 42)}
	if got, want := e.ID(), "S.a_b_c__.9.42"; got != want {
		t.Fatalf("ID = %q, want %q", got, want)
	}
	if got := (&Entry{}).ID(); got != "_._.0.0" {
		t.Fatalf("ID of zero entry = %q", got)
	}
}

func TestHeaderRoundTrip(t *testing.T) {
	e := &Entry{
		Stream: "S", StreamSeq: 1, Class: "perm\nanent", Error: strings.Repeat("é", maxErrorText),
		ErrorTypes: []string{"*a.B"}, Header: nats.Header{"X": {"1"}},
	}
	h := e.header()
	for k, vs := range h {
		for _, v := range vs {
			if strings.ContainsAny(v, "\r\n") {
				t.Fatalf("header %s holds a line break: %q", k, v)
			}
		}
	}
	got, err := Decode(h, nil, 5, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Class != e.Class || !strings.HasSuffix(got.Error, "…") || len(got.Error) > maxErrorText+len("…") || got.Header.Get("X") != "1" {
		t.Fatalf("round trip: class %q, error of %d bytes, header %v", got.Class, len(got.Error), got.Header)
	}
	if got.FirstFailure.IsZero() != true || got.RetryDelay != 0 {
		t.Fatal("unset fields did not stay zero")
	}
}

func TestDecodeRejectsNonEntries(t *testing.T) {
	if _, err := Decode(nats.Header{}, []byte("x"), 1, time.Time{}); !errors.Is(err, ErrNotEntry) {
		t.Fatalf("Decode without evidence: %v", err)
	}
	bad := nats.Header{HeaderStream: {"S"}, HeaderStreamSeq: {"x"}, HeaderStored: {"yesterday"}, HeaderRetryDelay: {"soon"}}
	if _, err := Decode(bad, nil, 1, time.Time{}); !errors.Is(err, ErrNotEntry) {
		t.Fatalf("Decode with malformed evidence: %v", err)
	}
}

func TestCaptures(t *testing.T) {
	cases := []struct {
		subjects []string
		prefix   string
		want     bool
	}{
		{[]string{"dlq.>"}, "dlq", true},
		{[]string{">"}, "dlq", true},
		{[]string{"*.>"}, "dlq", true},
		{[]string{"dead.>"}, "dead.letters", true},
		{[]string{"dead.*.>"}, "dead.letters", true},
		{[]string{"dlq.*"}, "dlq", false},
		{[]string{"dlq"}, "dlq", false},
		{[]string{"other.>", "dlq.a.>"}, "dlq", false},
		{[]string{"other.>", "dlq.>"}, "dlq", true},
		{[]string{"dlq.x.>"}, "dlq.x.y", true},
		{nil, "dlq", false},
	}
	for _, c := range cases {
		if got := captures(c.subjects, c.prefix); got != c.want {
			t.Errorf("captures(%q, %q) = %v, want %v", c.subjects, c.prefix, got, c.want)
		}
	}
}
