package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash"
	"os"
	"slices"

	"golang.org/x/tools/go/packages"
)

// Early cutoff: an edit that leaves a package's interface as it was (its
// declarations, where they stand, and its facts) costs that package
// alone; its dependents are replayed, as go vet replays a package whose
// dependencies' export data and facts did not change.
//
// A package's entry (its results, facts and interface sum) is stored
// under its result key, which covers its own inputs as its source key
// does (the setup, its listing, its files' contents) and, for each
// import, the import's stamp rather than its source key. A package's
// stamp is its interface sum when a run that analyzed it as a root stored
// one (in its entry), and its source key otherwise (a dependency outside
// the roots). The interface sum of a package covers:
//
//   - its listing (ID, path, name, module);
//   - its skeleton (writeSkeleton): each file's name and Go version, and
//     its text outside function bodies' interiors without comments, each
//     span of it after the position (file, line, column) it starts at; a
//     comment before a token on its line counts as spaces, so that every
//     token outside bodies keeps its line and column, and a body that
//     grows or shrinks by a line moves the span after it;
//   - its facts, as stored (facts.go);
//   - the stamps of its imports.
//
// # Why a replayed dependent's results are the same
//
// What an analysis of package P reads of an import Q is Q's types (its
// package-level objects, their types and positions, through P's own
// types) and Q's facts, and through them the same of Q's imports. Q's
// types are those of its declarations, which are the tokens outside
// function bodies (a body declares nothing another package can name: a
// type declared in one is local) checked against Q's imports' types; the
// positions of Q's objects are the positions of those tokens. Q's facts
// are in its interface sum as its importers decode them. A finding of P
// that points into Q (where a handler in Q returns) is placed from a
// fact's offset from a declaration of Q, both covered. So two versions
// of Q with the same interface sum give P the same types, positions and
// facts, and P's analysis, a function of those and of P's own files, the
// same results; the stamps of Q's imports carry the argument down the
// graph. A package's source key covers all of its inputs, so a stamp
// that is a source key is as good. Comments, which the skeleton leaves
// out, reach P only through Q's facts (a //retrylint: directive) or
// through positions, which the skeleton holds. Facts depend on what
// results depend on, so they share the result key: a package replayed
// thanks to cutoff finds its facts where the run that analyzed it left
// them, for the export path of its dependents (incremental.go). Equal
// facts hash alike in every run because gob's type numbers are pinned
// (pinFactTypes); a difference there would only cost a cutoff, never
// exactness.
//
// # How a run after an edit goes
//
// The packages whose result keys miss are analyzed in two rounds. First
// those none of whose imports missed (the edited ones); storing their
// results stores their interface sums, which decide the stamps their
// dependents' result keys are computed from again. A dependent whose key
// now hits is replayed; the rest are analyzed in the second round. When
// an edit does not change the interface (a comment, an edit within a
// line of a body, a changed string in a body that no fact holds), the
// dependents are replayed. When the edited packages' skeletons are not
// the last ones stored for them (a declaration moved), their interfaces
// are new: all misses are analyzed in one round, as they would be without
// early cutoff, rather than paying a second load.

// stampOf returns the stamp of the package id, whose result key is r and
// source key k: its interface sum if one is stored, its source key
// otherwise.
func (c *pkgCache) stampOf(id string, r, k pkgKey) pkgKey {
	if e := c.entry(id, r); e != nil && e.Iface != "" {
		return pkgKey{"iface:" + e.Iface, r.stable}
	}
	return pkgKey{"src:" + k.sum, k.stable}
}

// resultKeys computes the result key of every package of the import
// graph of pkgs, whose source keys are in keys, imports first. After
// each, visit (if not nil) is called with the package, its result key and
// the stamps of the packages done so far: it may store the package's
// interface sum, which its dependents' keys then read.
func (c *pkgCache) resultKeys(pkgs []*packages.Package, keys map[string]pkgKey, visit func(p *packages.Package, r pkgKey, stamp func(id string) pkgKey)) (map[string]pkgKey, error) {
	rkeys := make(map[string]pkgKey)
	stamp := func(id string) pkgKey { return c.stampOf(id, rkeys[id], keys[id]) }
	var err error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if err != nil {
			return
		}
		if rkeys[p.ID], err = c.key(p, "result", stamp); err == nil && visit != nil {
			visit(p, rkeys[p.ID], stamp)
		}
	})
	return rkeys, err
}

