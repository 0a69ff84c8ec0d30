package driver

import (
	"sync"

	"golang.org/x/tools/go/packages"
)

// Staging: a cold run writes its cache entries while it analyzes.
//
// A run that analyzes everything (no entry of its setup, or one the
// package cache could not use) stores an entry per package, thousands on
// a large program. Creating a file costs the disk's time, not a core's,
// and after the analysis nothing else is left to do: measured on std,
// storing 2,500 entries took 1.5 to 2 s after a 6 s analysis. So the
// streamed run hands each package to the stager as soon as it is done
// (its imports were handed over before it): the stager computes its keys
// and entry, and writes the entry to a temporary file in the background
// while the analysis goes on. Once the run is over, commit checks, as
// store does, that every file the keys read is still as it was, computes
// the keys again, and renames each entry whose key still holds and is
// settled into place; the others are removed. Until then no entry is
// under a key: a run that ends early (a crash, an interrupt) leaves
// temporary files that prune removes, never an entry of content it did
// not analyze. The entries are store's, and so are their keys: commit
// computes them as store would.
type stager struct {
	c *pkgCache

	mu     sync.Mutex
	failed bool              // a key could not be computed: nothing is committed
	keys   map[string]pkgKey // source keys, by package ID
	rkeys  map[string]pkgKey // result keys
	staged map[string]stagedEntry
}

type stagedEntry struct {
	r        pkgKey
	file     *staged
	skeleton string // the package's skeleton sum when it was a root
}

func (c *pkgCache) newStager() *stager {
	return &stager{c: c, keys: make(map[string]pkgKey), rkeys: make(map[string]pkgKey), staged: make(map[string]stagedEntry)}
}

// done stages the entry of p, whose imports were handed over before it:
// its results when it is a root analyzed (res), and its facts.
func (g *stager) done(p *packages.Package, res *pkgResult, facts *factEntry) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failed {
		return
	}
	c := g.c
	k, err := c.key(p, "source", func(id string) pkgKey { return g.keys[id] })
	if err != nil {
		g.failed = true
		return
	}
	g.keys[p.ID] = k
	stamp := func(id string) pkgKey { return c.stampOf(id, g.rkeys[id], g.keys[id]) }
	r, err := c.key(p, "result", stamp)
	if err != nil {
		g.failed = true
		return
	}
	g.rkeys[p.ID] = r
	if !r.stable {
		return
	}
	e := c.entryFor(p, r, stamp, res, facts)
	if e == nil {
		return
	}
	c.entries[r.sum] = e // its dependents' stamps read its interface sum
	st := stagedEntry{r: r, file: c.disk.stage(e)}
	if res != nil {
		st.skeleton = res.Skeleton
	}
	g.staged[p.ID] = st
}

// commit puts under its key each entry staged for the import graph of
// roots whose key still holds, and removes the rest.
func (g *stager) commit(roots []*packages.Package) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.c
	defer g.discardLocked()
	if g.failed || !c.recheck() {
		return
	}
	keys, err := c.keys(roots)
	if err != nil {
		return
	}
	skeletons := make(map[string]string)
	_, err = c.resultKeys(roots, keys, func(p *packages.Package, r pkgKey, _ func(string) pkgKey) {
		st, ok := g.staged[p.ID]
		if !ok {
			return
		}
		delete(g.staged, p.ID)
		if r != st.r || !r.stable {
			delete(c.entries, st.r.sum)
			c.disk.discard(st.file)
			return
		}
		c.disk.commit(st.file, r.sum)
		if st.skeleton != "" {
			skeletons[p.ID] = st.skeleton
		}
	})
	if err == nil {
		c.stored(skeletons)
	}
}

// discard removes every entry staged and not committed; a nil stager
// has none.
func (g *stager) discard() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.discardLocked()
}

func (g *stager) discardLocked() {
	for id, st := range g.staged {
		delete(g.c.entries, st.r.sum)
		g.c.disk.discard(st.file)
		delete(g.staged, id)
	}
	g.failed = true // nothing more is staged
	g.c.disk.flush()
}
