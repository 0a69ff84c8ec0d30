package printf

import (
	"reflect"
	"testing"
)

func TestParseVerbs(t *testing.T) {
	for _, tc := range []struct {
		format string
		want   []Verb
	}{
		{"no verbs", nil},
		{"100%%", nil},
		{"op: %v", []Verb{{Verb: 'v', Arg: 0, Offset: 5, Start: 4}}},
		{"%s: %w", []Verb{{Verb: 's', Arg: 0, Offset: 1, Start: 0}, {Verb: 'w', Arg: 1, Offset: 5, Start: 4}}},
		{"%*d %v", []Verb{{Verb: 'd', Arg: 1, Offset: 2, Start: 0}, {Verb: 'v', Arg: 2, Offset: 5, Start: 4}}},
		{"%.*f", []Verb{{Verb: 'f', Arg: 1, Offset: 3, Start: 0}}},
		{"%[2]v %[1]w", []Verb{{Verb: 'v', Arg: 1, Offset: 4, Start: 0}, {Verb: 'w', Arg: 0, Offset: 10, Start: 6}}},
		{"%+-#0 8.3v", []Verb{{Verb: 'v', Arg: 0, Offset: 9, Start: 0}}},
		{"trailing %", nil},
	} {
		if got := ParseVerbs(tc.format); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseVerbs(%q) = %+v, want %+v", tc.format, got, tc.want)
		}
	}
}
