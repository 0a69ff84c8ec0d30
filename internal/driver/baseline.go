package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// A baseline is the findings a team has accepted for now: recorded once,
// then left out of every later report, so that only new findings fail the
// build. An entry is keyed by file, check and message, not by line, so
// that edits elsewhere in a file do not bring recorded findings back.
type baselineEntry struct {
	File    string `json:"file"`
	Check   string `json:"check"`
	Message string `json:"message"`
}

type baselineFile struct {
	Comment  string          `json:"comment"`
	Findings []baselineEntry `json:"findings"`
}

func entryOf(wd string, f finding) baselineEntry {
	return baselineEntry{File: relPath(wd, f.posn.Filename), Check: f.analyzer, Message: f.message}
}

// readBaseline reads a baseline file; ok is false when there is none.
func readBaseline(path string) (entries []baselineEntry, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var b baselineFile
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, false, fmt.Errorf("baseline %s: %w", path, err)
	}
	return b.Findings, true, nil
}

// writeBaseline records findings as the baseline.
func writeBaseline(path, wd string, findings []finding) error {
	b := baselineFile{
		Comment:  "retrylint baseline: these findings are not reported while they stay; delete an entry to see it again",
		Findings: []baselineEntry{},
	}
	for _, f := range findings {
		b.Findings = append(b.Findings, entryOf(wd, f))
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// newSince returns the findings the baseline does not account for. Each
// entry accounts for one finding: a second finding with the same file,
// check and message is new.
func newSince(entries []baselineEntry, wd string, findings []finding) []finding {
	left := make(map[baselineEntry]int)
	for _, e := range entries {
		left[e]++
	}
	var out []finding
	for _, f := range findings {
		if e := entryOf(wd, f); left[e] > 0 {
			left[e]--
			continue
		}
		out = append(out, f)
	}
	return out
}
