package driver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// pkgResult is what the checks reported on one root package, with every
// position resolved: what the package cache stores and every output
// format prints from, whether the package was analyzed in this run or
// replayed.
type pkgResult struct {
	ID       string
	Diags    []diag // by analyzer in the order of the roots, then as reported
	Skeleton string // the sum of the package's skeleton (cutoff.go), "" if unknown or replayed
}

// diag is one diagnostic with resolved positions. End is the position of
// the diagnostic's End, or of its Pos when End is not set, as go vet's
// JSON prints it.
type diag struct {
	Analyzer string
	Category string `json:",omitempty"`
	Message  string
	Posn     token.Position
	End      token.Position
	Fixes    []jsonSuggestedFix `json:",omitempty"`
	Related  []relatedDiag      `json:",omitempty"`
}

type relatedDiag struct {
	Posn    token.Position
	End     token.Position
	Message string
}

// resultsOf returns the diagnostics of the graph's root actions by
// package, sorted by package ID (a package's test variants follow it).
func resultsOf(graph *checker.Graph) []pkgResult {
	byID := make(map[string]*pkgResult)
	for _, act := range graph.Roots {
		res := byID[act.Package.ID]
		if res == nil {
			res = &pkgResult{ID: act.Package.ID, Skeleton: skeletonSum(act.Package)}
			byID[act.Package.ID] = res
		}
		res.Diags = append(res.Diags, diagsOf(act.Analyzer.Name, act.Package.Fset, act.Diagnostics)...)
	}
	results := make([]pkgResult, 0, len(byID))
	for _, res := range byID {
		results = append(results, *res)
	}
	sortResults(results)
	return results
}

// diagsOf resolves the positions of an analyzer's diagnostics.
func diagsOf(analyzer string, fset *token.FileSet, diags []analysis.Diagnostic) []diag {
	var out []diag
	for _, d := range diags {
		rd := diag{
			Analyzer: analyzer,
			Category: d.Category,
			Message:  d.Message,
			Posn:     fset.Position(d.Pos),
			End:      fset.Position(cmp.Or(d.End, d.Pos)),
		}
		for _, fix := range d.SuggestedFixes {
			jf := jsonSuggestedFix{Message: fix.Message}
			for _, e := range fix.TextEdits {
				jf.Edits = append(jf.Edits, jsonTextEdit{
					Filename: fset.Position(e.Pos).Filename,
					Start:    fset.Position(e.Pos).Offset,
					End:      fset.Position(e.End).Offset,
					New:      string(e.NewText),
				})
			}
			rd.Fixes = append(rd.Fixes, jf)
		}
		for _, rel := range d.Related {
			rd.Related = append(rd.Related, relatedDiag{
				Posn:    fset.Position(rel.Pos),
				End:     fset.Position(cmp.Or(rel.End, rel.Pos)),
				Message: rel.Message,
			})
		}
		out = append(out, rd)
	}
	return out
}

func sortResults(results []pkgResult) {
	slices.SortFunc(results, func(a, b pkgResult) int { return strings.Compare(a.ID, b.ID) })
}

// failuresOf returns the analysis failures of the graph, one line each,
// sorted, without the failures that only repeat a prerequisite's.
func failuresOf(graph *checker.Graph) []string {
	seen := make(map[string]bool)
	var failures []string
	for act := range graph.All() {
		if act.Err == nil || strings.HasPrefix(act.Err.Error(), "failed prerequisites:") {
			continue
		}
		msg := fmt.Sprintf("%s: %v", act.Analyzer.Name, act.Err)
		if !seen[msg] {
			seen[msg] = true
			failures = append(failures, msg)
		}
	}
	slices.Sort(failures)
	return failures
}

// findingsOf deduplicates the diagnostics across a package and its test
// variants (the first, in package ID order, is kept) and sorts them by
// position, then analyzer and message.
func findingsOf(results []pkgResult) []finding {
	var findings []finding
	seen := make(map[string]bool)
	for _, res := range results {
		for _, d := range res.Diags {
			f := finding{analyzer: d.Analyzer, posn: d.Posn, end: d.End, message: d.Message, fixes: d.Fixes}
			for _, rel := range d.Related {
				f.related = append(f.related, relatedFinding{posn: rel.Posn, end: rel.End, message: rel.Message})
			}
			key := fmt.Sprintf("%s|%s|%s", f.posn, f.analyzer, f.message)
			if !seen[key] {
				seen[key] = true
				findings = append(findings, f)
			}
		}
	}
	slices.SortFunc(findings, func(a, b finding) int {
		if c := strings.Compare(a.posn.Filename, b.posn.Filename); c != 0 {
			return c
		}
		if a.posn.Line != b.posn.Line {
			return a.posn.Line - b.posn.Line
		}
		if a.posn.Column != b.posn.Column {
			return a.posn.Column - b.posn.Column
		}
		return strings.Compare(a.analyzer+a.message, b.analyzer+b.message)
	})
	return findings
}

// The JSON shape of go vet's -json output, as x/tools' drivers print it
// (checker.Graph.PrintJSON): package ID, then analyzer, then the
// diagnostics. TestJSONFromResults holds the two byte-identical.
type (
	jsonDiagnostic struct {
		Category       string             `json:"category,omitempty"`
		Posn           string             `json:"posn"`
		End            string             `json:"end"`
		Message        string             `json:"message"`
		SuggestedFixes []jsonSuggestedFix `json:"suggested_fixes,omitempty"`
		Related        []jsonRelated      `json:"related,omitempty"`
	}
	jsonSuggestedFix struct {
		Message string         `json:"message"`
		Edits   []jsonTextEdit `json:"edits"`
	}
	jsonTextEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonRelated struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
)

// printJSON prints results as go vet's -json does. It serves runs without
// analysis failures (those print the graph's own JSON, errors included).
func printJSON(w io.Writer, results []pkgResult) error {
	tree := make(map[string]map[string][]jsonDiagnostic)
	for _, res := range results {
		for _, d := range res.Diags {
			jd := jsonDiagnostic{
				Category:       d.Category,
				Posn:           d.Posn.String(),
				End:            d.End.String(),
				Message:        d.Message,
				SuggestedFixes: d.Fixes,
			}
			for _, rel := range d.Related {
				jd.Related = append(jd.Related, jsonRelated{Posn: rel.Posn.String(), End: rel.End.String(), Message: rel.Message})
			}
			if tree[res.ID] == nil {
				tree[res.ID] = make(map[string][]jsonDiagnostic)
			}
			tree[res.ID][d.Analyzer] = append(tree[res.ID][d.Analyzer], jd)
		}
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
