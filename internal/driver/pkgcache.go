package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// The package cache keeps what the checks reported on each root package,
// keyed by everything that depends on, so that a run over unchanged code
// replays every package and a run after an edit analyzes the edited
// packages and, unless the edit left their interfaces as they were
// (early cutoff, cutoff.go), those that depend on them, and replays the
// rest. It is the
// command line's only cache: a run prints the packages' results, replayed
// or fresh, through the same code, so its output is byte-identical to an
// uncached run's in every format. -cache=false turns it off.
//
// How a run uses it (analyzeCached):
//
//   - go list the packages and their dependencies as the load does (the
//     same patterns, build flags and environment), without parsing: a
//     tenth of a second to a second on a large module; or reuse the
//     listing a run stored, when nothing go list reads changed since
//     (listing.go);
//   - compute every package's key, and replay the root packages whose key
//     has an entry;
//   - analyze the others against their dependencies' export data, with
//     the dependencies' facts replayed from this cache (incremental.go),
//     when every dependency has its facts here, the missed packages are a
//     small part of the source and no finding points into a dependency;
//   - otherwise load them with their dependencies from source (the checks
//     need their dependencies' facts, and computing them anew keeps the
//     results exact) and analyze them; every run that loads from source
//     stores the facts of every package it analyzed.
//
// A first run, whose cache holds no marker of its setup in its working
// directory, skips the listing: it loads and analyzes everything, as an
// uncached run does, and stores an entry per package, keyed from the
// load itself (whose listing is the same go list), written while it
// analyzes (stage.go).
//
// Why a cache of our own rather than the go command's (go vet's protocol):
// the vet protocol needs every dependency compiled for its export data and
// each package's facts computed by a process of its own, which made a cold
// run several times slower than the command line's one load. Why whole
// results as well as facts: a replayed package needs nothing loaded; a
// missed one is analyzed against its dependencies' export data with their
// facts replayed (incremental.go), or with them loaded from source.
//
// # Why a key is complete
//
// What the checks report on a package is a function of the analyzers and
// their options, and of the syntax, types and facts of the package and of
// its dependencies, which the go command's decision of what the build is
// (which packages, which files, which language version) and the files'
// contents determine. The key of a package covers, item by item:
//
//   - the binary, by the hash of its content: the analyzers, the driver,
//     go/types and go/packages are in it (setupSum);
//   - the flags that change what is analyzed, the configuration file's
//     included, in order: all but the output flags (outputFlag);
//   - the configuration file's path and parsed content: its messages name
//     them (the origin of a dlq-funcs entry);
//   - the profile files -retrycontract.profiles loaded, by content, in
//     every form of the flag and from the configuration file, as the
//     contract resolved them (profileFlag records what it loaded);
//   - the go command's whole environment (go env -json: the process's
//     variables, go env -w's file and GOROOT's go.env, among them GOFLAGS,
//     GOOS, GOARCH, CGO_ENABLED, GOEXPERIMENT, GOTOOLCHAIN, and what it
//     derives: GOROOT, GOVERSION, GOMOD, GOWORK), but GOGCCFLAGS, which
//     names a new temporary directory in every go command; and the
//     process's GO and CGO_ variables, which add those go env does not
//     report (GODEBUG settings of go/types, GOPACKAGESDRIVER);
//   - the overlay an -overlay flag in GOFLAGS names, and each of its
//     replacement files, by content;
//   - the go command's listing of the package, asked anew by every run
//     (or reused when nothing it reads changed, which is the same; see
//     listing.go):
//     its ID, import path and name, its module (path, version, Go
//     version, replacement), each compiled Go file by name and content,
//     and each import by path and by its key, which covers the same items
//     for the dependency (the results' key has the import's stamp
//     instead, which covers what the package can see of it: cutoff.go). Every way the go command is told which packages
//     and files make the build acts through this listing: go.mod and its
//     replace directories, go.work and its use lines, vendor/ and
//     vendor/modules.txt, -mod, -modfile, -tags, GOFLAGS, go env -w, file
//     arguments, build constraints, symlinked files and directories (the
//     files are read through them), the working directory (the file names
//     are absolute, as go list prints them from it). A listing in which
//     any package has an error (inconsistent vendoring, a missing module)
//     is not used: the run is analyzed whole;
//   - file contents: by hash of the content, except for the files the go
//     command treats as immutable: those in GOROOT and the module cache
//     count by size and modification time (a toolchain built from source
//     and edited in place is seen), those in the build cache (cgo's
//     output) by name, which is derived from their content.
//
// Nothing else reaches the checks: they read the syntax, types and facts
// of the packages given, and for suppression directives the same files
// again (pass.ReadFile). What a run prints besides the packages' results
// (relative file names, the baseline's filtering, load failures) is
// computed anew by every run.
//
// # What is stored
//
// Keys are computed from the files as they are when hashed; results from
// the files as they were when parsed. An entry is stored only if every
// file of its key and of the setup was last written before the run began
// (settled) and is unchanged (size, modification time) just before the
// entry is stored: a file written in between (an editor's save, a git
// checkout, a generator) makes its package and the packages that depend
// on it unstable, and nothing of theirs is stored; a setup file written
// in between stores nothing at all. This relies on writes setting the
// modification time, as they do: a tool that rewrote a file during the
// run and set its time back before the run ended would defeat it. The
// same holds of GOROOT and module cache files, which count by size and
// time. A run that writes its entries while it analyzes (stage.go) puts
// none under its key before that check.
//
// A package has one entry, under its result key (pkgEntry): its findings
// when a run analyzed it as a root, its facts, its interface sum. A cold
// run stores thousands on a large program, and creating a file is what
// storing costs.
//
// Exactness over reuse: a run replays nothing, and analyzes everything as
// an uncached run does, when the listing or the load of the missed
// packages reports an error, a type error or an analysis failure (their
// messages depend on the whole load), when a missed package is named by
// files rather than import path, or when a -retrycontract.dlq-funcs entry
// names nothing in a missed package or its dependencies (a replayed
// package's were checked by the run that stored it: the entries are in
// the key). Runs that apply fixes or record a baseline change files and
// use no cache. An entry that does not check out against its checksum is
// ignored and rewritten.
type pkgCache struct {
	disk       *diskCache
	setup      string // setupSum
	family     string // the key of the marker of a run of this setup here
	fixed      []string
	derived    []string
	start      time.Time
	fileSums   map[string]fileSum
	setupFiles []string             // the files setupSum hashed
	entries    map[string]*pkgEntry // read or written by this run, by result key sum; nil for none
	skeletons  map[string]string    // the last skeleton sums stored, by package ID (cutoff.go)
}

