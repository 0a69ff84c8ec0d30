package config

import "fmt"

// removed are the options of earlier versions that are gone, by
// analyzer.option, with what replaces them. A file, a setting or a flag
// that still names one fails with one line that says so: silently
// ignoring barenak.strict would turn a report its user asked for into its
// opposite's default.
var removed = map[string]string{
	"barenak.strict": "barenak.strict was removed: bare Naks on unclassified errors are reported by default now; " +
		"set barenak.unclassified: false (flag -barenak.unclassified=false) to turn that off",
}

// Removed returns the error for option opt of the analyzer named name when
// it is a removed option, naming what replaces it; nil otherwise.
func Removed(name, opt string) error {
	if msg, ok := removed[name+"."+opt]; ok {
		return fmt.Errorf("%s", msg)
	}
	return nil
}
