// Package globs matches the exclude options' path globs (the contract
// model's and every check's), shared by the analyzers and the
// configuration file's reader.
package globs

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// Globs is a comma-separated list of path globs, usable as a flag.Value:
// the files the exclude options name. A glob is a slash-separated path
// whose segments are path.Match patterns (*, ?, [...]), where a segment
// ** matches any number of segments, none included. A glob matches a file
// when it matches the file's path or a directory above it: gen excludes
// everything under gen. An absolute glob is matched from the root; a
// relative one at any depth (gen/*.go matches a/gen/x.go and gen/x.go).
// .retrylint.yaml makes its globs absolute, relative to its directory
// (internal/config), so only a glob given as a flag is matched at any
// depth. A glob cannot contain a comma, the list's separator.
type Globs struct {
	list []string // as given, slash-separated
}

// String returns the globs as the flag was given them.
func (g *Globs) String() string {
	if g == nil {
		return ""
	}
	return strings.Join(g.list, ",")
}

// Set parses a comma-separated list of globs; a malformed glob is an
// error and leaves the list as it was.
func (g *Globs) Set(s string) error {
	var list []string
	for glob := range strings.SplitSeq(s, ",") {
		if glob = strings.TrimSpace(glob); glob == "" {
			continue
		}
		if err := CheckGlob(glob); err != nil {
			return err
		}
		list = append(list, path.Clean(filepath.ToSlash(glob)))
	}
	g.list = list
	return nil
}

// CheckGlob reports whether glob is well formed.
func CheckGlob(glob string) error {
	for _, seg := range strings.Split(filepath.ToSlash(glob), "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("glob %q: %w", glob, err)
		}
	}
	if strings.Contains(glob, ",") {
		return errors.New("a glob cannot contain a comma")
	}
	return nil
}

// Fixed returns the part of glob before its first segment with a
// wildcard: the directory (or file) that must exist for glob to match
// anything. It is "" when the first segment has one.
func Fixed(glob string) string {
	segs := strings.Split(filepath.ToSlash(glob), "/")
	for i, seg := range segs {
		if strings.ContainsAny(seg, `*?[\`) {
			return filepath.FromSlash(strings.Join(segs[:i], "/"))
		}
	}
	return filepath.FromSlash(glob)
}

// Match reports whether a glob of the list matches filename (see Globs).
func (g *Globs) Match(filename string) bool {
	if g == nil || len(g.list) == 0 || filename == "" {
		return false
	}
	name := strings.Split(filepath.ToSlash(filename), "/")
	for _, glob := range g.list {
		pattern := strings.Split(glob, "/")
		if path.IsAbs(glob) {
			if matchSegments(pattern, name) {
				return true
			}
			continue
		}
		for i := range name {
			if matchSegments(pattern, name[i:]) {
				return true
			}
		}
	}
	return false
}

// matchSegments reports whether pattern matches name or a prefix of its
// segments (a directory above the file), ** matching any number of them.
func matchSegments(pattern, name []string) bool {
	switch {
	case len(pattern) == 0:
		return true
	case pattern[0] == "**":
		return matchSegments(pattern[1:], name) || len(name) > 0 && matchSegments(pattern, name[1:])
	case len(name) == 0:
		return false
	}
	ok, _ := path.Match(pattern[0], name[0])
	return ok && matchSegments(pattern[1:], name[1:])
}