// pkgCacheFormat versions the package cache's keys and entries.
const pkgCacheFormat = "retrylint-pkg-cache-4"

// listMode is what the package cache asks go list: the import graph and
// the files, with their modules; nothing is parsed.
const listMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule

// pkgEntry is what the cache holds for a package, under its result key:
// what runs learned of it, in one file (a cold run stores one per
// package, and creating a file is what storing costs).
type pkgEntry struct {
	ID      string
	Results bool // Diags are its findings: a run analyzed it as a root
	Diags   []diag
	Facts   *factEntry // its own facts, when a run analyzed it
	Iface   string     // its interface sum (cutoff.go), when a run analyzed it as a root
}

// entry returns the entry of the package id under its result key r, or
// nil.
func (c *pkgCache) entry(id string, r pkgKey) *pkgEntry {
	e, ok := c.entries[r.sum]
	if !ok {
		var stored pkgEntry
		if c.disk.get(r.sum, &stored) && stored.ID == id && (stored.Facts == nil || stored.Facts.ID == id) {
			e = &stored
		}
		c.entries[r.sum] = e
	}
	return e
}

// pkgKey is a package's key, and whether its files and its dependencies'
// were all settled.
type pkgKey struct {
	sum    string
	stable bool
}

// fileSum is what a key holds of a file, and what the check before
// storing compares: its size and modification time when it was hashed.
type fileSum struct {
	sum    string // content hash; size and time for a fixed file; "" for a derived one
	size   int64
	mtime  time.Time
	stable bool   // settled when hashed, and not written since
	header string // a Go file's header sum (goHeader), for the listing snapshot
}

