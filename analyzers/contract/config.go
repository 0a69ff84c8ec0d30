package contract

import (
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"regexp"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/profile"
	"github.com/retrylint/retrylint/internal/globs"
)

// Flag names of the contract analyzer. Drivers prefix them with the
// analyzer's name: -retrycontract.dlq-funcs=... on the command line.
const (
	// FlagExclude is the option, of the contract model and of every check,
	// that lists the files whose findings are not reported (globs.Globs).
	FlagExclude = "exclude"

	FlagCarrierMethod      = "carrier-method"
	FlagDLQPattern         = "dlq-pattern"
	FlagDLQSubjectPattern  = "dlq-subject-pattern"
	FlagDLQFuncs           = "dlq-funcs"
	FlagTransientPredicate = "transient-predicate-pattern"
	FlagProfiles           = "profiles"
	FlagDecodePattern      = "decode-pattern"
	FlagDecodeFuncs        = "decode-funcs"
)

// Defaults of the contract's configurable names, as CONTRACT.md states them.
const (
	DefaultCarrierMethod      = "RetryDelay"
	DefaultDLQPattern         = `(?i)(dlq|dead_?letter)`
	DefaultDLQSubjectPattern  = `(?i)(dlq|dead[._-]?letter)`
	DefaultTransientPredicate = `(?i)^(is)?(retryable|retriable|transient|temporary)`
	DefaultDecodePattern      = `(?i)(unmarshal|decode)`
)

// Config is the typed configuration of the contract model. It is built once
// per run (from flags, or decoded from golangci-lint settings) and never
// mutated while analyzers run.
type Config struct {
	// CarrierMethod is the method that makes a type a retry carrier:
	// CarrierMethod() time.Duration.
	CarrierMethod string
	// DLQName matches names of functions, methods, func-valued fields and
	// receivers that write a dead-letter queue.
	DLQName *regexp.Regexp
	// DLQSubject matches a constant part of a publish subject that names a
	// dead-letter subject.
	DLQSubject *regexp.Regexp
	// DLQFuncs names functions that write a DLQ although nothing in their
	// name or body says so: "import/path.Func" or "import/path.Type.Method".
	DLQFuncs FuncList
	// TransientPredicate matches names of bool predicates over an error that
	// answer "does this error carry retry intent".
	TransientPredicate *regexp.Regexp
	// Decode matches names of functions and methods that decode a payload
	// (json.Unmarshal, Decoder.Decode, proto.Unmarshal, decodeOrder).
	Decode *regexp.Regexp
	// DecodeFuncs names more payload decoders, as DLQFuncs names writers.
	DecodeFuncs FuncList
	// Profiles describe the message libraries: the built-in ones (NATS,
	// JetStream), then those loaded from files, consulted in order.
	Profiles []*profile.Profile
	// Nolint makes //nolint directives naming retrylint (or all linters)
	// silence diagnostics, as //retrylint:ignore does. It is on, except in
	// golangci-lint, which applies //nolint itself: there the analyzers
	// must report what a //nolint covers, or nolintlint would call the
	// directive unused (and its fix would delete it).
	Nolint bool
	// Exclude names the files whose findings no check reports (nor the
	// directives meta check); each check has an Exclude of its own too.
	Exclude globs.Globs
}

// DefaultConfig returns the configuration CONTRACT.md specifies.
func DefaultConfig() *Config {
	return &Config{
		Nolint:             true,
		CarrierMethod:      DefaultCarrierMethod,
		DLQName:            regexp.MustCompile(DefaultDLQPattern),
		DLQSubject:         regexp.MustCompile(DefaultDLQSubjectPattern),
		TransientPredicate: regexp.MustCompile(DefaultTransientPredicate),
		Decode:             regexp.MustCompile(DefaultDecodePattern),
		Profiles:           profile.Builtin(),
	}
}

