package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// diskCache is a directory of checksummed entries under os.UserCacheDir:
// the package cache's (pkgcache.go). An entry that does not check out
// against its checksum is ignored, and rewritten by the run that misses
// it; failures to write are ignored: the cache only saves time.
//
// Entries are written in the background, by up to diskWriters at once:
// a cold run stores an entry per package, thousands on a large program,
// and creating a file waits on the disk rather than on a core. An entry
// can be staged (written to a temporary file) while the run goes on, and
// committed under its key (renamed) or discarded once the run knows its
// key holds. flush waits for all of it.
type diskCache struct {
	dir     string
	writing sync.WaitGroup
	mu      sync.Mutex
	queue   []func()
	writers int
}

// diskWriters bounds the entries written at once.
const diskWriters = 4

// pruneEvery is how often a run prunes the cache: reading the whole
// directory is a cost per entry.
const pruneEvery = 24 * time.Hour

// cacheMaxAge is how long an entry is kept without being written or read.
const cacheMaxAge = 14 * 24 * time.Hour

func newDiskCache(name string) *diskCache {
	base, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return &diskCache{dir: filepath.Join(base, "retrylint", name)}
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

// has reports whether there is an entry under key, without reading it.
func (c *diskCache) has(key string) bool {
	_, err := os.Stat(filepath.Join(c.dir, key))
	return err == nil
}

// put stores v under key, atomically, in the background (see flush).
// Failures are ignored: the cache only saves time.
func (c *diskCache) put(key string, v any) {
	payload, err := json.Marshal(v) // now: v may change once put returns
	if err != nil {
		return
	}
	c.commit(c.stage(json.RawMessage(payload)), key)
}

// staged is an entry written to a temporary file, not yet under its key.
type staged struct {
	written chan struct{}
	tmp     string // "" when it could not be written
}

// stage writes v to a temporary file in the background: v must not
// change after.
func (c *diskCache) stage(v any) *staged {
	st := &staged{written: make(chan struct{})}
	c.async(func() {
		defer close(st.written)
		payload, err := json.Marshal(v)
		if err != nil || os.MkdirAll(c.dir, 0o755) != nil {
			return
		}
		tmp, err := os.CreateTemp(c.dir, "tmp-*")
		if err != nil {
			return
		}
		_, werr := fmt.Fprintf(tmp, "%s\n%s", checksum(payload), payload)
		if cerr := tmp.Close(); werr != nil || cerr != nil {
			os.Remove(tmp.Name())
			return
		}
		st.tmp = tmp.Name()
	})
	return st
}

// commit puts the staged entry under key, in the background.
func (c *diskCache) commit(st *staged, key string) {
	c.async(func() {
		<-st.written // staged before: a writer has taken it
		if st.tmp != "" && os.Rename(st.tmp, filepath.Join(c.dir, key)) != nil {
			os.Remove(st.tmp)
		}
	})
}

// discard removes the staged entry, in the background.
func (c *diskCache) discard(st *staged) {
	c.async(func() {
		<-st.written
		if st.tmp != "" {
			os.Remove(st.tmp)
		}
	})
}

// async runs job on one of diskWriters goroutines, in the order given.
func (c *diskCache) async(job func()) {
	c.writing.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queue = append(c.queue, job)
	if c.writers < diskWriters {
		c.writers++
		go c.work()
	}
}

func (c *diskCache) work() {
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			c.writers--
			c.mu.Unlock()
			return
		}
		job := c.queue[0]
		c.queue = c.queue[1:]
		c.mu.Unlock()
		job()
		c.writing.Done()
	}
}

// flush waits for the entries put, committed or discarded to be so.
func (c *diskCache) flush() { c.writing.Wait() }

// prune drops the entries neither written nor read for cacheMaxAge, and
// the temporary files older than pruneEvery (entries a run staged and
// never committed: it was killed), at most once every pruneEvery.
func (c *diskCache) prune() {
	mark := filepath.Join(c.dir, "pruned")
	if info, err := os.Stat(mark); err == nil && time.Since(info.ModTime()) < pruneEvery {
		return
	}
	if f, err := os.Create(mark); err == nil {
		f.Close()
	}
	old, _ := os.ReadDir(c.dir)
	for _, d := range old {
		maxAge := cacheMaxAge
		if strings.HasPrefix(d.Name(), "tmp-") {
			maxAge = pruneEvery
		}
		if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > maxAge {
			os.Remove(filepath.Join(c.dir, d.Name()))
		}
	}
}
