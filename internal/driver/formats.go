package driver

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
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

// printGitHub writes GitHub Actions workflow commands: one annotation per
// finding, with its related locations in the message (an annotation has
// one position).
func printGitHub(w io.Writer, findings []finding) {
	wd, _ := os.Getwd()
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	for _, f := range findings {
		msg := f.message
		for _, r := range f.related {
			msg += fmt.Sprintf("\n%s:%d:%d: %s", relPath(wd, r.posn.Filename), r.posn.Line, r.posn.Column, r.message)
		}
		fmt.Fprintf(w, "::warning file=%s,line=%d,col=%d,title=%s::%s\n",
			prop.Replace(relPath(wd, f.posn.Filename)), f.posn.Line, f.posn.Column, prop.Replace(f.analyzer), esc.Replace(msg))
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

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// printSARIF writes a SARIF 2.1.0 log: one rule per analyzer that can
// report (its doc's title and text), one result per finding, related
// locations as relatedLocations. Paths are relative to the working
// directory (uriBaseId %SRCROOT%), as code scanning expects.
func printSARIF(w io.Writer, analyzers []*analysis.Analyzer, findings []finding) error {
	wd, _ := os.Getwd()
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
	loc := func(p token.Position, id int, msg string) sarifLocation {
		l := sarifLocation{ID: id, PhysicalLocation: sarifPhysicalLocation{
			ArtifactLocation: sarifArtifactLocation{URI: relPath(wd, p.Filename), URIBaseID: "%SRCROOT%"},
			Region:           sarifRegion{StartLine: p.Line, StartColumn: p.Column},
		}}
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
			Locations: []sarifLocation{loc(f.posn, 0, "")}}
		for j, r := range f.related {
			res.RelatedLocations = append(res.RelatedLocations, loc(r.posn, j+1, r.message))
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
