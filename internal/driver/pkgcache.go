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
// keyed by the package's content and its dependencies' keys, so that a run
// after an edit analyzes the edited packages and those that depend on
// them, and replays the rest.
//
// How a run uses it (analyzeCached), when the run cache (cache.go) has no
// identical run to replay:
//
//   - go list the packages and their dependencies, without parsing (a tenth
//     of a second to a second on a large module), and compute every key;
//   - replay the root packages whose key has an entry;
//   - load the others (with their dependencies, from source: the checks
//     need their dependencies' facts, and computing them anew is what
//     keeps the results exact) and analyze them.
//
// A first run, whose cache holds no entry of its setup (binary, flags,
// configuration, Go environment, working directory), skips the listing: it
// loads and analyzes everything, as an uncached run does, and stores an
// entry per root package.
//
// Why a cache of our own rather than the go command's (go vet's protocol):
// the vet protocol needs every dependency compiled for its export data and
// each package's facts computed by a process of its own, which made a cold
// run several times slower than the command line's one load. Why whole
// results rather than facts: a missed package is re-analyzed with its
// dependencies loaded from source, so their facts are recomputed from the
// same content their keys name; keying by content then stands in for
// keying by the dependencies' fact hashes, and needs no analysis to
// compute.
//
// A package's key (keys) covers the setup, its ID, path and name, its
// module (path, version, Go version: the language version the type
// checker applies), the names and contents of its Go files as compiled
// (files in GOROOT, the module cache and the build cache, where cgo puts
// its output, are immutable: their names stand for them) and, by import
// path, its imports' keys. An entry is the
// package's diagnostics with their positions resolved (results.go);
// suppression directives are in the sources, so in the key.
//
// Exactness over reuse: a run replays nothing, and analyzes everything as
// an uncached run does, when the listing or the load of the missed
// packages reports an error, a type error or an analysis failure (their
// messages depend on the whole load), when a package is named by files
// rather than import path, or when -retrycontract.dlq-funcs is set (its
// names are checked against the loaded packages). No entry is stored for
// a run with such errors, nor for a package one of whose files, or a
// dependency's, changed after the run began.
type pkgCache struct {
	disk     *diskCache
	setup    string // hash of the format, binary, flags and environment
	family   string // the key of the marker of a run of this setup here
	immut    []string
	start    time.Time
	fileSums map[string]fileSum
}

// pkgCacheFormat versions the package cache's keys and entries.
const pkgCacheFormat = "retrylint-pkg-cache-1"

// listMode is what the package cache asks go list: the import graph and
// the files, with their modules; nothing is parsed.
const listMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule

// pkgEntry is what the cache holds for a package.
type pkgEntry struct {
	ID    string
	Diags []diag
}

// pkgKey is a package's key, and whether its files and its dependencies'
// were all last written before the run began.
type pkgKey struct {
	sum    string
	stable bool
}

type fileSum struct {
	sum    string
	stable bool
}

// cacheStats tells the root packages of a run by where their results came
// from. With RETRYLINT_CACHE_STATS=file in the environment, a run that
// analyzes writes them to file as JSON (for tests and bench/): the output
// stays the same.
type cacheStats struct {
	Analyzed []string // the IDs of the root packages analyzed
	Replayed int      // how many root packages were replayed
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
	if !r.cache || r.afterFix || r.recordsBaseline() || r.dlqFuncsSet() {
		return nil
	}
	disk := newDiskCache("pkgs")
	env, err := r.goEnv()
	if disk == nil || err != nil {
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", pkgCacheFormat)
	if hashSetup(h, analysisFlags(flags), env) != nil {
		return nil
	}
	setup := hex.EncodeToString(h.Sum(nil))
	family := sha256.Sum256([]byte("family\x00" + setup + "\x00" + wd))
	var immut []string
	for _, dir := range []string{env["GOROOT"], env["GOMODCACHE"], env["GOCACHE"]} {
		if dir != "" {
			immut = append(immut, filepath.Clean(dir)+string(filepath.Separator))
		}
	}
	return &pkgCache{
		disk:     disk,
		setup:    setup,
		family:   "family-" + hex.EncodeToString(family[:]),
		immut:    immut,
		start:    time.Now(),
		fileSums: make(map[string]fileSum),
	}
}

// outputFlags are the flags that change how findings are printed, or
// where the run happens, but not what a package's analysis reports (file
// names are absolute): runs that differ only in them share entries.
var outputFlags = map[string]bool{"json": true, "format": true, "baseline": true, "c": true, "C": true, "cache": true}

// analysisFlags returns flags without the outputFlags and their values.
func analysisFlags(flags []string) []string {
	var kept []string
	for i := 0; i < len(flags); i++ {
		name, _, hasValue, _ := splitFlag(flags[i])
		if !outputFlags[name] {
			kept = append(kept, flags[i])
		} else if !hasValue && name != "json" && name != "cache" {
			i++ // the value is the next argument
		}
	}
	return kept
}

// seen reports whether a run of this setup stored entries here before:
// only then is listing the packages worth its cost.
func (c *pkgCache) seen() bool {
	var marker bool
	return c.disk.get(c.family, &marker) && marker
}

// keys computes the key of every package of the import graph of pkgs, by
// ID.
func (c *pkgCache) keys(pkgs []*packages.Package) (map[string]pkgKey, error) {
	keys := make(map[string]pkgKey)
	var err error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if err == nil {
			keys[p.ID], err = c.key(p, keys)
		}
	})
	return keys, err
}

