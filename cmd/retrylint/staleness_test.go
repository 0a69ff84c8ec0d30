package main_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStaleness holds the cache to its promise: whatever changed since
// the cache was filled, a cached run prints what an uncached run prints,
// byte for byte (standard output, standard error, exit status). Each case
// fills the cache with a first run, makes one kind of edit (each of the
// eight causes of stale output issue 22 reproduced, the two the package
// cache missed, and the edits a CI sees besides), then runs with the
// cache and with -cache=false and compares. It also checks that the edit
// changed the output (else the case proves nothing), which root packages
// the cached run analyzed (the path through the cache it exercised: the
// edited packages alone while the others are replayed, or everything),
// and that a run after it replays every package, still exactly, where the
// state after the edit can be cached at all.
//
// Every case works in a copy of one small fixture: a module example.com/app
// (packages a and b) that reaches example.com/lib by a replace directive.
// b always has a finding; a flattens lib.Plain's error, which becomes a
// finding once an edit makes Plain return a retryable error.
func TestStaleness(t *testing.T) {
	t.Parallel()
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(realGo, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot := strings.TrimSpace(string(out))
	retryablePlain := func(w *world) { w.replace("lib/lib.go", "return errPlain", "return Busy{}") }
	for _, tc := range []staleCase{
		{
			name:     "replace directory edited",
			cause:    "1: go.mod replace directories were never hashed",
			analyzed: []string{"example.com/app/a"},
			edit:     retryablePlain,
		},
		{
			name:     "file changed while the run loads",
			cause:    "2: stored content A with the output of B, replayed after reverting to A",
			analyzed: []string{"example.com/app/a"},
			edit: func(w *world) {
				w.replace("app/a/a.go", "lib.Plain()", "lib.Produce()")
				w.settle()
				a := w.read("app/a/a.go")
				// A run during which the load's go list sees a.go
				// rewritten (an editor's save, a checkout), then a.go is
				// A again.
				w.runDuringEdit(realGo, "app/a/a.go", aGo+"// B\n")
				w.write("app/a/a.go", a)
			},
		},
		{
			name:     "module root through a symlink",
			cause:    "3: WalkDir hashed nothing under a symlinked root",
			dir:      "link",
			setup:    func(w *world) { w.symlink("app", "link") },
			analyzed: []string{"example.com/app/a"},
			edit:     func(w *world) { w.replace("app/a/a.go", "lib.Plain()", "lib.Produce()") },
		},
		{
			name:     "profile file named as -retrycontract.profiles FILE",
			cause:    "4: profiles hashed only as -retrycontract.profiles=LIST",
			files:    profileFiles("app/p.json"),
			args:     []string{"-retrycontract.profiles", "p.json", "./..."},
			analyzed: profileRoots,
			edit:     editProfile("app/p.json"),
		},
		{
			name:     "profile file named second in a list with a space",
			cause:    "4: profiles hashed only as -retrycontract.profiles=LIST",
			files:    withFile(profileFiles("app/p.json"), "app/q.json", otherProfile),
			args:     []string{"-retrycontract.profiles=q.json, p.json", "./..."},
			analyzed: profileRoots,
			edit:     editProfile("app/p.json"),
		},
		{
			name:     "profile file beside the caller with -C",
			cause:    "4: profiles hashed relative to -C's directory",
			files:    profileFiles("p.json"),
			dir:      ".",
			args:     []string{"-C", "app", "-retrycontract.profiles=p.json", "./..."},
			analyzed: profileRoots,
			edit:     editProfile("p.json"),
		},
		{
			name:     "go env -w GOFLAGS=-tags=foo",
			cause:    "5: go env -w settings were not in the run key",
			files:    map[string]string{"app/a/tagged.go": "//go:build foo\n\n" + flattenProduce("a", "Tagged")},
			analyzed: appRoots,
			edit:     func(w *world) { w.goCmd(realGo, "env", "-w", "GOFLAGS=-tags=foo") },
		},
		{
			name:     "go env -w CGO_ENABLED=0",
			cause:    "5: go env -w settings were not in the run key",
			files:    map[string]string{"app/a/cgo.go": "//go:build cgo\n\n" + flattenProduce("a", "WithCgo")},
			analyzed: appRoots,
			edit:     func(w *world) { w.goCmd(realGo, "env", "-w", "CGO_ENABLED=0") },
		},
		{
			name:     "file argument outside the module",
			cause:    "6: file arguments outside the module were not hashed",
			files:    map[string]string{"loose/main.go": looseGo},
			args:     []string{"../loose/main.go"},
			analyzed: []string{"command-line-arguments"},
			edit:     func(w *world) { w.replace("loose/main.go", "return errors.New(\"plain\")", "return busy{}") },
		},
		{
			name:     "Go file symlinked to a file outside the module",
			cause:    "7: symlinked Go files were not hashed",
			files:    map[string]string{"outside/impl.go": strings.ReplaceAll(aGo, "Handle", "Linked")},
			setup:    func(w *world) { w.symlink("outside/impl.go", "app/a/linked.go") },
			analyzed: []string{"example.com/app/a"},
			edit:     func(w *world) { w.replace("outside/impl.go", "lib.Plain()", "lib.Produce()") },
		},
		{
			name:     "vendor/modules.txt made inconsistent",
			cause:    "8: vendor/modules.txt was not hashed: findings replayed, exit 3 for 1",
			setup:    func(w *world) { w.goCmdIn(realGo, "app", "mod", "vendor") },
			analyzed: nil, // nothing loads
			edit: func(w *world) {
				w.replace("app/vendor/modules.txt", "example.com/lib v0.0.0", "example.com/lib v0.0.1")
			},
		},
		{
			name:     "GOROOT source edited in place",
			cause:    "GOROOT was taken as immutable: a toolchain built from source replayed stale results",
			files:    map[string]string{"app/a/ctx.go": ctxGo},
			setup:    func(w *world) { w.gorootFarm(goroot, "context") },
			analyzed: []string{"example.com/app/a"},
			// The same files, the same sizes: only contents and times change.
			edit: func(w *world) { w.replace("goroot/src/context/retry.go", "RetryDelaz", "RetryDelay") },
		},
		{
			name:     "go.work use removed",
			files:    withFile(lib2(), "go.work", "go 1.26\n\nuse (\n\t./app\n\t./lib2\n)\n"),
			analyzed: []string{"example.com/app/a"},
			edit:     func(w *world) { w.replace("go.work", "\t./lib2\n", "") },
		},
		{
			name:     "go.work use added",
			files:    withFile(lib2(), "go.work", "go 1.26\n\nuse (\n\t./app\n)\n"),
			analyzed: []string{"example.com/app/a"},
			edit:     func(w *world) { w.replace("go.work", "\t./app\n", "\t./app\n\t./lib2\n") },
		},
		{
			name:     "overlay edited",
			files:    map[string]string{"o.json": `{"Replace": {}}`, "extra.go.txt": "package b\n"},
			analyzed: []string{"example.com/app/a"},
			warm:     []string{"example.com/app/a"},
			setup:    func(w *world) { w.env = append(w.env, "GOFLAGS=-overlay="+w.path("o.json")) },
			edit: func(w *world) {
				w.write("o.json", `{"Replace": {"`+w.path("app/b/new.go")+`": "`+w.path("extra.go.txt")+`"}}`)
			},
		},
		{
			name:  "GOFLAGS=-mod=vendor",
			env:   []string{"GOFLAGS=-mod=mod"},
			setup: func(w *world) { w.goCmdIn(realGo, "app", "mod", "vendor") },
			edit: func(w *world) {
				w.replace("app/vendor/example.com/lib/lib.go", "return errPlain", "return Busy{}")
				w.env = append(w.env, "GOFLAGS=-mod=vendor")
			},
			analyzed: appRoots,
		},
		{
			name:     "build-constrained file added in a dependency module",
			cause:    "1: go.mod replace directories were never hashed",
			args:     []string{"./...", "example.com/lib"},
			analyzed: []string{"example.com/app/a", "example.com/lib"},
			edit:     func(w *world) { w.write("lib/flat_unix.go", "//go:build unix\n\n"+flattenProduce("lib", "Flat")) },
		},
		{
			name:     ".retrylint.yaml in a parent directory changed",
			files:    map[string]string{".retrylint.yaml": "disable: [poisonack]\n"},
			analyzed: appRoots,
			edit:     func(w *world) { w.write(".retrylint.yaml", "disable: [poisonack, retryflatten]\n") },
		},
		{
			name:     "profile named by a parent .retrylint.yaml edited",
			files:    withFile(profileFiles("p.json"), ".retrylint.yaml", "retrycontract:\n  profiles: [p.json]\n"),
			analyzed: profileRoots,
			edit:     editProfile("p.json"),
		},
		{
			name:     "go directive of go.mod lowered",
			files:    map[string]string{"app/b/loop.go": "package b\n\n// Loop ranges over an int: Go 1.22 on.\nfunc Loop() (n int) {\n\tfor i := range 3 {\n\t\tn += i\n\t}\n\treturn n\n}\n"},
			analyzed: appRoots, // a type error now: analyzed whole
			warm:     appRoots,
			edit:     func(w *world) { w.replace("app/go.mod", "go 1.26", "go 1.21") },
		},
		{
			name:     "-C and a file of the module edited",
			dir:      ".",
			args:     []string{"-C", "app", "./..."},
			analyzed: []string{"example.com/app/a"},
			edit:     func(w *world) { w.replace("app/a/a.go", "lib.Plain()", "lib.Produce()") },
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, tc)
			first := w.run(true)
			tc.edit(w)
			w.settle()
			wait := w.start(false)
			cached, analyzed := w.runStats()
			uncached := wait()
			if cached != uncached {
				t.Errorf("stale (%s):\ncached run: exit %d\n%s%s\nuncached run: exit %d\n%s%s",
					tc.cause, cached.code, cached.stdout, cached.stderr, uncached.code, uncached.stdout, uncached.stderr)
			}
			if uncached == first {
				t.Errorf("the edit changed nothing in the output (exit %d)\n%s%s", first.code, first.stdout, first.stderr)
			}
			if !slices.Equal(analyzed, tc.analyzed) {
				t.Errorf("the cached run analyzed %q, want %q", analyzed, tc.analyzed)
			}
			warm, analyzed := w.runStats()
			if warm != uncached {
				t.Errorf("warm run after the edit:\n%s%s\nuncached run:\n%s%s", warm.stdout, warm.stderr, uncached.stdout, uncached.stderr)
			}
			if !slices.Equal(analyzed, tc.warm) {
				t.Errorf("the warm run after the edit analyzed %q, want %q", analyzed, tc.warm)
			}
		})
	}
}

