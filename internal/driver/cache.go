package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// The run cache replays the output of an identical earlier run: the same
// retrylint binary, arguments (with the configuration file's), working
// directory, Go environment and sources. A second run over unchanged code
// then costs a go list and some hashing instead of loading, type-checking
// and analyzing everything again.
//
// Why a cache of whole runs, of our own, under os.UserCacheDir: the go
// command's cache serves go vet -vettool, which needs every dependency
// compiled for export data and its facts recomputed by go vet's own runs:
// a cold run of that kind costs several times the command line's. Keying
// the replayed output by everything the output depends on keeps it
// byte-identical to an uncached run by construction (findings, order,
// related locations, every format). After an edit, the package cache
// (pkgcache.go) replays the packages the edit did not reach.
//
// The key (runKey) covers the binary, the arguments (the configuration
// file's included), the working directory, the Go environment and version,
// and every source file of the modules the go command builds from the
// working directory, of their local replacements and of -modfile.
// Dependencies in the module cache are immutable, named by go.mod and
// go.sum. -cache=false turns the cache off; outside a module the run is not
// cached. An entry that does not check out against its checksum is ignored
// and rewritten. Only runs that end in ExitClean or ExitFindings are kept:
// a failure to load may be passing.
type runCache = diskCache

// diskCache is a directory of checksummed entries under os.UserCacheDir:
// the run cache's, and the package cache's (pkgcache.go).
type diskCache struct {
	dir string
}

// cacheFormat versions the run cache's key and entries.
const cacheFormat = "retrylint-run-cache-2"

// cacheMaxAge is how long an entry is kept without being written or read.
const cacheMaxAge = 14 * 24 * time.Hour

func newRunCache() *runCache { return newDiskCache("runs") }

func newDiskCache(name string) *diskCache {
	base, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return &diskCache{dir: filepath.Join(base, "retrylint", name)}
}

// cacheEntry is a run's output.
type cacheEntry struct {
	Code           int
	Stdout, Stderr []byte
}

// get decodes the entry under key into v and reports whether there was
// one that checks out.
func (c *diskCache) get(key string, v any) bool {
	data, err := os.ReadFile(filepath.Join(c.dir, key))
	if err != nil {
		return false
	}
	sum, payload, ok := bytes.Cut(data, []byte("\n"))
	// A corrupted entry is ignored, and rewritten by this run.
	if !ok || string(sum) != checksum(payload) || json.Unmarshal(payload, v) != nil {
		return false
	}
	now := time.Now() // an entry in use is not pruned
	os.Chtimes(filepath.Join(c.dir, key), now, now)
	return true
}

func checksum(payload []byte) string {
	h := sha256.Sum256(payload)
	return hex.EncodeToString(h[:])
}

// put stores v under key, atomically. Failures are ignored: the cache only
// saves time.
func (c *diskCache) put(key string, v any) {
	payload, err := json.Marshal(v)
	if err != nil || os.MkdirAll(c.dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(c.dir, "tmp-*")
	if err != nil {
		return
	}
	_, werr := fmt.Fprintf(tmp, "%s\n%s", checksum(payload), payload)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(c.dir, key)) != nil {
		os.Remove(tmp.Name())
	}
}

// prune drops the entries neither written nor read for cacheMaxAge.
func (c *diskCache) prune() {
	old, _ := os.ReadDir(c.dir)
	for _, d := range old {
		if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > cacheMaxAge {
			os.Remove(filepath.Join(c.dir, d.Name()))
		}
	}
}

