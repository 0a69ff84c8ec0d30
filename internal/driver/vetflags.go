package driver

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
)

// quietFlagErrors makes a bad option under go vet -vettool cost one line
// per go vet run instead of the usage text once per unit: go vet passes
// the options to the run of every package, dependencies included
// (thousands of runs for a program on the standard library), and each
// would print the error and the usage of every flag.
//
// The usage goes. The error line is printed by the first unit only: go
// vet writes each unit's configuration in its own work directory
// ($WORK/b001/vet.cfg), which lives as long as the go vet run, so a
// marker file created there exclusively elects the unit that speaks; it
// fails (exit 2, so go vet fails). The others exit 0 silently: a failing
// unit makes go vet print a line of its own ("pkg: retrylint: exit status
// 2"), thousands of them. Where the configuration is not in such a
// layout, every unit prints its line and fails.
func quietFlagErrors(cfgFile string, stderr io.Writer) {
	w := newFirstUnitWriter(cfgFile, stderr)
	flag.CommandLine.SetOutput(w)
	flag.Usage = func() { // called after the error is written, before exit 2
		if w.decided && !w.speak {
			os.Exit(0)
		}
	}
}

// vetUsageError prints line, a usage error found before the flags are
// parsed (a bad configuration file), as quietFlagErrors prints a bad
// flag: from the first unit of the go vet run only, which fails with
// ExitUsage; the others exit silently with ExitClean.
func vetUsageError(cfgFile string, stderr io.Writer, line string) int {
	w := newFirstUnitWriter(cfgFile, stderr)
	io.WriteString(w, line)
	if w.speak {
		return ExitUsage
	}
	return ExitClean
}

// newFirstUnitWriter returns the writer that speaks for the first unit of
// the go vet run whose unit configuration is cfgFile. One marker serves
// every usage error: a run prints at most one.
func newFirstUnitWriter(cfgFile string, stderr io.Writer) *firstUnitWriter {
	return &firstUnitWriter{
		marker: filepath.Join(filepath.Dir(filepath.Dir(cfgFile)), "retrylint-usage-error"),
		w:      stderr,
	}
}

// firstUnitWriter forwards writes when this process is the first of the
// go vet run to write, and drops them otherwise.
type firstUnitWriter struct {
	marker  string
	decided bool
	speak   bool
	w       io.Writer
}

func (f *firstUnitWriter) Write(p []byte) (int, error) {
	if !f.decided {
		f.decided = true
		file, err := os.OpenFile(f.marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		switch {
		case err == nil:
			file.Close()
			f.speak = true
		case errors.Is(err, os.ErrExist):
			f.speak = false
		default:
			f.speak = true // no work directory to share: every unit speaks
		}
	}
	if !f.speak {
		return len(p), nil
	}
	return f.w.Write(p)
}