// staleCase is one kind of edit.
type staleCase struct {
	name     string
	cause    string            // the cause of stale output in issue 22 it reproduces, if any
	files    map[string]string // added to the fixture
	dir      string            // where the runs work, relative to the root (default app)
	args     []string          // default ./...
	env      []string
	setup    func(w *world) // after the files are written
	edit     func(w *world)
	analyzed []string // the root packages the cached run after the edit analyzes
	warm     []string // those the next run analyzes: none, it replays, unless the edit broke the load
}

var (
	appRoots     = []string{"example.com/app/a", "example.com/app/b"}
	profileRoots = []string{"example.com/app/a", "example.com/app/b", "example.com/app/c", "example.com/app/q"}
)

// The fixture.
const (
	appMod = "module example.com/app\n\ngo 1.26\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n"
	libMod = "module example.com/lib\n\ngo 1.21\n"
	libGo  = `package lib

import (
	"errors"
	"time"
)

// Busy is a retryable error.
type Busy struct{}

func (Busy) Error() string              { return "busy" }
func (Busy) RetryDelay() time.Duration { return time.Second }

var errPlain = errors.New("plain")

// Produce returns a retryable error.
func Produce() error { return Busy{} }

// Plain returns an error without retry intent, until an edit.
func Plain() error { return errPlain }
`
	aGo = `package a

import (
	"errors"

	"example.com/lib"
)

// Handle flattens Plain's error: a finding once Plain is retryable.
func Handle() error { return errors.New("handle: " + lib.Plain().Error()) }
`
	bGo = `package b

import (
	"errors"
	"time"
)

type busy struct{}

func (busy) Error() string              { return "busy" }
func (busy) RetryDelay() time.Duration { return time.Second }

func reserve() error { return busy{} }

// Handle flattens a retryable error: a finding in every case.
func Handle() error { return errors.New("reserve: " + reserve().Error()) }
`
	ctxGo = `package a

import (
	"context"
	"errors"
)

// Ctx flattens context.Cause's error: a finding once it is retryable.
func Ctx(ctx context.Context) error { return errors.New("ctx: " + context.Cause(ctx).Error()) }
`
	looseGo = `package main

import (
	"errors"
	"time"
)

type busy struct{}

func (busy) Error() string              { return "busy" }
func (busy) RetryDelay() time.Duration { return time.Second }

func plain() error { return errors.New("plain") }

func main() { println(errors.New("main: " + plain().Error())) }
`
	// The profile fixture: a message library, q, and a consumer, c, whose
	// bare Requeue on a retryable error is a finding while the profile
	// says Requeue retries at once.
	qGo = `package q

import "time"

// Delivery is a message of a library known by its profile.
type Delivery struct{ Body []byte }

func (d *Delivery) Accept() error                          { return nil }
func (d *Delivery) Requeue() error                         { return nil }
func (d *Delivery) RequeueAfter(delay time.Duration) error { return nil }
`
	cGo = `package c

import (
	"errors"
	"time"

	"example.com/app/q"
)

type retryable interface {
	error
	RetryDelay() time.Duration
}

func handle(d *q.Delivery, err error) {
	var rd retryable
	if errors.As(err, &rd) {
		d.Requeue()
		return
	}
	d.Accept()
}
`
	profile = `{
  "name": "q",
  "messages": [{"path": "example.com/app/q", "name": "Delivery"}],
  "ack_methods": {"Accept": "done", "Requeue": "retry-now", "RequeueAfter": "retry-later"},
  "packages": ["example.com/app/q"]
}
`
	otherProfile = `{
  "name": "other",
  "messages": [{"path": "example.com/other", "name": "Msg"}],
  "ack_methods": {"Done": "done"},
  "packages": ["example.com/other"]
}
`
)

