package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The listing snapshot spares a run after an edit the go list its keys
// start from (pkgcache.go), which otherwise costs more time and memory
// than the analysis of a leaf package against export data: with test
// variants and compiled files, go list of nats-server peaks at 46 MB, as
// much as go vet's whole run. A run that listed the packages stores their
// metadata, with what the go command read to list them; the next run of
// the same setup, patterns and directory checks those inputs and, when
// none changed, uses the stored metadata instead of listing.
//
// # Why a reused listing is the go command's
//
// go list's metadata of a package (its files, their kinds, its imports,
// its module, the test variants, the compiled files) is a function of the
// setup (the environment, flags and patterns, all in the snapshot's key),
// of the module files (go.mod, go.sum, go.work, vendor/modules.txt), of
// the directories' entries, and of each Go file's header: the build
// constraints, the package clause and the imports, which is all that
// go/build reads of a file, with three exceptions where what it lists
// depends on more of a file:
//
//   - a file that imports "embed": its //go:embed lines, anywhere, name
//     the embedded files;
//   - a cgo file (it imports "C"): the compiled files listed for it are
//     cgo's output, in the build cache, named by their content, which its
//     whole content decides (and the C files', other files below);
//   - a test file: the test main's generated file, named by its content,
//     lists the tests and examples of the test files.
//
// So the snapshot holds, for each file of every listed package (its
// ignored files included) and for the module files:
//
//   - outside GOROOT, the module cache and the build cache: the sum of
//     the header of a Go file that is none of the exceptions, the sum of
//     the whole content of every other file (the exceptions, non-Go files,
//     module files, a Go file whose header does not parse);
//   - in GOROOT and the module cache, which the go command treats as
//     immutable: size and modification time, as keys count them;
//   - in the build cache: that the file is there (its name is its
//     content's).
//
// It holds the entries (names and types) of every directory under the
// main modules and the directory replacements (but those whose names
// begin with a dot, which no package path can name), of every package's
// directory and of go.work's: a file or directory added, removed or
// renamed changes its directory's entries, and a new directory its
// parent's; a file saved by renaming a new one over it does not. In GOROOT
// and the module cache, a directory's modification time stands for its
// entries. A snapshot is stored only when every file and directory was
// settled (not modified since shortly before the run began), so that the
// listing saw what the sums hold, and
// is not kept under -modfile, an -overlay in GOFLAGS, GOPACKAGESDRIVER,
// or outside module mode: there the go command reads files it does not
// name.
//
// An edit of a function body changes no input: the listing is reused and
// the keys, computed from the files' contents as always, tell the edited
// package. An edit of an import, a build constraint or a package clause,
// a new or removed file, a test file's, cgo's or an embedder's edit, or
// go.mod's, lists again.

// listingFormat versions the snapshot.
const listingFormat = "retrylint-listing-1"

// listingSnapshot is a stored listing and the inputs it was listed from.
type listingSnapshot struct {
	Roots    []string // the root packages' IDs, in listing order
	Packages []listedPackage
	Files    map[string]string // file name: its listing sum (listingSum)
	Dirs     map[string]string // directory: its listing sum (dirSum)
}

// listedPackage is what listMode gives of a package.
type listedPackage struct {
	ID, Name, PkgPath, Dir, ForTest                    string
	GoFiles, CompiledGoFiles, OtherFiles, IgnoredFiles []string
	Imports                                            map[string]string // import path: ID
	Module                                             *packages.Module
}

// maxListingDirs bounds the directories a snapshot records: a tree larger
// than this is listed by each run.
const maxListingDirs = 20000

// listingKey is the key of the snapshot of a listing with cfg of patterns
// from the working directory wd.
func (c *pkgCache) listingKey(cfg *packages.Config, patterns []string, wd string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%t\x00%q\x00%q\x00", listingFormat, c.setup, wd, cfg.Tests, cfg.BuildFlags, patterns)
	return "listing-" + hex.EncodeToString(h.Sum(nil))
}

