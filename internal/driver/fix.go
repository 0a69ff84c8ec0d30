package driver

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// handoverEnv marks a run that the command line started to apply fixes:
// it belongs to multichecker, whatever its flags.
const handoverEnv = "RETRYLINT_APPLY_FIXES"

// fixThenReport applies the suggested fixes through multichecker (the
// x/tools driver that knows how, run as a child so that its os.Exit does
// not end this one), then analyzes again and reports what is left: the
// findings no fix covers, in the run's format, against its baseline. The
// exit status is that of the report: ExitFindings while findings remain.
//
// With -diff the child prints the fixes as a unified diff and changes no
// file; the diff is the output (the findings are not printed), and the
// exit status is the report's: ExitFindings when there are findings,
// since none was fixed.
//
// Every flag but -modfile works with -fix: the child is given those it
// knows (see fixArgs), the report all of them. When the report finds
// packages that fail to load, type errors or analysis failures, it says
// so in its own lines and the child's standard error, which repeats them
// raw, is dropped; otherwise the child's standard error (fixes it could
// not apply) is passed on.
func (r *runner) fixThenReport(cfg *packages.Config, patterns, flags []string) int {
	args, goflags, status, ok := r.fixArgs(flags)
	if !ok {
		return status
	}
	exe, err := os.Executable()
	if err != nil {
		return r.failEmpty(ExitFailure, "-fix: %v", err)
	}
	// The child works where this run works (-C is done), on the same
	// patterns.
	cmd := exec.Command(exe, append(append(args, "--"), patterns...)...)
	cmd.Env = append(os.Environ(), handoverEnv+"=1")
	if goflags != "" {
		cmd.Env = append(cmd.Env, "GOFLAGS="+goflags)
	}
	var childOut, childErr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &childOut, &childErr
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			return r.failEmpty(ExitFailure, "-fix: %v", err)
		}
		code = ee.ExitCode()
	}
	if code != ExitClean && code != ExitFailure {
		// A crash, or a flag the child refused: nothing says which fixes
		// were applied.
		line, _, _ := strings.Cut(strings.TrimSpace(childErr.String()), "\n")
		return r.failEmpty(ExitFailure, "-fix: applying the fixes failed (exit status %d): %s", code, line)
	}
	r.afterFix = !r.diff
	r.fixLeft = code == ExitFailure
	stdout, stderr := r.stdout, r.stderr
	var out, errOut bytes.Buffer
	r.stdout, r.stderr = &out, &errOut
	if r.diff {
		r.stdout = io.Discard // the diff is the output
	}
	status = r.analyze(cfg, patterns, flags)
	r.stdout, r.stderr = stdout, stderr
	if r.diff {
		stdout.Write(childOut.Bytes())
	}
	if status != ExitFailure {
		stderr.Write(childErr.Bytes())
	}
	stdout.Write(out.Bytes())
	stderr.Write(errOut.Bytes())
	if r.diff && status == ExitFindings {
		fmt.Fprintf(stderr, "%s: findings remain: -diff applies no fix (-fix without -diff applies those shown)\n", r.progname)
	}
	return status
}

// fixArgs returns the arguments of the child that applies the fixes
// (before the patterns), and the GOFLAGS it needs, from the run's flags
// (the configuration file's included). multichecker knows the analyzers'
// flags and -test, -fix and -diff; of the command line's own flags,
// -json, -format, -baseline, -path-prefix, -cache and -c are the report's and are left
// out, -C is done (the child works in this run's directory), -tags
// reaches the go command through GOFLAGS (where a space cannot be
// written: such a value is refused), and the profile files are named by
// their absolute paths, as this run resolved them. -modfile is refused:
// in GOFLAGS it breaks go/packages, whose first go command runs outside
// module mode, and multichecker takes no build flags.
func (r *runner) fixArgs(flags []string) (args []string, goflags string, status int, ok bool) {
	args = []string{"-fix"}
	if r.diff {
		args = append(args, "-diff")
	}
	var build []string
	profiles := contract.Name + "." + contract.FlagProfiles
	for i := 0; i < len(flags); i++ {
		name, value, hasValue, isFlag := splitFlag(flags[i])
		if !isFlag || name == "" {
			break // "--"
		}
		f := r.flagSet.Lookup(name)
		isBool := false
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok {
			isBool = b.IsBoolFlag()
		}
		if !hasValue && !isBool && i+1 < len(flags) {
			i++
			value, hasValue = flags[i], true
		}
		switch name {
		case "json", "format", "baseline", "path-prefix", "cache", "c", "C", "fix", "diff", profiles:
			continue
		case "tags":
			if strings.ContainsAny(value, " \t\n") {
				return nil, "", r.fail(ExitUsage, "-fix passes -tags to the go command in GOFLAGS, which cannot hold a space: %q (separate tags with commas)", value), false
			}
			build = append(build, "-tags="+value)
			continue
		case "modfile":
			return nil, "", r.fail(ExitUsage, "-fix does not take -modfile: the x/tools driver that applies the fixes loads with the go.mod in place (go/packages refuses -modfile in GOFLAGS)"), false
		}
		if hasValue {
			args = append(args, "-"+name+"="+value)
		} else {
			args = append(args, "-"+name)
		}
	}
	if r.profiles != nil && r.profiles.set {
		args = append(args, "-"+profiles+"="+strings.Join(r.profiles.files, ","))
	}
	if len(build) > 0 {
		env, err := r.goEnv()
		if err != nil {
			return nil, "", r.failEmpty(ExitFailure, "-fix: go env: %v", err), false
		}
		goflags = strings.TrimSpace(env["GOFLAGS"] + " " + strings.Join(build, " "))
	}
	return args, goflags, 0, true
}