// flattenProduce is a file of package pkg whose function name flattens
// lib.Produce's retryable error (or, in lib, Produce's).
func flattenProduce(pkg, name string) string {
	call := "lib.Produce()"
	imports := "import (\n\t\"errors\"\n\n\t\"example.com/lib\"\n)\n"
	if pkg == "lib" {
		call, imports = "Produce()", "import \"errors\"\n"
	}
	return "package " + pkg + "\n\n" + imports + "\nfunc " + name + "() error { return errors.New(\"x: \" + " + call + ".Error()) }\n"
}

// lib2 is a second copy of example.com/lib, whose Plain is retryable: a
// go.work that uses it takes it over app's replace directive.
func lib2() map[string]string {
	return map[string]string{"lib2/go.mod": libMod, "lib2/lib.go": strings.Replace(libGo, "return errPlain", "return Busy{}", 1)}
}

func profileFiles(profilePath string) map[string]string {
	return map[string]string{"app/q/q.go": qGo, "app/c/c.go": cGo, profilePath: profile}
}

func withFile(files map[string]string, name, content string) map[string]string {
	files[name] = content
	return files
}

// editProfile makes Requeue a delayed retry: the bare-Requeue finding goes.
func editProfile(name string) func(w *world) {
	return func(w *world) { w.replace(name, `"Requeue": "retry-now"`, `"Requeue": "retry-later"`) }
}