// runKey computes the cache key of a run with args (the patterns
// included) in the working directory. It covers what the run's output can
// depend on without asking go list for the packages (a go list of the
// dependencies costs as much as a tenth of a cold run): the binary, the
// arguments, the working directory, the Go environment and version, and
// the source files of the modules the go command builds from the working
// directory (the main module, or go.work's), of their local replacements
// and of -modfile. Dependencies in the module cache are immutable: go.mod
// and go.sum, which are hashed, name their versions.
func (r *runner) runKey(args []string) (string, error) {
	env, err := r.goEnv()
	if err != nil {
		return "", err
	}
	baseline, modfile := r.baseline, r.modfile
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", cacheFormat, wd)
	if err := hashSetup(h, args, env); err != nil {
		return "", err
	}
	for _, f := range []string{baseline, modfile, strings.TrimSuffix(modfile, ".mod") + ".sum"} {
		if f != "" && f != ".sum" {
			if err := hashFile(h, f); err != nil && !errors.Is(err, os.ErrNotExist) {
				return "", err
			}
		}
	}
	roots, err := sourceRoots(env["GOWORK"], env["GOMOD"])
	if err != nil {
		return "", err
	}
	for _, root := range roots {
		if err := hashTree(h, root, roots); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashSetup adds to h what any analysis's output depends on besides the
// sources: the binary, the arguments (the configuration file's included),
// the Go environment variables, version and GOROOT, and the message
// library profiles, files the arguments only name.
func hashSetup(h io.Writer, args []string, env map[string]string) error {
	exe, err := executableSum()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%s\x00%q\x00", exe, args)
	vars := slices.DeleteFunc(slices.Clone(os.Environ()), func(kv string) bool {
		return !strings.HasPrefix(kv, "GO") && !strings.HasPrefix(kv, "CGO_")
	})
	slices.Sort(vars)
	fmt.Fprintf(h, "%q\x00%s\x00%s\x00", vars, env["GOVERSION"], env["GOROOT"])
	for _, a := range args {
		if _, value, ok := strings.Cut(a, "."+contract.FlagProfiles+"="); ok {
			for _, f := range strings.Split(value, ",") {
				if err := hashFile(h, f); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
		}
	}
	return nil
}

// sourceRoots returns the directories of the modules the go command builds
// from (go.work's, or the main module) and of their local replacements,
// sorted. It fails outside a module: the run is not cached there.
func sourceRoots(gowork, gomod string) ([]string, error) {
	var mods []string
	switch {
	case gowork != "" && gowork != "off":
		data, err := os.ReadFile(gowork)
		if err != nil {
			return nil, err
		}
		wf, err := modfile.ParseWork(gowork, data, nil)
		if err != nil {
			return nil, err
		}
		for _, u := range wf.Use {
			mods = append(mods, absFrom(filepath.Dir(gowork), u.Path))
		}
		for _, r := range wf.Replace {
			if modfile.IsDirectoryPath(r.New.Path) {
				mods = append(mods, absFrom(filepath.Dir(gowork), r.New.Path))
			}
		}
	case gomod != "" && gomod != os.DevNull:
		mods = append(mods, filepath.Dir(gomod))
	default:
		return nil, errors.New("not in a module")
	}
	roots := slices.Clone(mods)
	for _, dir := range mods {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			return nil, err
		}
		mf, err := modfile.ParseLax(filepath.Join(dir, "go.mod"), data, nil)
		if err != nil {
			return nil, err
		}
		for _, r := range mf.Replace {
			if modfile.IsDirectoryPath(r.New.Path) {
				roots = append(roots, absFrom(dir, r.New.Path))
			}
		}
	}
	slices.Sort(roots)
	return slices.Compact(roots), nil
}

func absFrom(dir, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, path)
}

// sourceExts are the extensions of the files a package build reads.
var sourceExts = []string{".go", ".s", ".S", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".syso", ".mod", ".sum", ".work"}

// hashTree adds to h the name and content of every source file under
// root, in walk order, leaving out version control directories,
// node_modules, the other roots (hashed on their own) and nested modules.
func hashTree(h io.Writer, root string, roots []string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			// Version control data and node_modules hold nothing a Go build
			// reads. (testdata and _ directories stay: a pattern may name
			// a package there explicitly.)
			if name := d.Name(); name == ".git" || name == ".hg" || name == ".svn" || name == "node_modules" || slices.Contains(roots, path) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module: not built from this one
			}
			return nil
		}
		if !d.Type().IsRegular() || !slices.Contains(sourceExts, filepath.Ext(path)) {
			return nil
		}
		return hashFile(h, path)
	})
}

// hashFile adds a file's name and content to h.
func hashFile(h io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "file\x00%s\x00%d\x00", name, info.Size())
	_, err = io.Copy(h, f)
	return err
}

// goEnv asks the go command for what the keys depend on: its version
// and GOROOT, the go.work and go.mod it builds from here, and the module
// and build caches, whose files are immutable.
func goEnv() (map[string]string, error) {
	out, err := exec.Command("go", "env", "-json", "GOVERSION", "GOROOT", "GOWORK", "GOMOD", "GOMODCACHE", "GOCACHE").Output()
	if err != nil {
		return nil, err
	}
	var env map[string]string
	err = json.Unmarshal(out, &env)
	return env, err
}

var executableSum = sync.OnceValues(func() (string, error) {
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
})

// cached runs analyze through the run cache: it replays a stored run
// whose key matches, or runs and stores the output. Runs that apply fixes
// or record a baseline change files and are never cached.
func (r *runner) cached(args []string, analyze func() int) int {
	c := newRunCache()
	if !r.cache || c == nil || r.afterFix || r.recordsBaseline() {
		return analyze()
	}
	key, err := r.runKey(args)
	if err != nil {
		return analyze() // the full load reports what is wrong
	}
	if e := new(cacheEntry); c.get(key, e) {
		r.stdout.Write(e.Stdout)
		r.stderr.Write(e.Stderr)
		return e.Code
	}
	var stdout, stderr bytes.Buffer
	origOut, origErr := r.stdout, r.stderr
	r.stdout, r.stderr = io.MultiWriter(origOut, &stdout), io.MultiWriter(origErr, &stderr)
	code := analyze()
	r.stdout, r.stderr = origOut, origErr
	if code == ExitClean || code == ExitFindings {
		c.put(key, &cacheEntry{Code: code, Stdout: stdout.Bytes(), Stderr: stderr.Bytes()})
		c.prune()
	}
	return code
}

// recordsBaseline reports whether the run records a baseline (-baseline
// names a file that does not exist yet).
func (r *runner) recordsBaseline() bool {
	if r.baseline == "" {
		return false
	}
	_, err := os.Stat(r.baseline)
	return errors.Is(err, os.ErrNotExist)
}

// goEnv returns what goEnv asks the go command, once per run: the run
// cache's key and the package cache both need it.
func (r *runner) goEnv() (map[string]string, error) {
	if r.env == nil && r.envErr == nil {
		r.env, r.envErr = goEnv()
	}
	return r.env, r.envErr
}
