package driver

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Output formats besides text and go vet's JSON.
const (
	formatText   = "text"
	formatJSON   = "json"
	formatSARIF  = "sarif"
	formatGitHub = "github"
)

// formatValue is the -format flag: one of the formats, checked when set.
type formatValue struct{ name *string }

func (f formatValue) String() string {
	if f.name == nil {
		return ""
	}
	return *f.name
}

func (f formatValue) Set(s string) error {
	switch s {
	case formatText, formatJSON, formatSARIF, formatGitHub:
		*f.name = s
		return nil
	}
	return fmt.Errorf("unknown format %q (text, json, sarif, github)", s)
}

// relPath returns p's file relative to the working directory when it lies
// under it, with forward slashes.
func relPath(wd, file string) string {
	if wd != "" {
		if r, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(r, "..") {
			file = r
		}
	}
	return filepath.ToSlash(file)
}

// outputPaths says how SARIF and GitHub output name files: code scanning
// and workflow annotations resolve a path from the repository's root,
// not from the module a monorepo run works in (-C services/orders).
type outputPaths struct {
	base   string // files under it are named relative to it
	prefix string // what comes before such a relative path
}

// outputPaths returns the run's: relative to the top level of the git
// work tree the working directory is in (the nearest directory above it
// with a .git, file or directory), or to the working directory when there
// is none; with -path-prefix, relative to the working directory after the
// prefix (for a checkout without .git, or a repository root of another
// tool's).
func (r *runner) outputPaths() outputPaths {
	wd, _ := os.Getwd()
	if r.prefix != "" {
		return outputPaths{base: wd, prefix: filepath.ToSlash(r.prefix)}
	}
	for dir := wd; dir != ""; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return outputPaths{base: dir}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return outputPaths{base: wd}
}

// name returns how the output names file: relative to the base, after
// the prefix; a file outside the base (in GOROOT, the module cache) by
// its absolute path.
func (o outputPaths) name(file string) string {
	rel := relPath(o.base, file)
	if o.prefix == "" || filepath.IsAbs(filepath.FromSlash(rel)) {
		return rel
	}
	return path.Join(o.prefix, rel)
}

// printGitHub writes GitHub Actions workflow commands: one annotation per
// finding, with its related locations in the message (an annotation has
// one position), each file named by paths.
func printGitHub(w io.Writer, paths outputPaths, findings []finding) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	for _, f := range findings {
		msg := f.message
		for _, r := range f.related {
			msg += fmt.Sprintf("\n%s:%d:%d: %s", paths.name(r.posn.Filename), r.posn.Line, r.posn.Column, r.message)
		}
		fmt.Fprintf(w, "::warning file=%s,line=%d,col=%d,title=%s::%s\n",
			prop.Replace(paths.name(f.posn.Filename)), f.posn.Line, f.posn.Column, prop.Replace(f.analyzer), esc.Replace(msg))
	}
}

// SARIF 2.1.0, the parts retrylint fills.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
	FullDescription  sarifMessage `json:"fullDescription"`
	HelpURI          string       `json:"helpUri,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

// sarifFix is a suggested fix: its edits, by file, as byte ranges
// replaced by new text.
type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifByteRegion    `json:"deletedRegion"`
	InsertedContent *sarifArtifactText `json:"insertedContent,omitempty"`
}

type sarifByteRegion struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

type sarifArtifactText struct {
	Text string `json:"text"`
}

type sarifLocation struct {
	ID               int                   `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion is a text region; its end column is the column after its
// last character, as SARIF and go/token both count it. Columns count
// bytes, as go/token does.
type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// printSARIF writes a SARIF 2.1.0 log: one rule per analyzer that can
// report (its doc's title and text), one result per finding with its
// region's end, related locations as relatedLocations, suggested fixes as
// fixes. Paths are named by paths (from the repository's root, uriBaseId
// %SRCROOT%), as code scanning expects.
func printSARIF(w io.Writer, paths outputPaths, analyzers []*analysis.Analyzer, findings []finding) error {
	drv := sarifDriver{Name: "retrylint", Version: Version(), InformationURI: "https://github.com/retrylint/retrylint"}
	index := make(map[string]int)
	for _, a := range analyzers {
		if a.Doc == "" || strings.HasPrefix(a.Name, "retrycontract") {
			continue // the model reports nothing
		}
		title, text, _ := strings.Cut(a.Doc, "\n")
		index[a.Name] = len(drv.Rules)
		drv.Rules = append(drv.Rules, sarifRule{
			ID:               a.Name,
			ShortDescription: sarifMessage{strings.TrimPrefix(title, a.Name+": ")},
			FullDescription:  sarifMessage{strings.TrimSpace(text)},
			HelpURI:          a.URL,
		})
	}
	artifact := func(file string) sarifArtifactLocation {
		return sarifArtifactLocation{URI: paths.name(file), URIBaseID: "%SRCROOT%"}
	}
	loc := func(p, end token.Position, id int, msg string) sarifLocation {
		region := sarifRegion{StartLine: p.Line, StartColumn: p.Column}
		if end.Filename == p.Filename && (end.Line > p.Line || end.Line == p.Line && end.Column > p.Column) {
			region.EndLine, region.EndColumn = end.Line, end.Column
		}
		l := sarifLocation{ID: id, PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: artifact(p.Filename), Region: region}}
		if msg != "" {
			l.Message = &sarifMessage{msg}
		}
		return l
	}
	results := []sarifResult{}
	for _, f := range findings {
		i, ok := index[f.analyzer]
		if !ok {
			continue
		}
		res := sarifResult{RuleID: f.analyzer, RuleIndex: i, Level: "warning", Message: sarifMessage{f.message},
			Locations: []sarifLocation{loc(f.posn, f.end, 0, "")}}
		for j, r := range f.related {
			res.RelatedLocations = append(res.RelatedLocations, loc(r.posn, r.end, j+1, r.message))
		}
		for _, fix := range f.fixes {
			sf := sarifFix{Description: sarifMessage{fix.Message}}
			byFile := make(map[string]int) // index in ArtifactChanges, in the order of the edits
			for _, e := range fix.Edits {
				k, ok := byFile[e.Filename]
				if !ok {
					k = len(sf.ArtifactChanges)
					byFile[e.Filename] = k
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifact(e.Filename)})
				}
				rep := sarifReplacement{DeletedRegion: sarifByteRegion{ByteOffset: e.Start, ByteLength: e.End - e.Start}}
				if e.New != "" {
					rep.InsertedContent = &sarifArtifactText{e.New}
				}
				sf.ArtifactChanges[k].Replacements = append(sf.ArtifactChanges[k].Replacements, rep)
			}
			res.Fixes = append(res.Fixes, sf)
		}
		results = append(results, res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: drv}, Results: results}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}
