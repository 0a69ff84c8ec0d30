package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// checkBaseline reads the -baseline file, or when there is none makes
// sure that one can be recorded there, before anything is loaded: a
// baseline that cannot serve (unreadable, not a baseline, in a directory
// that does not exist or takes no new file) is one line and ExitUsage,
// rather than a report after the whole analysis.
func (r *runner) checkBaseline() (int, bool) {
	if r.baseline == "" {
		return 0, true
	}
	entries, ok, err := readBaseline(r.baseline)
	switch {
	case err != nil:
		return r.fail(ExitUsage, "-baseline: %v", err), false
	case ok:
		r.baselineEntries = entries
		return 0, true
	}
	dir := filepath.Dir(r.baseline)
	f, err := os.CreateTemp(dir, ".retrylint-baseline-*")
	if err != nil {
		reason := "it takes no new file"
		if errors.Is(err, fs.ErrNotExist) {
			reason = "no such directory"
		}
		return r.fail(ExitUsage, "-baseline: cannot record %s: %s (%s)", r.baseline, reason, dir), false
	}
	f.Close()
	os.Remove(f.Name())
	r.recordBaseline = true
	return 0, true
}

// readBaseline reads a baseline file; ok is false when there is none. A
// file that is not a JSON object with a findings list, as writeBaseline
// writes it, is an error.
func readBaseline(path string) (entries []baselineEntry, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	notBaseline := func(why string) error {
		return fmt.Errorf("%s is not a baseline: %s", path, why)
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false, notBaseline("want a JSON object with a findings list, as retrylint records it")
	}
	var b struct {
		Comment  string           `json:"comment"`
		Findings *[]baselineEntry `json:"findings"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, false, notBaseline(err.Error())
	}
	if dec.More() {
		return nil, false, notBaseline("text after the JSON object")
	}
	if b.Findings == nil {
		return nil, false, notBaseline("no findings list")
	}
	return *b.Findings, true, nil
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