// cacheStats tells the root packages of a run by where their results came
// from. With RETRYLINT_CACHE_STATS=file in the environment, a run that
// analyzes or replays writes them to file as JSON (for tests and bench/):
// the output stays the same.
type cacheStats struct {
	Analyzed   []string // the IDs of the root packages analyzed
	FromExport bool     // analyzed against export data and cached facts (incremental.go)
	Replayed   int      // how many root packages were replayed
	Streamed   bool     // analyzed by a streamed run (stream.go)
	Silent     int      // how many dependencies it found silent
	// ListingReused: the package cache's listing was the stored one
	// (listing.go), not go list's.
	ListingReused bool
}

func (s *cacheStats) write() {
	file := os.Getenv("RETRYLINT_CACHE_STATS")
	if file == "" {
		return
	}
	if data, err := json.Marshal(s); err == nil {
		os.WriteFile(file, data, 0o644)
	}
}

func idsOf(pkgs []*packages.Package) []string {
	ids := make([]string, len(pkgs))
	for i, p := range pkgs {
		ids[i] = p.ID
	}
	slices.Sort(ids)
	return ids
}

// newPkgCache returns the package cache for a run with flags, or nil when
// the run must not use one (see pkgCache).
func (r *runner) newPkgCache(flags []string) *pkgCache {
	if !r.cache || r.afterFix || r.recordBaseline {
		return nil
	}
	pinFactTypes(r.analyzers)
	disk := newDiskCache("pkgs")
	env, err := r.goEnv()
	if disk == nil || err != nil {
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	c := &pkgCache{disk: disk, start: r.start, fileSums: make(map[string]fileSum), entries: make(map[string]*pkgEntry)}
	for _, dir := range []string{env["GOROOT"], env["GOMODCACHE"]} {
		if dir != "" {
			c.fixed = append(c.fixed, filepath.Clean(dir)+string(filepath.Separator))
		}
	}
	if dir := env["GOCACHE"]; dir != "" && dir != "off" {
		c.derived = append(c.derived, filepath.Clean(dir)+string(filepath.Separator))
	}
	if c.setup, err = r.setupSum(c, flags, env); err != nil {
		return nil
	}
	family := sha256.Sum256([]byte("family\x00" + c.setup + "\x00" + wd))
	c.family = "family-" + hex.EncodeToString(family[:])
	return c
}

// seen reports whether a run of this setup stored entries here before:
// only then is listing the packages worth its cost.
func (c *pkgCache) seen() bool {
	var marker bool
	return c.disk.get(c.family, &marker) && marker
}

// keys computes the source key of every package of the import graph of
// pkgs, by ID.
func (c *pkgCache) keys(pkgs []*packages.Package) (map[string]pkgKey, error) {
	keys := make(map[string]pkgKey)
	var err error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if err == nil {
			keys[p.ID], err = c.key(p, "source", func(id string) pkgKey { return keys[id] })
		}
	})
	return keys, err
}

// key computes a key of p: its own inputs, and what imported gives of
// each import, by ID (its source key, or its stamp: cutoff.go), under
// the kind of key named by tag.
func (c *pkgCache) key(p *packages.Package, tag string, imported func(id string) pkgKey) (pkgKey, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", tag)
	c.writeOwn(h, p)
	stable := true
	for _, name := range p.CompiledGoFiles {
		fs, err := c.fileSum(name)
		if err != nil {
			return pkgKey{}, err
		}
		fmt.Fprintf(h, "file\x00%s\x00%s\x00", name, fs.sum)
		stable = stable && fs.stable
	}
	for _, path := range importPaths(p) {
		k := imported(p.Imports[path].ID)
		fmt.Fprintf(h, "import\x00%s\x00%s\x00", path, k.sum)
		stable = stable && k.stable
	}
	return pkgKey{hex.EncodeToString(h.Sum(nil)), stable}, nil
}

// writeOwn writes the setup and p's listing (ID, path, name, module) to
// h.
func (c *pkgCache) writeOwn(h io.Writer, p *packages.Package) {
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", c.setup, p.ID, p.PkgPath, p.Name)
	if m := p.Module; m != nil {
		fmt.Fprintf(h, "module\x00%s\x00%s\x00%s\x00", m.Path, m.Version, m.GoVersion)
		if m.Replace != nil {
			fmt.Fprintf(h, "replace\x00%s\x00%s\x00", m.Replace.Path, m.Replace.Version)
		}
	}
}

