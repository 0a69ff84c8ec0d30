package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// This file computes what every package's results depend on besides the
// go command's listing of the packages (pkgcache.go): the setup part of
// the package cache's keys. pkgCache's doc says why the keys are complete.

// setupSum hashes the setup of a run with flags (its arguments without
// the patterns, the configuration file's included) into h: the binary,
// the flags that change what is analyzed, the configuration file, the
// profile files, the go command's environment, the process's GO and CGO_
// variables and the overlay files GOFLAGS names. Files are hashed through
// c (c.fileSum), which records them for the check before storing.
func (r *runner) setupSum(c *pkgCache, flags []string, env map[string]string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", pkgCacheFormat)
	exe, err := executableSum()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "binary\x00%s\x00flags\x00%q\x00", exe, analysisFlags(flags))
	if r.config != nil {
		// The file's path and content, as parsed: beyond the arguments it
		// becomes, messages name it and its lines (dlq-funcs origins).
		fmt.Fprintf(h, "config\x00%s\x00%d\x00%s\x00", r.config.path, len(r.config.data), r.config.data)
	}
	if r.profiles != nil {
		for _, name := range r.profiles.files {
			if err := c.hashSetupFile(h, "profile", name); err != nil {
				return "", err
			}
		}
	}
	names := make([]string, 0, len(env))
	for name := range env {
		if name != "GOGCCFLAGS" { // names a temporary directory new in every go command
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(h, "goenv\x00%s=%s\x00", name, env[name])
	}
	vars := slices.DeleteFunc(slices.Clone(os.Environ()), func(kv string) bool {
		return !strings.HasPrefix(kv, "GO") && !strings.HasPrefix(kv, "CGO_")
	})
	slices.Sort(vars)
	fmt.Fprintf(h, "environ\x00%q\x00", vars)
	if err := c.hashOverlay(h, env["GOFLAGS"]); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashSetupFile adds a file of the setup, by name and content, to h, and
// records it: no entry is stored if it changes before the run ends.
func (c *pkgCache) hashSetupFile(h io.Writer, kind, name string) error {
	fs, err := c.contentSum(name)
	if err != nil {
		return err
	}
	c.setupFiles = append(c.setupFiles, name)
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", kind, name, fs.sum)
	return nil
}

// hashOverlay adds to h the overlay file an -overlay flag in goflags
// names, and every file it maps a source file to: the go command reads
// their contents in place of the files it lists. Paths are relative to
// the working directory, as the go command reads them.
func (c *pkgCache) hashOverlay(h io.Writer, goflags string) error {
	for _, f := range strings.Fields(goflags) {
		name, value, ok := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if !ok || name != "overlay" || !strings.HasPrefix(f, "-") {
			continue
		}
		file, err := filepath.Abs(value)
		if err != nil {
			return err
		}
		if err := c.hashSetupFile(h, "overlay", file); err != nil {
			return err
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var overlay struct{ Replace map[string]string }
		if err := json.Unmarshal(data, &overlay); err != nil {
			return err
		}
		from := make([]string, 0, len(overlay.Replace))
		for f := range overlay.Replace {
			from = append(from, f)
		}
		slices.Sort(from)
		for _, f := range from {
			to := overlay.Replace[f]
			fmt.Fprintf(h, "replace\x00%s\x00%s\x00", f, to)
			if to == "" {
				continue // the file is deleted
			}
			abs, err := filepath.Abs(to)
			if err != nil {
				return err
			}
			if err := c.hashSetupFile(h, "replacement", abs); err != nil {
				return err
			}
		}
	}
	return nil
}

// goEnv asks the go command for its whole environment, as it builds from
// the working directory: the variables of the process, of go env -w
// (GOENV's file) and of GOROOT's go.env, and what it derives (GOMOD,
// GOWORK, GOVERSION, GOROOT).
func goEnv() (map[string]string, error) {
	out, err := exec.Command("go", "env", "-json").Output()
	if err != nil {
		return nil, err
	}
	var env map[string]string
	err = json.Unmarshal(out, &env)
	return env, err
}

// goEnv returns what goEnv asks the go command, once per run.
func (r *runner) goEnv() (map[string]string, error) {
	if r.env == nil && r.envErr == nil {
		r.env, r.envErr = goEnv()
	}
	return r.env, r.envErr
}

// executableSum hashes the running binary: the analyzers, the driver,
// go/types and go/packages are all in it.
func executableSum() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// outputFlag reports whether name is a flag that changes how findings are
// printed, or where the run happens, but not what a package's analysis
// reports (file names are absolute; the working directory's part is in
// the listing's file names): runs that differ only in them share entries.
func outputFlag(name string) bool {
	switch name {
	case "json", "format", "baseline", "path-prefix", "c", "C", "cache", "fix", "diff":
		return true
	}
	return false
}

// analysisFlags returns flags without the output flags and their values.
// A flag's value is the next argument when it has no "=value" and is not
// a boolean flag.
func analysisFlags(flags []string) []string {
	var kept []string
	for i := 0; i < len(flags); i++ {
		name, _, hasValue, _ := splitFlag(flags[i])
		if !outputFlag(name) {
			kept = append(kept, flags[i])
		} else if !hasValue && !boolFlag(name) {
			i++ // the value is the next argument
		}
	}
	return kept
}

// boolFlag reports whether the output flag name is a boolean flag.
func boolFlag(name string) bool {
	switch name {
	case "json", "cache", "fix", "diff":
		return true
	}
	return false
}

// profileFlag is -retrycontract.profiles as the command line registers
// it: the contract's own flag, which loads the files when set, recording
// which files it loaded (the last setting's), so that the cache keys hash
// them and the fix run names them wherever it works. The list is split as
// the contract splits it; a relative path is resolved against the working
// directory at the time of parsing, as the contract's os.ReadFile does.
type profileFlag struct {
	flag.Value
	set   bool
	files []string // absolute
}

func (p *profileFlag) Set(s string) error {
	var files []string
	for path := range strings.SplitSeq(s, ",") {
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		files = append(files, abs)
	}
	if err := p.Value.Set(s); err != nil {
		return err
	}
	p.set, p.files = true, files
	return nil
}

// configFile is the configuration file a run's arguments came from: its
// path and the content that was parsed.
type configFile struct {
	path string
	data []byte
}

// settled reports whether a file last modified at mtime was written
// before a run that began at start, and not during it. File times come
// from a coarser clock than time.Now (the kernel's tick: a write a few
// milliseconds after start may be stamped before it), and some file
// systems keep whole seconds (FAT two): a file stamped within that margin
// before start is taken as written during the run. Its results are then
// not stored; the next run stores them.
func settled(mtime, start time.Time) bool {
	margin := 20 * time.Millisecond // twice the coarsest Linux tick
	if mtime.Nanosecond() == 0 {
		margin = 2 * time.Second
	}
	return mtime.Before(start.Add(-margin))
}