// listingKept reports whether a listing in this setup may be kept: the
// go command reads no file its listing does not name.
func listingKept(cfg *packages.Config, env map[string]string) bool {
	if os.Getenv("GOPACKAGESDRIVER") != "" && os.Getenv("GOPACKAGESDRIVER") != "off" {
		return false
	}
	for _, f := range append(strings.Fields(env["GOFLAGS"]), cfg.BuildFlags...) {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if name == "modfile" || name == "overlay" {
			return false
		}
	}
	inModule := env["GOMOD"] != "" && env["GOMOD"] != os.DevNull
	return inModule || (env["GOWORK"] != "" && env["GOWORK"] != "off")
}

// reuseListing returns the stored listing under key if none of its inputs
// changed, or nil.
func (c *pkgCache) reuseListing(key string) []*packages.Package {
	var s listingSnapshot
	if !c.disk.get(key, &s) {
		return nil
	}
	for dir, sum := range s.Dirs {
		if got, ok := c.dirSum(dir); !ok || got != sum {
			return nil
		}
	}
	for name, sum := range s.Files {
		kind, _, _ := strings.Cut(sum, ":")
		if got, ok := c.listingSum(name, kind); !ok || got != sum {
			return nil
		}
	}
	return s.graph()
}

// graph rebuilds the packages of the listing, its roots in order.
func (s *listingSnapshot) graph() []*packages.Package {
	byID := make(map[string]*packages.Package, len(s.Packages))
	for _, lp := range s.Packages {
		byID[lp.ID] = &packages.Package{
			ID: lp.ID, Name: lp.Name, PkgPath: lp.PkgPath, Dir: lp.Dir, ForTest: lp.ForTest,
			GoFiles: lp.GoFiles, CompiledGoFiles: lp.CompiledGoFiles, OtherFiles: lp.OtherFiles, IgnoredFiles: lp.IgnoredFiles,
			Imports: make(map[string]*packages.Package, len(lp.Imports)), Module: lp.Module,
		}
	}
	for _, lp := range s.Packages {
		for path, id := range lp.Imports {
			if byID[id] == nil {
				return nil
			}
			byID[lp.ID].Imports[path] = byID[id]
		}
	}
	roots := make([]*packages.Package, len(s.Roots))
	for i, id := range s.Roots {
		if roots[i] = byID[id]; roots[i] == nil {
			return nil
		}
	}
	return roots
}

// keepListing stores the listing of roots under key, with its inputs, if
// they were all settled before the run began.
func (c *pkgCache) keepListing(key string, roots []*packages.Package, env map[string]string, wd string) {
	s := listingSnapshot{Files: make(map[string]string), Dirs: make(map[string]string)}
	walk := []string{wd}
	var all []*packages.Package
	packages.Visit(roots, nil, func(p *packages.Package) { all = append(all, p) })
	for _, p := range all {
		lp := listedPackage{ID: p.ID, Name: p.Name, PkgPath: p.PkgPath, Dir: p.Dir, ForTest: p.ForTest,
			GoFiles: p.GoFiles, CompiledGoFiles: p.CompiledGoFiles, OtherFiles: p.OtherFiles, IgnoredFiles: p.IgnoredFiles,
			Imports: make(map[string]string, len(p.Imports)), Module: p.Module}
		for path, imp := range p.Imports {
			lp.Imports[path] = imp.ID
		}
		s.Packages = append(s.Packages, lp)
		if p.Dir != "" {
			s.Dirs[p.Dir] = ""
		}
		if m := p.Module; m != nil {
			walk = append(walk, m.Dir)
			if m.Replace != nil {
				walk = append(walk, m.Replace.Dir)
			}
		} else if !c.isFixed(p.Dir) {
			return // a package outside modules: GOPATH's rules
		}
		for _, name := range slices.Concat(p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles) {
			s.Files[name] = ""
		}
	}
	for _, p := range roots {
		s.Roots = append(s.Roots, p.ID)
	}
	for _, dir := range slices.Compact(slices.Sorted(slices.Values(walk))) {
		if dir == "" || c.isFixed(dir) {
			continue
		}
		for _, name := range []string{"go.mod", "go.sum", filepath.Join("vendor", "modules.txt")} {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				s.Files[filepath.Join(dir, name)] = ""
			}
		}
		if !c.walkDirs(dir, s.Dirs) {
			return
		}
	}
	if work := env["GOWORK"]; work != "" && work != "off" {
		s.Dirs[filepath.Dir(work)] = ""
		for _, name := range []string{work, work + ".sum"} {
			if _, err := os.Stat(name); err == nil {
				s.Files[name] = ""
			}
		}
	}
	for dir := range s.Dirs {
		// Settled: its entries are those go list read.
		info, err := os.Stat(dir)
		sum, ok := c.dirSum(dir)
		if err != nil || !ok || !settled(info.ModTime(), c.start) {
			return
		}
		s.Dirs[dir] = sum
	}
	for name := range s.Files {
		kind := c.listingKind(name)
		sum, ok := c.listingSum(name, kind)
		if fs := c.fileSums[name]; !ok || (kind != "derived" && !fs.stable) {
			return
		}
		s.Files[name] = sum
	}
	c.disk.put(key, &s)
	c.disk.flush()
}