// ifaceSum returns the interface sum of p from its skeleton, its facts
// and its imports' stamps, or "" when the skeleton or the facts are
// unknown.
func (c *pkgCache) ifaceSum(p *packages.Package, stamp func(id string) pkgKey, skeleton string, facts *factEntry) string {
	if skeleton == "" || facts == nil {
		return ""
	}
	h := sha256.New()
	c.writeOwn(h, p)
	fmt.Fprintf(h, "skeleton\x00%s\x00facts\x00%t\x00%x\x00", skeleton, facts.Opaque, facts.Facts)
	for _, path := range importPaths(p) {
		fmt.Fprintf(h, "import\x00%s\x00%s\x00", path, stamp(p.Imports[path].ID).sum)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// skeletonsKey is the cache key of the skeleton sums, by package ID, that
// runs in this setup stored last: one entry, read only after an edit.
func (c *pkgCache) skeletonsKey() string {
	h := sha256.Sum256([]byte("skeletons\x00" + c.setup))
	return "skeletons-" + hex.EncodeToString(h[:])
}

// lastSkeletons returns the skeleton sums stored last, by package ID.
func (c *pkgCache) lastSkeletons() map[string]string {
	if c.skeletons == nil {
		if !c.disk.get(c.skeletonsKey(), &c.skeletons) || c.skeletons == nil {
			c.skeletons = make(map[string]string)
		}
	}
	return c.skeletons
}

// storeSkeletons stores the skeleton sums of the packages analyzed, over
// those stored last. Two runs storing at once may lose one's sums: that
// costs a second round after the next edit (skeletonsMoved), never
// exactness.
func (c *pkgCache) storeSkeletons(sums map[string]string) {
	last := c.lastSkeletons()
	changed := false
	for id, sum := range sums {
		if last[id] != sum {
			last[id], changed = sum, true
		}
	}
	if changed {
		c.disk.put(c.skeletonsKey(), last)
	}
}

// skeletonsMoved reports whether a package of pkgs has a skeleton other
// than the last one stored for it, or none stored: its interface sum is
// then new, and early cutoff cannot spare its dependents. The files are
// parsed anew for it (a tenth of the cost of analyzing them).
func (c *pkgCache) skeletonsMoved(pkgs []*packages.Package) bool {
	for _, p := range pkgs {
		last, ok := c.lastSkeletons()[p.ID]
		if !ok {
			return true
		}
		fset := token.NewFileSet()
		parsed := &packages.Package{Fset: fset}
		for _, name := range p.CompiledGoFiles {
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return true
			}
			parsed.Syntax = append(parsed.Syntax, f)
		}
		if skeletonSum(parsed) != last {
			return true
		}
	}
	return false
}

// skeletonSum returns the sum of the skeleton of p's files (see above),
// or "" when a file cannot be read as it was parsed.
func skeletonSum(p *packages.Package) string {
	h := sha256.New()
	for _, f := range p.Syntax {
		if !writeSkeleton(h, p.Fset, f) {
			return ""
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeSkeleton writes the skeleton of f to h: its name and Go version,
// then its text outside function bodies' interiors, each span after the
// position it starts at, without its comments: one that ends its line
// goes with the spaces before it, but for its newlines; one that a token
// follows on its line becomes as many spaces, so that the token keeps its
// column. What follows the last declaration goes too. A file with a //line
// directive is written whole: its comments move positions.
func writeSkeleton(h hash.Hash, fset *token.FileSet, f *ast.File) bool {
	tf := fset.File(f.FileStart)
	src, err := os.ReadFile(tf.Name())
	if err != nil || len(src) != tf.Size() {
		return false
	}
	fmt.Fprintf(h, "file\x00%s\x00%s\x00", tf.Name(), f.GoVersion)
	var comments []*ast.Comment
	if !bytes.Contains(src, []byte("line ")) {
		for _, g := range f.Comments {
			comments = append(comments, g.List...)
		}
	}
	// The spans around bodies' interiors: each body's { ends one, its }
	// starts the next.
	spans := []int{0}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			spans = append(spans, tf.Offset(fd.Body.Lbrace)+1, tf.Offset(fd.Body.Rbrace))
		}
	}
	last := f.Name.End() // what follows the last declaration is comments and spaces
	if len(f.Decls) > 0 {
		last = f.Decls[len(f.Decls)-1].End()
	}
	spans = append(spans, tf.Offset(last))
	if !slices.IsSorted(spans) {
		return false
	}
	for i := 0; i < len(spans); i += 2 {
		at := tf.Position(tf.Pos(spans[i]))
		fmt.Fprintf(h, "span\x00%s:%d:%d\x00", at.Filename, at.Line, at.Column)
		pos, end := spans[i], spans[i+1]
		for ; len(comments) > 0 && tf.Offset(comments[0].Pos()) < end; comments = comments[1:] {
			from, to := tf.Offset(comments[0].Pos()), tf.Offset(comments[0].End())
			if from < pos {
				continue // in a body
			}
			rest := src[to:]
			if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
				rest = rest[:nl]
			}
			ends := len(bytes.TrimSpace(rest)) == 0
			if ends {
				h.Write(bytes.TrimRight(src[pos:from], " \t"))
			} else {
				h.Write(src[pos:from])
			}
			for _, b := range src[from:to] {
				switch {
				case b == '\n':
					h.Write([]byte{'\n'})
				case !ends:
					h.Write([]byte{' '})
				}
			}
			pos = to
		}
		h.Write(src[pos:end])
	}
	return true
}
