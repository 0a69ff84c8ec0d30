package profile_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzers/profile"
)

func TestBuiltin(t *testing.T) {
	for _, p := range profile.Builtin() {
		if err := p.Validate(); err != nil {
			t.Error(err)
		}
		if got := p.DelayedRetry(); got != "NakWithDelay" {
			t.Errorf("%s: delayed retry %q, want NakWithDelay", p.Name, got)
		}
	}
}

func TestLoad(t *testing.T) {
	p, err := profile.Load(filepath.Join("..", "..", "testdata", "src", "quemq", "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	if p.AckMethods["Discard"] != profile.Terminate || p.DelayedRetry() != "RequeueAfter" {
		t.Errorf("loaded %+v", p)
	}

	for _, tc := range []struct{ json, want string }{
		{`{"name": "x", "ack_methods": {"Ack": "finished"}}`, `settlement "finished" is not one of`},
		{`{"name": "x", "ack_methods": {"Nak": "retry-now"}}`, `no ack method settles as "done"`},
		{`{"name": "x", "ack_methods": {"Ack": "done"}, "colour": 1}`, `unknown field "colour"`},
		{`{"ack_methods": {"Ack": "done"}}`, `profile without a name`},
		{`{"name": "x", "ack_methods": {"Ack": "done"}, "messages": [{"path": "", "name": "Msg"}]}`, `bad type`},
		{`{"name": "x", "ack_methods": {"a-b": "done"}}`, `is not a Go method name`},
	} {
		path := filepath.Join(t.TempDir(), "p.json")
		if err := os.WriteFile(path, []byte(tc.json), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := profile.Load(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), path) {
			t.Errorf("Load(%s) = %v, want an error naming the file and containing %q", tc.json, err, tc.want)
		}
	}
}

// TestRedeliveryMethodsCoverEveryList fails when a list of methods is
// added to Redelivery without Methods returning it: the redelivery scan
// rejects a callee whose name Methods does not hold.
func TestRedeliveryMethodsCoverEveryList(t *testing.T) {
	var rd profile.Redelivery
	v := reflect.ValueOf(&rd).Elem()
	lists := 0
	for i := range v.NumField() {
		if v.Field(i).Type() == reflect.TypeFor[[]profile.Method]() {
			v.Field(i).Set(reflect.ValueOf([]profile.Method{{Path: "p", Name: v.Type().Field(i).Name}}))
			lists++
		}
	}
	got := make(map[string]bool)
	for _, m := range rd.Methods() {
		got[m.Name] = true
	}
	for i := range v.NumField() {
		if name := v.Type().Field(i).Name; v.Field(i).Type() == reflect.TypeFor[[]profile.Method]() && !got[name] {
			t.Errorf("Redelivery.Methods leaves out %s", name)
		}
	}
	if lists < 6 {
		t.Fatalf("found %d lists of methods, want 6 or more", lists)
	}
}
