package driver

import (
	"bytes"
	"regexp"
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	for _, tc := range []struct {
		main     string
		settings map[string]string
		want     string
	}{
		{main: "v0.3.1", want: "v0.3.1"}, // go install ...@v0.3.1
		{main: "(devel)", settings: map[string]string{"vcs.revision": "0123456789abcdef0123", "vcs.modified": "false"}, want: "devel 0123456789ab"},
		{main: "(devel)", settings: map[string]string{"vcs.revision": "0123456789abcdef0123", "vcs.modified": "true"}, want: "devel 0123456789ab+dirty"},
		{main: "(devel)", want: "devel"}, // -buildvcs=false
		{main: "", want: "devel"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tc.main}}
		for k, v := range tc.settings {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: k, Value: v})
		}
		if got := versionOf(bi); got != tc.want {
			t.Errorf("versionOf(%q, %v) = %q, want %q", tc.main, tc.settings, got, tc.want)
		}
	}
}

// TestVersionRequests: -version, version, -V answer with one line; -V=full,
// go vet's question, adds the executable's hash, which go vet keys its
// cache on.
func TestVersionRequests(t *testing.T) {
	plain := regexp.MustCompile(`^retrylint version (v\S+|devel( \S+)?)\n$`)
	full := regexp.MustCompile(`^retrylint version (v\S+|devel( \S+)?) buildID=[0-9a-f]{64}\n$`)
	for _, args := range [][]string{{"-version"}, {"version"}, {"--version"}, {"-V"}, {"-V=full"}} {
		var out, errOut bytes.Buffer
		if code := Main("retrylint", args, nil, &out, &errOut); code != ExitClean || errOut.Len() != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
		want := plain
		if args[0] == "-V=full" {
			want = full
		}
		if !want.MatchString(out.String()) {
			t.Errorf("%v printed %q, want %s", args, out.String(), want)
		}
	}
	if asked, _ := versionRequest([]string{"-version", "./..."}); asked {
		t.Error("-version with packages is not a version request")
	}
}
