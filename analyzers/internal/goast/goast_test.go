package goast

import (
	"go/token"
	"testing"
)

// TestComparePos orders positions by file name whatever the order the
// files were added to the file set (go/packages parses in parallel).
func TestComparePos(t *testing.T) {
	fset := token.NewFileSet()
	b := fset.AddFile("b.go", -1, 100) // added first: its positions are smaller
	a := fset.AddFile("a.go", -1, 100)
	pa, pb := a.Pos(10), b.Pos(50)
	if pb >= pa {
		t.Fatalf("b.go's positions should come first in the file set")
	}
	if ComparePos(fset, pa, pb) >= 0 || ComparePos(fset, pb, pa) <= 0 {
		t.Errorf("a.go:10 should come before b.go:50")
	}
	if ComparePos(fset, a.Pos(5), a.Pos(10)) >= 0 || ComparePos(fset, pa, pa) != 0 {
		t.Errorf("positions of one file should compare by offset")
	}
}
