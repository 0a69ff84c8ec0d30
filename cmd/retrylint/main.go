// Command retrylint checks the retry contract of NATS JetStream consumers:
// retry intent that is flattened, Term before the DLQ write, bare Nak on
// transient paths, retryable errors acked away.
//
//	retrylint ./...
//	go vet -vettool=$(which retrylint) ./...
//
// Run 'retrylint help' for the analyzers and their flags.
package main

import (
	"os"
	"path/filepath"

	"github.com/retrylint/retrylint/analyzers/suite"
	"github.com/retrylint/retrylint/internal/driver"
)

func main() {
	progname := filepath.Base(os.Args[0])
	os.Exit(driver.Main(progname, os.Args[1:], suite.Roots(), os.Stdout, os.Stderr))
}