// RegisterFlags binds every option of c to fs. Each flag validates its value
// when set, so a bad regexp or a malformed function name fails the run with
// a one-line error instead of falling back to a default.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.Var(identValue{&c.CarrierMethod}, FlagCarrierMethod,
		"method `name` that makes a type a retry carrier: NAME() time.Duration (default "+DefaultCarrierMethod+")")
	fs.Var(regexpValue{&c.DLQName}, FlagDLQPattern,
		"`regexp` over function, method, field and receiver names that write a DLQ (default "+DefaultDLQPattern+")")
	fs.Var(regexpValue{&c.DLQSubject}, FlagDLQSubjectPattern,
		"`regexp` over constant parts of publish subjects that name a DLQ (default "+DefaultDLQSubjectPattern+")")
	fs.Var(&c.DLQFuncs, FlagDLQFuncs,
		"comma-separated `functions` that write a DLQ: import/path.Func or import/path.Type.Method")
	fs.Var(regexpValue{&c.TransientPredicate}, FlagTransientPredicate,
		"`regexp` over names of bool predicates that report retry intent (default "+DefaultTransientPredicate+")")
	fs.Var(regexpValue{&c.Decode}, FlagDecodePattern,
		"`regexp` over names of functions and methods that decode a message's payload (default "+DefaultDecodePattern+")")
	fs.Var(dlq.OptionList{FuncList: &c.DecodeFuncs, Option: FlagDecodeFuncs}, FlagDecodeFuncs,
		"comma-separated `functions` that decode a message's payload: import/path.Func or import/path.Type.Method")
	fs.Var(profile.FilesValue{Profiles: &c.Profiles}, FlagProfiles,
		"comma-separated JSON `files` describing more message libraries (package profile), after the built-in NATS and JetStream")
	fs.Var(&c.Exclude, FlagExclude,
		"comma-separated path `globs` (** for any directories) of files no check reports on; a relative glob matches at any depth")
}

// SetOption sets one option by flag name from its string form; the
// golangci-lint plugin uses it so that settings and flags validate alike.
func (c *Config) SetOption(name, value string) error {
	fs := flag.NewFlagSet("retrycontract", flag.ContinueOnError)
	c.RegisterFlags(fs)
	f := fs.Lookup(name)
	if f == nil {
		return fmt.Errorf("unknown option %q", name)
	}
	if err := f.Value.Set(value); err != nil {
		return fmt.Errorf("option %s: %w", name, err)
	}
	return nil
}

type regexpValue struct{ re **regexp.Regexp }

func (v regexpValue) String() string {
	if v.re == nil || *v.re == nil {
		return ""
	}
	return (*v.re).String()
}

func (v regexpValue) Set(s string) error {
	if s == "" {
		return fmt.Errorf("empty regexp")
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return fmt.Errorf("invalid regexp %q: %v", s, err)
	}
	*v.re = re
	return nil
}

type identValue struct{ s *string }

func (v identValue) String() string {
	if v.s == nil {
		return ""
	}
	return *v.s
}

func (v identValue) Set(s string) error {
	if !token.IsIdentifier(s) {
		return fmt.Errorf("%q is not a Go method name", s)
	}
	*v.s = s
	return nil
}

// FuncName is a fully qualified function or method, and where it was
// configured (dlq.FuncName).
type FuncName = dlq.FuncName

// FuncList is a comma-separated list of FuncNames, usable as a flag.Value.
type FuncList = dlq.FuncList

// ParseFuncName parses "import/path.Func" or "import/path.Type.Method",
// optionally followed by "@origin".
func ParseFuncName(s string) (FuncName, error) { return dlq.ParseFuncName(s) }

// Declares reports whether pkg declares the function or method f names.
func Declares(pkg *types.Package, f FuncName) bool { return dlq.Declares(pkg, f) }

// Name is the contract analyzer's name; drivers prefix its flags with it.
const Name = "retrycontract"

// ConfigOf returns the configuration of a, a contract analyzer made by
// New, as its flags hold it now (nil if a is not one), for Silence.
func ConfigOf(a *analysis.Analyzer) *Config {
	cfg := &Config{}
	regexps := map[string]**regexp.Regexp{FlagDLQPattern: &cfg.DLQName, FlagDLQSubjectPattern: &cfg.DLQSubject,
		FlagTransientPredicate: &cfg.TransientPredicate, FlagDecodePattern: &cfg.Decode}
	a.Flags.VisitAll(func(f *flag.Flag) {
		switch v := f.Value.(type) {
		case identValue:
			cfg.CarrierMethod = *v.s
		case regexpValue:
			*regexps[f.Name] = *v.re
		case *FuncList:
			cfg.DLQFuncs = append(cfg.DLQFuncs, *v...)
		case profile.FilesValue:
			cfg.Profiles = *v.Profiles
		}
	})
	if a.Name != Name || cfg.CarrierMethod == "" || cfg.DLQName == nil || cfg.DLQSubject == nil || cfg.Profiles == nil {
		return nil
	}
	return cfg
}
