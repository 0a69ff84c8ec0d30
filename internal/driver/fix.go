package driver

import (
	"io"
	"os"
	"os/exec"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// handoverEnv marks a run that the command line started to apply fixes:
// it belongs to multichecker, whatever its flags.
const handoverEnv = "RETRYLINT_APPLY_FIXES"

// wantsFix reports whether args ask to apply fixes (-fix without -diff,
// which only prints them).
func wantsFix(args []string) bool {
	fix, diff := false, false
	for _, a := range args {
		name, value, hasValue, _ := splitFlag(a)
		on := !hasValue || value == "true" || value == "1"
		switch name {
		case "fix":
			fix = on
		case "diff":
			diff = on
		}
	}
	return fix && !diff
}

// fixThenReport applies the suggested fixes through multichecker (the
// x/tools driver that knows how, run as a child so that its os.Exit does
// not end this one), then analyzes again without -fix and reports what is
// left: the findings no fix covers. The exit status is that of the second
// run: ExitFindings while findings remain.
func fixThenReport(progname string, args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	rest := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return flagName(a) == "fix" })
	r := &runner{progname: progname, analyzers: analyzers, stdout: stdout, stderr: stderr, afterFix: true}
	if _, status, ok := r.parse(rest); !ok {
		return status // a bad flag: one line, before any file is touched
	}
	exe, err := os.Executable()
	if err != nil {
		return r.fail(ExitFailure, "-fix: %v", err)
	}
	// The child's findings go to its standard output as JSON and are
	// dropped: the second run reports those that remain. Its standard
	// error (fixes it could not apply) is passed on.
	cmd := exec.Command(exe, append([]string{"-json"}, args...)...)
	cmd.Env = append(os.Environ(), handoverEnv+"=1")
	cmd.Stdout, cmd.Stderr = io.Discard, stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return r.fail(ExitFailure, "-fix: %v", err)
		}
		// An exit status of its own (findings, a load failure) is the
		// second run's to report.
	}
	r = &runner{progname: progname, analyzers: analyzers, stdout: stdout, stderr: stderr, afterFix: true}
	return r.run(rest)
}
