package driver

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sync"
)

// parseCache parses each file once for the streamed run, for every
// package that lists it (a package and its test variants), and forgets
// it once they have all taken it.
//
// A dependency that may be silent is judged on its declarations
// (streamer.silence), which it parses without comments (parseLight):
// most dependencies are silent, and their comments, most of an SDK's
// source, are never read. When a package that is parsed whole lists the
// same files (std's test variants: "fmt [strings.test]" and fmt), the
// whole syntax serves Silence as well (it reads no comment), and the
// files are parsed once rather than twice.
type parseCache struct {
	mu    sync.Mutex
	files map[string]*parsedFile
}

type parsedFile struct {
	once      sync.Once
	file      *ast.File
	err       error
	directive bool // the source says "retrylint:" (parseLight)
	users     int  // the packages that list the file and have not taken it
	whole     int  // of all the packages that list it, those parsed whole
}

// want counts one more package that lists the file; whole tells whether
// it will parse it whole.
func (c *parseCache) want(name string, whole bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.files[name]
	if f == nil {
		f = &parsedFile{}
		c.files[name] = f
	}
	f.users++
	if whole {
		f.whole++
	}
}

// parse returns the syntax of files, parsed as go/packages parses them,
// for a package that takes them; an error of any file ends the streamed
// run.
func (c *parseCache) parse(fset *token.FileSet, names []string) ([]*ast.File, error) {
	files, _, err := c.syntax(fset, names)
	c.release(names)
	return files, err
}

// shared returns the whole syntax of names, and whether the source says
// "retrylint:", when each file is listed by a package that parses it
// whole anyway; ok is false otherwise. The files are not taken.
func (c *parseCache) shared(fset *token.FileSet, names []string) (files []*ast.File, directive, ok bool) {
	c.mu.Lock()
	for _, name := range names {
		if f := c.files[name]; f == nil || f.whole == 0 {
			c.mu.Unlock()
			return nil, false, false
		}
	}
	c.mu.Unlock()
	files, directive, err := c.syntax(fset, names)
	return files, directive, err == nil
}

// release takes the files without their syntax.
func (c *parseCache) release(names []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, name := range names {
		if f := c.files[name]; f != nil {
			if f.users--; f.users == 0 {
				delete(c.files, name)
			}
		}
	}
}

// syntax parses the files once.
func (c *parseCache) syntax(fset *token.FileSet, names []string) (out []*ast.File, directive bool, err error) {
	out = make([]*ast.File, 0, len(names))
	for _, name := range names {
		c.mu.Lock()
		f := c.files[name]
		c.mu.Unlock()
		f.once.Do(func() { f.parse(fset, name) })
		if f.err != nil {
			return nil, false, fmt.Errorf("%w: %s: %v", errStream, name, f.err) // go/packages reports it; the checker path does
		}
		out = append(out, f.file)
		directive = directive || f.directive
	}
	return out, directive, nil
}

// parse parses the file name as go/packages does.
func (f *parsedFile) parse(fset *token.FileSet, name string) {
	src, err := os.ReadFile(name)
	if err != nil {
		f.err = err
		return
	}
	f.directive = bytes.Contains(src, []byte("retrylint:"))
	f.file, f.err = parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments)
}

// parseOnce parses files without keeping them, as parse does.
func (c *parseCache) parseOnce(fset *token.FileSet, names []string) ([]*ast.File, error) {
	for _, name := range names {
		c.want(name, true)
	}
	return c.parse(fset, names)
}

// parseLight parses files without their comments nor object resolution,
// for Silence (which reads no comment), and reports whether the source
// says "retrylint:" anywhere (a directive, perhaps).
func parseLight(fset *token.FileSet, names []string) (files []*ast.File, directive bool, err error) {
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, false, err
		}
		directive = directive || bytes.Contains(src, []byte("retrylint:"))
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, false, err
		}
		files = append(files, f)
	}
	return files, directive, nil
}
