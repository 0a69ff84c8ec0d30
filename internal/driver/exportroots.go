package driver

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"slices"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// The export path's loading (analyzeFromExport), without go/packages: the
// missed packages' metadata is the package cache's listing; one go list
// -export, without -deps, gives the export files of their direct imports
// and of the dependencies whose facts are replayed; the missed packages
// are parsed and type-checked here, as go/packages' loadPackage does,
// against those export files.

// exportMode lists packages with their export files, and nothing else.
const exportMode = packages.NeedName | packages.NeedExportFile

// listExports sets the export file of every package of listed that a
// missed package imports and that is not missed itself, and of every
// dependency with facts (deps) to replay.
func (r *runner) listExports(cfg *packages.Config, misses []*packages.Package, want map[string]bool, listed map[string]*packages.Package, deps map[string]*factEntry) error {
	need := make(map[string]*packages.Package)
	for _, p := range misses {
		for _, imp := range p.Imports {
			if !want[imp.ID] && imp.PkgPath != "unsafe" {
				need[imp.ID] = imp
			}
		}
	}
	for id, e := range deps {
		if !e.empty() && listed[id].PkgPath != "unsafe" {
			need[id] = listed[id]
		}
	}
	var paths []string
	for id, p := range need {
		if id != p.PkgPath {
			return fmt.Errorf("%s: a test variant's export data is not listed by path", id)
		}
		paths = append(paths, p.PkgPath)
	}
	slices.Sort(paths)
	exportCfg := *cfg
	exportCfg.Mode, exportCfg.Tests = exportMode, false // the packages, not their tests
	exported, err := packages.Load(&exportCfg, paths...)
	if err != nil {
		return err
	}
	files := make(map[string]string, len(exported))
	for _, p := range exported {
		if len(p.Errors) > 0 || p.ExportFile == "" {
			return fmt.Errorf("%s: no export data", p.ID)
		}
		files[p.PkgPath] = p.ExportFile
	}
	for _, p := range need {
		if p.ExportFile = files[p.PkgPath]; p.ExportFile == "" {
			return fmt.Errorf("%s: not listed", p.ID)
		}
	}
	return nil
}

// checkAgainstExports parses and type-checks the missed packages, each
// after those it imports, against the export data of their other
// imports, and returns them loaded as go/packages' LoadSyntax would; an
// error (a type error included) ends the export path.
func (r *runner) checkAgainstExports(misses []*packages.Package, want map[string]bool, listed map[string]*packages.Package) ([]*packages.Package, error) {
	env, err := r.goEnv()
	if err != nil {
		return nil, err
	}
	sizes := types.SizesFor("gc", env["GOARCH"])
	if sizes == nil {
		return nil, fmt.Errorf("no sizes for GOARCH %q", env["GOARCH"])
	}
	fset := token.NewFileSet()
	view := make(map[string]*types.Package) // every package read from export data, by path
	checked := make(map[string]*packages.Package)
	var roots []*packages.Package
	for _, id := range rootOrder(misses, listed) {
		p := *listed[id]
		p.Fset, p.TypesSizes, p.TypesInfo = fset, sizes, newTypesInfo()
		if p.Syntax, err = (&parseCache{files: make(map[string]*parsedFile)}).parseOnce(fset, p.CompiledGoFiles); err != nil {
			return nil, err
		}
		var typeErr error
		tc := typesConfig(&p, func(imp *packages.Package) (*types.Package, error) {
			if want[imp.ID] {
				return checked[imp.ID].Types, nil
			}
			return readExport(fset, view, imp)
		}, func(err error) { typeErr = cmp.Or(typeErr, err) })
		p.Types = types.NewPackage(p.PkgPath, p.Name)
		if err := types.NewChecker(tc, fset, p.Types, p.TypesInfo).Files(p.Syntax); err != nil || typeErr != nil {
			return nil, fmt.Errorf("%s: %v", p.ID, cmp.Or(typeErr, err))
		}
		checked[id] = &p
		if want[id] {
			roots = append(roots, &p)
		}
	}
	return roots, nil
}

// readExport reads dep's export data into view, unless view holds it
// complete already.
func readExport(fset *token.FileSet, view map[string]*types.Package, dep *packages.Package) (*types.Package, error) {
	if tp := view[dep.PkgPath]; tp != nil && tp.Complete() {
		return tp, nil
	}
	if dep.ExportFile == "" {
		return nil, fmt.Errorf("%s: no export data", dep.ID)
	}
	f, err := os.Open(dep.ExportFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dep.ID, err)
	}
	tp, err := gcexportdata.Read(rd, fset, view, dep.PkgPath)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dep.ID, err)
	}
	view[dep.PkgPath] = tp
	return tp, nil
}
