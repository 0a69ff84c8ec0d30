package driver

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

// TestParseCacheShared: a file that a package parsed whole lists serves
// a dependency judged silent with the same syntax, parsed once; a file
// only such dependencies list is not parsed whole for them; and a file
// is forgotten once every package that lists it took or released it.
func TestParseCacheShared(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	fmtGo := write("fmt.go", "package fmt\n\n// Println prints.\nfunc Println() {}\n")
	depGo := write("dep.go", "package dep\n\nfunc F() {}\n")
	directive := write("directive.go", "package d\n\n//retrylint:dlq\nfunc G() {}\n")
	fset := token.NewFileSet()
	c := &parseCache{files: make(map[string]*parsedFile)}
	c.want(fmtGo, true)      // fmt, a root
	c.want(fmtGo, false)     // fmt [strings.test], a dependency
	c.want(depGo, false)     // a dependency no whole package lists
	c.want(directive, true)  // d, a root
	c.want(directive, false) // d [x.test]

	shared, dir1, ok := c.shared(fset, []string{fmtGo})
	if !ok || dir1 || len(shared) != 1 || len(shared[0].Comments) == 0 {
		t.Fatalf("shared fmt.go: ok %v, directive %v, %d files", ok, dir1, len(shared))
	}
	if _, _, ok := c.shared(fset, []string{fmtGo, depGo}); ok {
		t.Error("dep.go, which no package parses whole, was shared")
	}
	if _, d, ok := c.shared(fset, []string{directive}); !ok || !d {
		t.Errorf("directive.go: ok %v, directive %v", ok, d)
	}
	c.release([]string{fmtGo}) // the dependency was silent
	whole, err := c.parse(fset, []string{fmtGo})
	if err != nil || whole[0] != shared[0] {
		t.Errorf("fmt parsed again (%v): the dependency's syntax is not the root's", err)
	}
	if _, ok := c.files[fmtGo]; ok {
		t.Error("fmt.go kept after every package that lists it took it")
	}
	if _, ok := c.files[depGo]; !ok {
		t.Error("dep.go forgotten before its package took it")
	}
}
