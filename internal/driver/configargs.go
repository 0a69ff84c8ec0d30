package driver

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/config"
)

// withConfig puts the options of the configuration file (-config PATH, or
// .retrylint.yaml found from the directory the run works in, see
// config.Find) before args, so that the command line's own flags win, and
// returns the file it read. The go vet protocol's questions (-flags, -V)
// and requests for help (-h, help) get args as they are: a broken file
// does not hide the flags. A bad file is one line on stderr and ExitUsage;
// under go vet, one line per go vet run (see quietFlagErrors).
func withConfig(progname string, args []string, analyzers []*analysis.Analyzer, stderr io.Writer) ([]string, *configFile, int, bool) {
	if len(args) > 0 && args[0] == "help" {
		return args, nil, 0, true
	}
	for _, a := range args {
		switch flagName(a) {
		case "flags", "V", "h", "help":
			return args, nil, 0, true
		}
	}
	path, dir := "", "."
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue, isFlag := splitFlag(a)
		if !isFlag || a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		switch name {
		case "config", "C":
			if !hasValue {
				if i+1 == len(args) {
					fmt.Fprintf(stderr, "%s: flag needs an argument: -%s\n", progname, name)
					return nil, nil, ExitUsage, false
				}
				i++
				value = args[i]
			}
			if name == "config" {
				path = value
				continue // the driver has no -config flag of its own
			}
			dir = value
			rest = append(rest, "-C="+value)
			continue
		}
		rest = append(rest, a)
	}
	if path == "" {
		path = config.Find(dir)
		if path == "" {
			return rest, nil, 0, true
		}
	}
	data, err := os.ReadFile(path)
	var extra []string
	if err == nil {
		extra, err = config.Parse(path, data, analyzers)
	}
	if err != nil {
		line := fmt.Sprintf("%s: config: %v\n", progname, err)
		if vetUnit(args) {
			return nil, nil, vetUsageError(args[len(args)-1], stderr, line), false
		}
		io.WriteString(stderr, line)
		return nil, nil, ExitUsage, false
	}
	return append(extra, rest...), &configFile{path: path, data: data}, 0, true
}

// flagName returns the name of a flag argument, or "".
func flagName(a string) string {
	name, _, _, _ := splitFlag(a)
	return name
}

// splitFlag splits a flag argument (-name, --name, -name=value); ok is
// false for any other argument.
func splitFlag(a string) (name, value string, hasValue, ok bool) {
	if !strings.HasPrefix(a, "-") {
		return "", "", false, false
	}
	name, value, hasValue = strings.Cut(strings.TrimLeft(a, "-"), "=")
	return name, value, hasValue, true
}
