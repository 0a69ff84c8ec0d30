package driver

import (
	"bytes"
	"cmp"
	"encoding/gob"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"io"
	"reflect"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/types/objectpath"
)

// The package cache also keeps each package's facts, so that a run after
// an edit can analyze the edited packages against their dependencies'
// export data instead of loading and analyzing the dependencies from
// source (incremental.go).
//
// A package's entry holds the facts its analyzers exported that the
// checker (go/analysis/checker) lets its importers see: facts on the
// objects exportedFrom accepts, each named by its object path
// (objectpath), and its package facts, gob-encoded as the analysis API
// requires facts to be. An object the checker lets through but that no
// object path names (a local variable, a method of a type declared in a
// function) makes the entry opaque: its dependents are then analyzed
// from source, as before, rather than without that fact.

// factEntry is what the package cache holds of a package's facts.
type factEntry struct {
	ID     string
	Opaque bool   // a visible fact is on an object no path names
	Facts  []byte // gob of []factRecord
}

// factRecord is one fact of a package: on an object of the package (by
// path), or on the package itself.
type factRecord struct {
	Analyzer string
	Package  bool
	Path     objectpath.Path
	Object   objectSketch
	Fact     analysis.Fact
}

// objectSketch is what a fact's importers can learn of its object without
// finding it: its kind and name, and a method's receiver type. A
// dependency's export data holds only the objects some importer can
// reach; the checker still lets its importers see facts on the others
// (a method of an unexported type no exported API returns), which can
// then count (how many producers a dependency has) or be matched by name,
// never by identity. Such a fact is given to the importer on an object
// sketched from this: same kind, name, package and full name.
type objectSketch struct {
	Kind byte // 'f' function, 'm' method, 'v' variable, 'F' field, 't' type, 'c' constant
	Name string
	Recv string // a method's receiver type name
	Ptr  bool   // a method's receiver is a pointer
}

// sketchOf returns obj's sketch.
func sketchOf(obj types.Object) objectSketch {
	s := objectSketch{Name: obj.Name()}
	switch obj := obj.(type) {
	case *types.Func:
		s.Kind = 'f'
		if recv := obj.Signature().Recv(); recv != nil {
			s.Kind = 'm'
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				s.Ptr, t = true, p.Elem()
			}
			if n, ok := types.Unalias(t).(interface{ Obj() *types.TypeName }); ok {
				s.Recv = n.Obj().Name()
			}
		}
	case *types.Var:
		s.Kind = 'v'
		if obj.IsField() {
			s.Kind = 'F'
		}
	case *types.TypeName:
		s.Kind = 't'
	case *types.Const:
		s.Kind = 'c'
	}
	return s
}

// visibleBeyond reports whether the checker lets a fact on an object of
// this kind through a package other than the object's own: what an
// indirect importer sees (the second clause of each case of
// exportedFrom).
func (s objectSketch) visibleBeyond() bool {
	return s.Kind == 'm' || s.Kind == 'F' || s.Kind == 't' || s.Kind == 'c'
}

// object returns an object of pkg drawn from the sketch, in no scope.
func (s objectSketch) object(pkg *types.Package) types.Object {
	switch s.Kind {
	case 'm':
		tn := types.NewTypeName(token.NoPos, pkg, s.Recv, nil)
		var recv types.Type = types.NewNamed(tn, types.NewStruct(nil, nil), nil)
		if s.Ptr {
			recv = types.NewPointer(recv)
		}
		sig := types.NewSignatureType(types.NewParam(token.NoPos, pkg, "", recv), nil, nil, nil, nil, false)
		return types.NewFunc(token.NoPos, pkg, s.Name, sig)
	case 'f':
		return types.NewFunc(token.NoPos, pkg, s.Name, types.NewSignatureType(nil, nil, nil, nil, nil, false))
	case 'v':
		return types.NewVar(token.NoPos, pkg, s.Name, types.Typ[types.Invalid])
	case 'F':
		return types.NewField(token.NoPos, pkg, s.Name, types.Typ[types.Invalid], false)
	case 't':
		tn := types.NewTypeName(token.NoPos, pkg, s.Name, nil)
		types.NewNamed(tn, types.NewStruct(nil, nil), nil)
		return tn
	case 'c':
		return types.NewConst(token.NoPos, pkg, s.Name, types.Typ[types.Invalid], constant.MakeUnknown())
	}
	return nil
}

// registerFacts registers the fact types of the analyzers with gob, once
// per type.
func registerFacts(analyzers []*analysis.Analyzer) {
	for _, a := range requiredClosure(analyzers) {
		for _, f := range a.FactTypes {
			gob.Register(f)
		}
	}
}