// importPaths returns p's import paths, sorted.
func importPaths(p *packages.Package) []string {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	return paths
}

// fileSum returns what a key holds of a file (see fileSum), computed once
// per run: a file in the build cache counts by its name, one in GOROOT or
// the module cache by its size and modification time, any other by its
// content.
func (c *pkgCache) fileSum(name string) (fileSum, error) {
	if fs, ok := c.fileSums[name]; ok {
		return fs, nil
	}
	switch {
	case c.isDerived(name):
		fs := fileSum{stable: true}
		c.fileSums[name] = fs
		return fs, nil
	case c.isFixed(name):
		info, err := os.Stat(name)
		if err != nil {
			return fileSum{}, err
		}
		fs := fileSum{
			sum:    fmt.Sprintf("size %d mtime %d", info.Size(), info.ModTime().UnixNano()),
			size:   info.Size(),
			mtime:  info.ModTime(),
			stable: settled(info.ModTime(), c.start),
		}
		c.fileSums[name] = fs
		return fs, nil
	}
	return c.contentSum(name)
}

// contentSum hashes a file's content, through symlinks, once per run.
func (c *pkgCache) contentSum(name string) (fileSum, error) {
	if fs, ok := c.fileSums[name]; ok {
		return fs, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return fileSum{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fileSum{}, err
	}
	if !info.Mode().IsRegular() {
		return fileSum{}, fmt.Errorf("%s: not a regular file", name)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fileSum{}, err
	}
	sum := sha256.Sum256(data)
	fs := fileSum{
		sum:    hex.EncodeToString(sum[:]),
		size:   info.Size(),
		mtime:  info.ModTime(),
		stable: settled(info.ModTime(), c.start),
	}
	if strings.HasSuffix(name, ".go") {
		fs.header = goHeader(data)
	}
	c.fileSums[name] = fs
	return fs, nil
}

// recheck marks unstable every file hashed so far that changed since (its
// size or modification time differs, or it is gone), and reports whether
// the setup's files are all stable.
func (c *pkgCache) recheck() bool {
	for name, fs := range c.fileSums {
		if fs.sum == "" || !fs.stable {
			continue
		}
		if info, err := os.Stat(name); err != nil || info.Size() != fs.size || !info.ModTime().Equal(fs.mtime) {
			fs.stable = false
			c.fileSums[name] = fs
		}
	}
	for _, name := range c.setupFiles {
		if !c.fileSums[name].stable {
			return false
		}
	}
	return true
}

// store keeps the results of the analyzed root packages whose files are
// all stable (see pkgCache). When expected is set (the keys the packages
// were listed under), a package is kept only under that key.
//
// It also keeps the facts given, by package ID: those of every package
// analyzed, dependencies included, whose files are all stable.
func (c *pkgCache) store(roots []*packages.Package, results []pkgResult, expected map[string]pkgKey, facts map[string]*factEntry) {
	if !c.recheck() {
		return
	}
	keys, err := c.keys(roots)
	if err != nil {
		return
	}
	unchanged := func(id string) bool { return expected == nil || expected[id] == keys[id] }
	byID := make(map[string]pkgResult, len(results))
	for _, res := range results {
		byID[res.ID] = res
	}
	skeletons := make(map[string]string)
	// Each package's entry after its imports': the result keys of its
	// dependents read its interface sum (cutoff.go).
	_, err = c.resultKeys(roots, keys, func(p *packages.Package, r pkgKey, stamp func(string) pkgKey) {
		if !r.stable || !unchanged(p.ID) {
			return
		}
		var res *pkgResult
		if found, ok := byID[p.ID]; ok {
			res = &found
		}
		if e := c.entryFor(p, r, stamp, res, facts[p.ID]); e != nil {
			c.entries[r.sum] = e
			c.disk.put(r.sum, e)
			if res != nil && res.Skeleton != "" {
				skeletons[p.ID] = res.Skeleton
			}
		}
	})
	if err != nil {
		c.disk.flush()
		return
	}
	c.stored(skeletons)
}

// entryFor returns what to store for p under its result key r, from its
// results when it was analyzed as a root (res) and its facts: nil when
// the cache holds all of it already.
func (c *pkgCache) entryFor(p *packages.Package, r pkgKey, stamp func(string) pkgKey, res *pkgResult, facts *factEntry) *pkgEntry {
	e := &pkgEntry{ID: p.ID, Facts: facts}
	if res != nil {
		if facts == nil {
			if old := c.entry(p.ID, r); old != nil {
				e.Facts = old.Facts // of the same inputs: the same key
			}
		}
		e.Results, e.Diags = true, res.Diags
		e.Iface = c.ifaceSum(p, stamp, res.Skeleton, e.Facts)
		return e
	}
	if facts == nil {
		return nil
	}
	switch old := c.entry(p.ID, r); {
	case old == nil:
		return e
	case old.Facts != nil:
		return nil // nothing new
	default:
		merged := *old
		merged.Facts = facts
		return &merged
	}
}

// stored ends a store: the skeleton sums, then the family's marker once
// the entries are there, and a prune now and then.
func (c *pkgCache) stored(skeletons map[string]string) {
	c.storeSkeletons(skeletons)
	c.disk.flush() // the family is seen once its entries are there; a later round reads them
	c.disk.put(c.family, true)
	c.disk.flush()
	c.disk.prune()
}

// analyzeCached runs the checks through the package cache (see
// pkgCache). It reports false when it could not keep the output exact:
// the caller then analyzes everything.
func (r *runner) analyzeCached(c *pkgCache, cfg *packages.Config, patterns []string) (*outcome, bool) {
	env, err := r.goEnv()
	wd, werr := os.Getwd()
	if err != nil || werr != nil {
		return nil, false
	}
	listingKey, keepListing := c.listingKey(cfg, patterns, wd), listingKept(cfg, env)
	var listed []*packages.Package
	if keepListing {
		listed = c.reuseListing(listingKey)
	}
	reused := listed != nil
	if !reused {
		listCfg := *cfg
		listCfg.Mode = listMode
		if listed, err = packages.Load(&listCfg, patterns...); err != nil || len(listed) == 0 {
			return nil, false
		}
	}
	clean := true
	packages.Visit(listed, nil, func(p *packages.Package) { clean = clean && len(p.Errors) == 0 })
	if !clean {
		return nil, false
	}
	keys, err := c.keys(listed)
	if err != nil {
		return nil, false
	}
	if keepListing && !reused {
		c.keepListing(listingKey, listed, env, wd)
	}
	results, misses, rkeys, ok := c.replay(listed, keys)
	if !ok || len(misses) == len(listed) {
		return nil, false // nothing to replay
	}
	var analyzed []*packages.Package
	fromExport := true
	// Early cutoff (cutoff.go): the misses none of whose imports missed
	// first; then those whose result keys still miss.
	for round := 0; len(misses) > 0; round++ {
		batch := misses
		if round == 0 {
			if first := frontier(misses); len(first) < len(misses) && !c.skeletonsMoved(first) {
				batch = first
			}
		}
		fresh, export, ok := r.analyzeBatch(c, cfg, batch, keys, rkeys)
		if !ok {
			return nil, false
		}
		results, analyzed, fromExport = append(results, fresh...), append(analyzed, batch...), fromExport && export
		rest := slices.DeleteFunc(slices.Clone(misses), func(p *packages.Package) bool { return slices.Contains(batch, p) })
		if len(rest) == 0 {
			break
		}
		var replayed []pkgResult
		if replayed, misses, rkeys, ok = c.replay(rest, keys); !ok {
			return nil, false
		}
		results = append(results, replayed...)
	}
	sortResults(results)
	r.stats = cacheStats{Analyzed: idsOf(analyzed), FromExport: len(analyzed) > 0 && fromExport, Replayed: len(listed) - len(analyzed), ListingReused: reused}
	return &outcome{results: results}, true
}

// replay returns the results of the packages whose result keys have an
// entry, the packages that missed, and the result keys of their import
// graph; false when a miss cannot be analyzed alone.
func (c *pkgCache) replay(pkgs []*packages.Package, keys map[string]pkgKey) ([]pkgResult, []*packages.Package, map[string]pkgKey, bool) {
	rkeys, err := c.resultKeys(pkgs, keys, nil)
	if err != nil {
		return nil, nil, nil, false
	}
	var results []pkgResult
	var misses []*packages.Package
	for _, p := range pkgs {
		if e := c.entry(p.ID, rkeys[p.ID]); e != nil && e.Results {
			results = append(results, pkgResult{ID: e.ID, Diags: e.Diags})
			continue
		}
		if strings.HasPrefix(p.ID, "command-line-arguments") {
			return nil, nil, nil, false // named by files: no import path to load it by alone
		}
		misses = append(misses, p)
	}
	return results, misses, rkeys, true
}

// frontier returns the misses that import no other miss.
func frontier(misses []*packages.Package) []*packages.Package {
	missed := make(map[string]bool, len(misses))
	for _, p := range misses {
		missed[p.ID] = true
	}
	var first []*packages.Package
next:
	for _, p := range misses {
		for _, imp := range p.Imports {
			if missed[imp.ID] {
				continue next
			}
		}
		first = append(first, p)
	}
	return first
}

// analyzeBatch analyzes missed packages against export data, or else from
// source, and stores their results; export tells which.
func (r *runner) analyzeBatch(c *pkgCache, cfg *packages.Config, misses []*packages.Package, keys, rkeys map[string]pkgKey) (results []pkgResult, export, ok bool) {
	if results, ok = r.analyzeFromExport(c, cfg, misses, keys, rkeys); ok {
		return results, true, true
	}
	results, ok = r.analyzeMisses(c, cfg, misses, keys)
	return results, false, ok
}

// analyzeMisses loads the packages the cache had no entry for, by import
// path, and analyzes them. It reports false when the load or the analysis
// reported an error: the caller then analyzes everything, so that their
// messages are the same as in an uncached run.
func (r *runner) analyzeMisses(c *pkgCache, cfg *packages.Config, misses []*packages.Package, keys map[string]pkgKey) ([]pkgResult, bool) {
	want, patterns := missPatterns(misses)
	pkgs, stream := r.loadStreamed(cfg, patterns, nil)
	if stream == nil {
		var err error
		if pkgs, err = packages.Load(cfg, patterns...); err != nil {
			return nil, false
		}
	}
	l := triage(pkgs)
	if len(l.notices) > 0 || len(l.typeErrs) > 0 || hasMissingFuncs(r.analyzers, pkgs) {
		return nil, false
	}
	roots := slices.DeleteFunc(l.roots, func(p *packages.Package) bool { return !want[p.ID] })
	if len(roots) != len(misses) {
		return nil, false
	}
	var results []pkgResult
	var facts map[string]*factEntry
	if stream != nil {
		results = slices.DeleteFunc(stream.results, func(res pkgResult) bool { return !want[res.ID] })
		facts = stream.facts
	} else {
		graph, err := checker.Analyze(r.selected(), roots, nil)
		if err != nil || len(failuresOf(graph)) > 0 {
			return nil, false
		}
		results, facts = resultsOf(graph), ownFacts(graph)
	}
	c.store(roots, results, keys, facts)
	return results, true
}

// missPatterns returns the IDs of the missed packages, and the import
// paths that load them, sorted.
func missPatterns(misses []*packages.Package) (want map[string]bool, patterns []string) {
	want = make(map[string]bool, len(misses))
	for _, p := range misses {
		want[p.ID] = true
		patterns = append(patterns, loadPattern(p.ID))
	}
	slices.Sort(patterns)
	return want, slices.Compact(patterns)
}

// loadPattern is the import path that loads the package with ID id: the
// package under test for a test variant ("p [q.test]", "p_test [q.test]")
// or a test main ("q.test"), the package itself otherwise.
func loadPattern(id string) string {
	if _, variant, ok := strings.Cut(id, " ["); ok {
		return strings.TrimSuffix(strings.TrimSuffix(variant, "]"), ".test")
	}
	return strings.TrimSuffix(id, ".test")
}
