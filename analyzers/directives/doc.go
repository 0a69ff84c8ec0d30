// Package directives defines the meta check that keeps suppression
// directives honest.
//
// # Analyzer retrylint
//
// retrylint: directives that suppress nothing; dlq-funcs typos
//
// A suppression directive is a promise that a finding does not apply, and
// why. The directives are
//
//	//retrylint:ignore <reason>                         every check, on its line
//	//retrylint:ignore <check>[,<check>] <reason>       the checks named, on its line
//	//retrylint:file-ignore <check>[,<check>] <reason>  the checks named, in its whole file
//	//nolint, //nolint:retrylint, //nolint:<check>      golangci-lint's forms
//
// where a line directive covers its own line or, alone on a line, the
// next one. Three kinds of directive break the promise, and this check
// reports each at the directive:
//
//   - A directive without a reason (//retrylint:ignore, or
//     //retrylint:ignore barenak with nothing after the check names), or a
//     //retrylint:file-ignore without check names. It suppresses nothing:
//     the finding it stands over is reported, and so is the directive.
//   - A directive whose check list names something that is no check: a
//     typo (//retrylint:ignore barenack,ackretryable <reason>,
//     //nolint:poisonak). It suppresses nothing (a misspelled list must
//     not become a reason that silences every check), and the message
//     names the unknown names, the check each may have meant, and the
//     checks.
//   - A //retrylint:ignore or //retrylint:file-ignore that suppresses no
//     finding of the checks it names (all checks, or those listed) on its
//     line, or in its file. The code changed or the directive is
//     misplaced; left in, it would hide the next real finding there. A
//     directive naming several checks counts as used when any of them was
//     suppressed by it.
//
// What reads as a check list: the first word after //retrylint:ignore is a check list, or the start
// of the reason. It is read as a list, fail closed, when, without one
// final comma, it is
//
//   - two or more names joined by commas, each a letter followed by
//     letters, digits, - or _ (barenak,poisonack; barenack,ackretryable;
//     foo,bar); or
//   - a check's name or a misspelling of one, or a comma-joined word one
//     of whose parts is: ignoring case, within edit distance 1 (2 for the
//     names of 12 letters or more), a transposition of two neighbouring
//     letters counting 1 (barenak; barenack, Barenak, bareank, poisonak,
//     dlq-unchecked, ackretriable, barenak:).
//
// A word ending with a comma continues the list into the next word when
// that word is one of these too (barenak, poisonack <reason>). Every name
// in the list that is not a check is unknown. Anything else is the
// reason, for every check: //retrylint:ignore retries are fine here,
// //retrylint:ignore ok, the caller paces it, //retrylint:ignore 1,000
// deliveries at most. No word of the Go distribution's sources and
// documents is that near a check name (the nearest: break and arena, 2
// from barenak). //retrylint:file-ignore always takes its first word as
// its check list. A //nolint list names other linters too: of its names,
// those that are a misspelling of a check or of retrylint (by the same
// distances) are unknown, and no golangci-lint linter's name is one.
//
// Path exclusions: .retrylint.yaml's exclude (and -retrycontract.exclude) names files no
// check reports on, and neither does this one: a directive there is not
// judged. A check's own exclude (barenak: {exclude: [...]}) keeps that
// check's findings out, so a directive for that check in such a file
// suppresses nothing and is reported unused. An exclusion whose path up
// to its first wildcard does not exist is an error of the configuration
// (it excludes nothing).
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
// Not reported: //nolint directives that name only checks and other
// linters (golangci-lint's nolintlint governs them; retrylint never calls
// them unused), unknown names in //nolint under golangci-lint (which
// applies //nolint itself), directives in generated files, and an unused
// directive naming a check that did not run (every check in this suite
// runs before this one, so only a driver that leaves checks out, such as
// golangci-lint with disable, meets that case).
//
// Disable it like any check: -retrylint=false on the command line,
// disable: [retrylint] in golangci-lint.
//
// Fix: give the reason (//retrylint:ignore <check> <reason>), correct the
// check's name, or remove the directive that suppresses nothing.
package directives

import _ "embed"

//go:embed doc.go
var docSource string
