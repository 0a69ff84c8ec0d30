// Package directives defines the meta check that keeps suppression
// directives honest.
//
// # Analyzer retrylint
//
// retrylint: suppression directives without a reason, or that suppress nothing; dlq-funcs entries that name nothing
//
// A suppression directive is a promise that a finding does not apply, and
// why. Two kinds of directive break it, and this check reports both at the
// directive:
//
//   - //retrylint:ignore without a reason (//retrylint:ignore, or
//     //retrylint:ignore barenak with nothing after the check names). It
//     suppresses nothing: the finding it stands over is reported, and so
//     is the directive.
//   - //retrylint:ignore that suppresses no finding of the checks it names
//     (all checks, or those listed: //retrylint:ignore barenak,poisonack
//     <reason>). The code changed or the directive is misplaced; left in,
//     it would hide the next real finding on its line. A directive naming
//     several checks counts as used when any of them was suppressed by it.
//
// It also reports, at the package clause of the package's first file, a
// dlq-funcs entry (-retrycontract.dlq-funcs, or dlq-funcs in
// .retrylint.yaml, whose file and line the message names) that belongs to
// the package but names no function or method of it: a typo there makes
// the DLQ writer unknown and silently hides findings. The command line
// checks the same before analysis and stops with exit status 2; this
// report is what go vet -vettool, golangci-lint and gopls show. Entries of
// packages that are not analyzed are not judged, nor packages with type
// errors.
//
// Not reported: //nolint directives (golangci-lint's nolintlint governs
// them; retrylint never calls them unused), directives in generated files,
// and an unused directive naming a check that did not run (every check in
// this suite runs before this one, so only a driver that leaves checks out,
// such as golangci-lint with disable, meets that case).
//
// Disable it like any check: -retrylint=false on the command line,
// disable: [retrylint] in golangci-lint.
//
// Fix: give the reason (//retrylint:ignore <check> <reason>), or remove the
// directive that suppresses nothing.
package directives

import _ "embed"

//go:embed doc.go
var docSource string