// world is a case's copy of the fixture, its cache and its environment.
type world struct {
	t     *testing.T
	root  string
	dir   string // where runs work
	args  []string
	env   []string
	stats string
}

func newWorld(t *testing.T, tc staleCase) *world {
	w := &world{t: t, root: t.TempDir(), dir: tc.dir, args: tc.args}
	if w.dir == "" {
		w.dir = "app"
	}
	if w.args == nil {
		w.args = []string{"./..."}
	}
	w.stats = filepath.Join(t.TempDir(), "stats.json")
	w.env = append(os.Environ(),
		"XDG_CACHE_HOME="+t.TempDir(),
		"GOENV="+filepath.Join(t.TempDir(), "go.env"),
		"GOFLAGS=", "GOWORK=", "GOTOOLCHAIN=local", "GOPROXY=off", "GOSUMDB=off",
		"RETRYLINT_CACHE_STATS=")
	w.env = append(w.env, tc.env...)
	files := map[string]string{
		"app/go.mod": appMod, "app/a/a.go": aGo, "app/b/b.go": bGo,
		"lib/go.mod": libMod, "lib/lib.go": libGo,
	}
	for name, content := range tc.files {
		files[name] = content
	}
	writeFiles(t, w.root, files)
	if tc.setup != nil {
		tc.setup(w)
	}
	w.settle()
	return w
}