// pinFactTypes registers the fact types of the analyzers and gives gob's
// type numbers to the fact records and to every fact type, in the order
// of their names, before a process encodes or decodes any fact: gob
// numbers types in the order a process first meets them and writes the
// numbers into the bytes, which interface sums hash (cutoff.go). With
// the numbers pinned, the same facts encode to the same bytes in every
// run (no fact type holds a map or an interface).
func pinFactTypes(analyzers []*analysis.Analyzer) {
	pinOnce.Do(func() {
		var facts []analysis.Fact
		for _, a := range requiredClosure(analyzers) {
			facts = append(facts, a.FactTypes...)
		}
		slices.SortFunc(facts, func(a, b analysis.Fact) int {
			return cmp.Compare(reflect.TypeOf(a).String(), reflect.TypeOf(b).String())
		})
		for _, f := range facts {
			gob.Register(f)
			gob.NewEncoder(io.Discard).Encode([]factRecord{{Fact: f}})
		}
	})
}

var pinOnce sync.Once

// requiredClosure returns the analyzers and every analyzer they require,
// each after those it requires.
func requiredClosure(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	var order []*analysis.Analyzer
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		order = append(order, a)
	}
	for _, a := range analyzers {
		visit(a)
	}
	return order
}

// ownFacts returns the facts of the graph's actions by package ID, each
// package's own, as its entry holds them.
func ownFacts(graph *checker.Graph) map[string]*factEntry {
	records := make(map[string][]factRecord)
	opaque := make(map[string]bool)
	registered := make(map[*analysis.Analyzer]bool)
	for act := range graph.All() {
		if len(act.Analyzer.FactTypes) == 0 || act.Package.Types == nil {
			continue
		}
		if !registered[act.Analyzer] {
			registered[act.Analyzer] = true
			registerFacts([]*analysis.Analyzer{act.Analyzer})
		}
		id, pkg := act.Package.ID, act.Package.Types
		if _, ok := records[id]; !ok {
			records[id] = nil
		}
		recs, opq := ownRecords(act.Analyzer.Name, pkg, act.AllObjectFacts(), act.AllPackageFacts())
		records[id] = append(records[id], recs...)
		opaque[id] = opaque[id] || opq
	}
	entries := make(map[string]*factEntry, len(records))
	for id, recs := range records {
		e, err := newFactEntry(id, recs, opaque[id])
		if err == nil {
			entries[id] = e
		}
	}
	return entries
}

// ownRecords returns the records of an analyzer's facts on pkg and its
// objects, among all it sees, that its importers can see (exportedFrom);
// opaque is set when one of them is on an object no path names.
func ownRecords(analyzer string, pkg *types.Package, objs []analysis.ObjectFact, pkgs []analysis.PackageFact) (recs []factRecord, opaque bool) {
	for _, of := range objs {
		if of.Object.Pkg() != pkg || !exportedFrom(of.Object, pkg) {
			continue
		}
		path, err := objectpath.For(of.Object)
		if err != nil {
			opaque = true
			continue
		}
		recs = append(recs, factRecord{Analyzer: analyzer, Path: path, Object: sketchOf(of.Object), Fact: of.Fact})
	}
	for _, pf := range pkgs {
		if pf.Package == pkg {
			recs = append(recs, factRecord{Analyzer: analyzer, Package: true, Fact: pf.Fact})
		}
	}
	return recs, opaque
}

// newFactEntry encodes a package's facts, in a deterministic order.
func newFactEntry(id string, recs []factRecord, opaque bool) (*factEntry, error) {
	slices.SortFunc(recs, func(a, b factRecord) int {
		return cmp.Or(cmp.Compare(a.Analyzer, b.Analyzer), cmp.Compare(a.Path, b.Path),
			cmp.Compare(reflect.TypeOf(a.Fact).String(), reflect.TypeOf(b.Fact).String()))
	})
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(recs); err != nil {
		return nil, err
	}
	return &factEntry{ID: id, Opaque: opaque, Facts: buf.Bytes()}, nil
}

// empty reports whether the entry holds no fact.
func (e *factEntry) empty() bool {
	recs, err := e.records()
	return err == nil && len(recs) == 0
}

// records decodes the entry's facts.
func (e *factEntry) records() ([]factRecord, error) {
	var recs []factRecord
	if err := gob.NewDecoder(bytes.NewReader(e.Facts)).Decode(&recs); err != nil {
		return nil, fmt.Errorf("facts of %s: %v", e.ID, err)
	}
	return recs, nil
}

// exportedFrom is go/analysis/checker's filter of the facts an importer
// inherits from pkg (x/tools v0.52.0, checker.go): kept as it is, since
// the facts an analysis sees must be the same whichever way the
// dependency was loaded. Past a direct importer only the second clause
// of each case can hold (visibleBeyond).
func exportedFrom(obj types.Object, pkg *types.Package) bool {
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Exported() && obj.Pkg() == pkg || obj.Signature().Recv() != nil
	case *types.Var:
		return obj.IsField() || obj.Pkg() == pkg
	case *types.TypeName, *types.Const:
		return true
	}
	return false
}
