package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// diskCache is a directory of checksummed entries under os.UserCacheDir:
// the package cache's (pkgcache.go). An entry that does not check out
// against its checksum is ignored, and rewritten by the run that misses
// it; failures to write are ignored: the cache only saves time.
type diskCache struct {
	dir string
}

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