func (w *world) path(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

// run runs retrylint with the case's arguments, through the cache or not.
func (w *world) run(cache bool) result {
	w.t.Helper()
	return w.start(cache)()
}

// start starts what run runs and returns the function that waits for its
// result: an uncached run, which reads the sources alone, can overlap
// the cached run after it.
func (w *world) start(cache bool) func() result {
	w.t.Helper()
	args := w.args
	if !cache {
		args = append([]string{"-cache=false"}, args...)
	}
	return w.startWith(w.env, args...)
}

func (w *world) runWith(env []string, args ...string) result {
	w.t.Helper()
	return w.startWith(env, args...)()
}

func (w *world) startWith(env []string, args ...string) func() result {
	w.t.Helper()
	dir := w.path(w.dir)
	return startEnv(w.t, dir, append(slices.Clone(env), "PWD="+dir), args...)
}

// runStats runs through the cache and returns the root packages the run
// analyzed.
func (w *world) runStats() (result, []string) {
	w.t.Helper()
	os.Remove(w.stats)
	r := w.runWith(append(slices.Clone(w.env), "RETRYLINT_CACHE_STATS="+w.stats), w.args...)
	data, err := os.ReadFile(w.stats)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	var stats struct{ Analyzed []string }
	if err != nil || json.Unmarshal(data, &stats) != nil {
		w.t.Fatalf("stats: %v %s", err, data)
	}
	return r, stats.Analyzed
}

// runDuringEdit runs through the cache while, as the load's go list (the
// run's second) starts, the file rel is rewritten with content: a go
// command on PATH that does so before running the real one.
func (w *world) runDuringEdit(realGo, rel, content string) {
	w.t.Helper()
	bin := w.t.TempDir()
	next := filepath.Join(bin, "next")
	if err := os.WriteFile(next, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
	script := "#!/bin/sh\n" +
		"case \" $* \" in *\" list \"*-compiled*)\n" +
		"\tn=$(cat '" + bin + "/count' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '" + bin + "/count'\n" +
		"\tif [ $n = 2 ]; then cp '" + next + "' '" + w.path(rel) + "'; fi;;\n" +
		"esac\n" +
		"exec '" + realGo + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		w.t.Fatal(err)
	}
	env := append(slices.Clone(w.env), "PATH="+bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	w.runWith(env, w.args...)
	// Two go lists (the listing, then the load from source), or three when
	// the run analyzes against export data (the listing, the export
	// listing, the load): the edit is made after the listing, before the
	// load, either way.
	if data, err := os.ReadFile(filepath.Join(bin, "count")); err != nil || !slices.Contains([]string{"2", "3"}, strings.TrimSpace(string(data))) {
		w.t.Fatalf("go list ran %q times (%v), want 2 or 3: the edit during the run was not made as planned", data, err)
	}
}

// goCmd runs the go command with the case's environment in the root.
func (w *world) goCmd(realGo string, args ...string) { w.goCmdIn(realGo, ".", args...) }

func (w *world) goCmdIn(realGo, dir string, args ...string) {
	w.t.Helper()
	cmd := exec.Command(realGo, args...)
	cmd.Dir = w.path(dir)
	cmd.Env = w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("go %v: %v\n%s", args, err, out)
	}
}

func (w *world) read(rel string) string {
	w.t.Helper()
	data, err := os.ReadFile(w.path(rel))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(data)
}

func (w *world) write(rel, content string) {
	w.t.Helper()
	writeFiles(w.t, w.root, map[string]string{rel: content})
}

// replace edits the file rel (through a symlink, the file it names).
func (w *world) replace(rel, old, new string) {
	w.t.Helper()
	data := w.read(rel)
	if !strings.Contains(data, old) {
		w.t.Fatalf("%s has no %q", rel, old)
	}
	if err := os.WriteFile(w.path(rel), []byte(strings.Replace(data, old, new, 1)), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) symlink(target, link string) {
	w.t.Helper()
	rel, err := filepath.Rel(filepath.Dir(w.path(link)), w.path(target))
	if err != nil {
		w.t.Fatal(err)
	}
	if err := os.Symlink(rel, w.path(link)); err != nil {
		w.t.Fatal(err)
	}
}

// settle backdates the case's files, as edited a while before the run
// (see settle).
func (w *world) settle() {
	w.t.Helper()
	settle(w.t, w.root)
}

// gorootFarm makes root/goroot a GOROOT that is the real one but for
// src/pkg, a copy that edits may change, and points the runs at it.
// (Only context is prepared for edits.)
func (w *world) gorootFarm(goroot, pkg string) {
	w.t.Helper()
	farm := w.path("goroot")
	link := func(dir, skip string) {
		entries, err := os.ReadDir(filepath.Join(goroot, dir))
		if err != nil {
			w.t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != skip {
				if err := os.Symlink(filepath.Join(goroot, dir, e.Name()), filepath.Join(farm, dir, e.Name())); err != nil {
					w.t.Fatal(err)
				}
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(farm, "src"), 0o755); err != nil {
		w.t.Fatal(err)
	}
	link(".", "src")
	link("src", pkg)
	if err := os.CopyFS(filepath.Join(farm, "src", pkg), os.DirFS(filepath.Join(goroot, "src", pkg))); err != nil {
		w.t.Fatal(err)
	}
	w.env = append(w.env, "GOROOT="+farm)
	// Cause returns an error type whose method is a letter away from
	// RetryDelay: an edit of that letter makes it a retry carrier.
	w.replace("goroot/src/context/context.go", "func Cause(c Context) error {\n",
		"func Cause(c Context) error {\n\tif c == nil {\n\t\treturn deadlineExceededError{}\n\t}\n")
	w.write("goroot/src/context/retry.go", "package context\n\nimport \"time\"\n\n"+
		"// The method is a letter away from a retry carrier's.\n"+
		"func (deadlineExceededError) RetryDelaz() time.Duration { return time.Second }\n")
}