// key computes p's key; the keys of its imports are in keys.
func (c *pkgCache) key(p *packages.Package, keys map[string]pkgKey) (pkgKey, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", c.setup, p.ID, p.PkgPath, p.Name)
	if m := p.Module; m != nil {
		fmt.Fprintf(h, "module\x00%s\x00%s\x00%s\x00", m.Path, m.Version, m.GoVersion)
		if m.Replace != nil {
			fmt.Fprintf(h, "replace\x00%s\x00%s\x00", m.Replace.Path, m.Replace.Version)
		}
	}
	stable := true
	for _, name := range p.CompiledGoFiles {
		fs, err := c.fileSum(name)
		if err != nil {
			return pkgKey{}, err
		}
		fmt.Fprintf(h, "file\x00%s\x00%s\x00", name, fs.sum)
		stable = stable && fs.stable
	}
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		k := keys[p.Imports[path].ID]
		fmt.Fprintf(h, "import\x00%s\x00%s\x00", path, k.sum)
		stable = stable && k.stable
	}
	return pkgKey{hex.EncodeToString(h.Sum(nil)), stable}, nil
}

// fileSum hashes a file's content once per run; a file in GOROOT, the
// module cache or the build cache stands for itself.
func (c *pkgCache) fileSum(name string) (fileSum, error) {
	if fs, ok := c.fileSums[name]; ok {
		return fs, nil
	}
	fs := fileSum{stable: true}
	if !slices.ContainsFunc(c.immut, func(dir string) bool { return strings.HasPrefix(name, dir) }) {
		f, err := os.Open(name)
		if err != nil {
			return fileSum{}, err
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil {
			return fileSum{}, err
		}
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return fileSum{}, err
		}
		fs = fileSum{hex.EncodeToString(h.Sum(nil)), info.ModTime().Before(c.start)}
	}
	c.fileSums[name] = fs
	return fs, nil
}

// store keeps the results of the analyzed root packages. When expected is
// set (the keys the packages were listed under), a package is kept only
// under that key.
func (c *pkgCache) store(roots []*packages.Package, results []pkgResult, expected map[string]pkgKey) {
	// A file written since it was hashed, perhaps after the parser read
	// it, makes its package and the packages that depend on it unstable.
	for name, fs := range c.fileSums {
		if info, err := os.Stat(name); fs.stable && fs.sum != "" && (err != nil || !info.ModTime().Before(c.start)) {
			c.fileSums[name] = fileSum{fs.sum, false}
		}
	}
	keys, err := c.keys(roots)
	if err != nil {
		return
	}
	byID := make(map[string][]diag, len(results))
	for _, res := range results {
		byID[res.ID] = res.Diags
	}
	for _, p := range roots {
		k := keys[p.ID]
		if diags, ok := byID[p.ID]; ok && k.stable && (expected == nil || expected[p.ID] == k) {
			c.disk.put(k.sum, &pkgEntry{ID: p.ID, Diags: diags})
		}
	}
	c.disk.put(c.family, true)
	c.disk.prune()
}

// analyzeCached runs the checks through the package cache (see
// pkgCache). It reports false when it could not keep the output exact:
// the caller then analyzes everything.
func (r *runner) analyzeCached(c *pkgCache, cfg *packages.Config, patterns []string) (*outcome, bool) {
	listCfg := *cfg
	listCfg.Mode = listMode
	listed, err := packages.Load(&listCfg, patterns...)
	if err != nil || len(listed) == 0 {
		return nil, false
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
	var results []pkgResult
	var misses []*packages.Package
	for _, p := range listed {
		if strings.HasPrefix(p.ID, "command-line-arguments") {
			return nil, false // named by files: no import path to load it by alone
		}
		var e pkgEntry
		if c.disk.get(keys[p.ID].sum, &e) && e.ID == p.ID {
			results = append(results, pkgResult{ID: e.ID, Diags: e.Diags})
		} else {
			misses = append(misses, p)
		}
	}
	if len(misses) == len(listed) {
		return nil, false // nothing to replay
	}
	if len(misses) > 0 {
		fresh, ok := r.analyzeMisses(c, cfg, misses, keys)
		if !ok {
			return nil, false
		}
		results = append(results, fresh...)
		sortResults(results)
	}
	r.stats = cacheStats{Analyzed: idsOf(misses), Replayed: len(listed) - len(misses)}
	return &outcome{results: results}, true
}

// analyzeMisses loads the packages the cache had no entry for, by import
// path, and analyzes them. It reports false when the load or the analysis
// reported an error: the caller then analyzes everything, so that their
// messages are the same as in an uncached run.
func (r *runner) analyzeMisses(c *pkgCache, cfg *packages.Config, misses []*packages.Package, keys map[string]pkgKey) ([]pkgResult, bool) {
	want := make(map[string]bool, len(misses))
	var patterns []string
	for _, p := range misses {
		want[p.ID] = true
		patterns = append(patterns, loadPattern(p.ID))
	}
	slices.Sort(patterns)
	pkgs, err := packages.Load(cfg, slices.Compact(patterns)...)
	if err != nil {
		return nil, false
	}
	l := triage(pkgs)
	if len(l.notices) > 0 || len(l.typeErrs) > 0 {
		return nil, false
	}
	roots := slices.DeleteFunc(l.roots, func(p *packages.Package) bool { return !want[p.ID] })
	if len(roots) != len(misses) {
		return nil, false
	}
	graph, err := checker.Analyze(r.selected(), roots, nil)
	if err != nil || len(failuresOf(graph)) > 0 {
		return nil, false
	}
	results := resultsOf(graph)
	c.store(roots, results, keys)
	return results, true
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
