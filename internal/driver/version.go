package driver

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/retrylint/retrylint/internal/config"
)

// Version returns the version of the running binary: the module version
// it was built at (go install github.com/retrylint/retrylint/cmd/retrylint@v0.1.0
// gives v0.1.0), or "devel" followed by the VCS revision when it was built
// from a checkout (with "+dirty" for uncommitted changes), or plain "devel".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(bi)
}

func versionOf(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "+dirty"
	}
	return "devel " + rev
}

// printVersion answers -version, 'version', and the go vet protocol's -V
// and -V=full. For -V=full the line ends with a hash of the executable and
// of the configuration file the run would read: go vet keys its cache on
// that line, so a changed .retrylint.yaml is not answered from the cache.
func printVersion(w io.Writer, progname string, full bool) int {
	if !full {
		fmt.Fprintf(w, "%s version %s\n", progname, Version())
		return ExitClean
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(w, "%s version %s\n", progname, Version())
		return ExitClean
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		fmt.Fprintf(w, "%s version %s\n", progname, Version())
		return ExitClean
	}
	h := sha256.New()
	h.Write(data)
	if p := config.Find("."); p != "" {
		if cfg, err := os.ReadFile(p); err == nil {
			h.Write([]byte(p))
			h.Write(cfg)
		}
	}
	fmt.Fprintf(w, "%s version %s buildID=%02x\n", progname, Version(), h.Sum(nil))
	return ExitClean
}

// versionRequest reports whether args ask for the version, and whether in
// the go vet protocol's full form.
func versionRequest(args []string) (asked, full bool) {
	if len(args) != 1 {
		return false, false
	}
	switch args[0] {
	case "version", "-version", "--version", "-V":
		return true, false
	case "-V=full", "--V=full":
		return true, true
	}
	return false, false
}