// walkDirs adds every directory under root to dirs, but those whose names
// begin with a dot; it reports false past maxListingDirs.
func (c *pkgCache) walkDirs(root string, dirs map[string]string) bool {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		dirs[path] = ""
		if len(dirs) > maxListingDirs {
			return fs.SkipAll
		}
		return nil
	})
	return err == nil && len(dirs) <= maxListingDirs
}

// dirSum is what the snapshot holds of a directory: its modification
// time in GOROOT and the module cache; elsewhere the sum of its entries'
// names and types, which a file saved by renaming a new one over it (as
// sed -i and some editors do) leaves as they were.
func (c *pkgCache) dirSum(dir string) (string, bool) {
	if c.isFixed(dir) {
		info, err := os.Stat(dir)
		if err != nil || !info.IsDir() {
			return "", false
		}
		return "mtime:" + strconv.FormatInt(info.ModTime().UnixNano(), 10), true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%s\x00%d\x00", e.Name(), e.Type())
	}
	return "entries:" + hex.EncodeToString(h.Sum(nil)), true
}

func (c *pkgCache) isFixed(name string) bool {
	return slices.ContainsFunc(c.fixed, func(dir string) bool { return strings.HasPrefix(name, dir) })
}

func (c *pkgCache) isDerived(name string) bool {
	return slices.ContainsFunc(c.derived, func(dir string) bool { return strings.HasPrefix(name, dir) })
}

// listingKind is how the snapshot counts a file: "derived" (the build
// cache's, by existence), "fixed" (GOROOT's and the module cache's, by
// size and time), "header" (a Go file, by its header) or "content".
func (c *pkgCache) listingKind(name string) string {
	switch {
	case c.isDerived(name):
		return "derived"
	case c.isFixed(name):
		return "fixed"
	case !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go"):
		return "content"
	}
	return "header"
}

// listingSum is a file's sum of the kind given, prefixed by the kind; a
// header sum is the content sum for a file whose header is not all go
// list reads of it (goHeader).
func (c *pkgCache) listingSum(name, kind string) (string, bool) {
	switch kind {
	case "derived":
		_, err := os.Stat(name)
		return kind, err == nil
	case "fixed":
		fs, err := c.fileSum(name)
		return kind + ":" + fs.sum, err == nil
	case "header", "content":
		fs, err := c.contentSum(name)
		if kind == "header" && fs.header != "" {
			return kind + ":" + fs.header, err == nil
		}
		return kind + ":" + fs.sum, err == nil
	}
	return "", false
}

// goHeader returns the sum of a Go file's header, the bytes up to the end
// of its imports, which hold all go/build reads of it (build constraints,
// package clause, imports); or "" when go/build reads more of it (it
// imports "embed" or "C") or it does not parse.
func goHeader(src []byte) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return ""
	}
	end := f.Name.End()
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "embed" || path == "C" {
			return ""
		}
	}
	if len(f.Decls) > 0 {
		end = f.Decls[len(f.Decls)-1].End()
	}
	sum := sha256.Sum256(src[:end-f.FileStart])
	return hex.EncodeToString(sum[:])
}
