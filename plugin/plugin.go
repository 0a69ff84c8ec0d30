// Package plugin registers retrylint as a golangci-lint module plugin.
//
// Build a golangci-lint with it (golangci-lint custom, .custom-gcl.yml),
// from a checkout of the repository at a pinned commit (no version is on
// the module proxy yet; see RELEASING.md):
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/retrylint/retrylint/plugin
//	    path: ../retrylint/plugin
//	  - module: github.com/retrylint/retrylint
//	    import: github.com/retrylint/retrylint/analyzers/suite
//	    path: ../retrylint
//
// The plugin is a module of its own, requiring the linter module and
// plugin-module-register only: building it in adds nothing of the runtime
// (NATS, the embedded server) to golangci-lint's build.
//
// and enable it in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable: [retrylint]
//	  settings:
//	    custom:
//	      retrylint:
//	        type: module
//	        description: retry contract of NATS JetStream consumers
//	        settings:
//	          dlq-funcs: [example.com/bus.Sink.Park]
//	          checks:
//	            barenak: {unclassified: false}
//
// Settings decode into the same contract.Config the command line builds
// from flags; an unknown key, a wrong type or an invalid value fails with an
// error that names it.
//
// Each check is also registered as a linter of its own, under its name, so
// that //nolint:barenak works: golangci-lint matches //nolint names against
// linter names, and a module plugin's diagnostics all carry the name of the
// linter they were configured under. Configured as
//
//	linters:
//	  enable: [retrylint, barenak]
//	  settings:
//	    custom:
//	      retrylint: {type: module, settings: {disable: [barenak]}}
//	      barenak: {type: module}
//
// barenak's findings are issues of the barenak linter and the rest stay
// retrylint's. A per-check linter takes the same settings (a YAML anchor
// shares them) and runs its check only, even where the shared disable
// names it (that is what turns it off in retrylint); .retrylint.yaml's
// disable holds for it as for every driver. The meta check stays with
// retrylint. Enabling a check both ways reports its findings twice:
// disable it in retrylint's settings. Each per-check linter
// runs the contract model for itself, under a name of its own
// (retrycontract_barenak), so golangci-lint's fact cache never mixes two
// configurations; the cost is one model run per such linter.
//
// golangci-lint turns a diagnostic's related locations into issues of their
// own, on their own lines, where //nolint at the finding does not reach: a
// suppressed finding left them behind, and one finding counted several
// times. The plugin folds them into the finding's message instead (see
// foldRelated).
package plugin

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/directives"
	"github.com/retrylint/retrylint/analyzers/suite"
	"github.com/retrylint/retrylint/internal/config"
)

// Name is the linter's name in golangci-lint, and the name //nolint takes.
const Name = "retrylint"

func init() {
	register.Plugin(Name, New)
	for _, a := range suite.Checks(contract.New(contract.DefaultConfig())) {
		register.Plugin(a.Name, NewCheck(a.Name))
	}
}

// Settings are the plugin's settings; keys match the command line flags.
type Settings struct {
	CarrierMethod             string   `json:"carrier-method"`
	DLQPattern                string   `json:"dlq-pattern"`
	DLQSubjectPattern         string   `json:"dlq-subject-pattern"`
	DLQFuncs                  []string `json:"dlq-funcs"`
	DecodeFuncs               []string `json:"decode-funcs"`
	TransientPredicatePattern string   `json:"transient-predicate-pattern"`
	// Disable lists checks not to run.
	Disable []string `json:"disable"`
	// Checks sets a check's own options by flag name, e.g. barenak: {unclassified: false}.
	Checks map[string]map[string]any `json:"checks"`
}

type plugin struct {
	analyzers []*analysis.Analyzer
}

// New builds the plugin from golangci-lint's settings.
func New(raw any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](raw)
	if err != nil {
		return nil, fmt.Errorf("%s settings: %w", Name, err)
	}
	analyzers, err := s.Analyzers()
	if err != nil {
		return nil, fmt.Errorf("%s settings: %w", Name, err)
	}
	return &plugin{analyzers: analyzers}, nil
}

// NewCheck returns the constructor of the linter named check, which runs
// that check only (see the package documentation).
func NewCheck(check string) register.NewPlugin {
	return func(raw any) (register.LinterPlugin, error) {
		s, err := register.DecodeSettings[Settings](raw)
		if err != nil {
			return nil, fmt.Errorf("%s settings: %w", check, err)
		}
		analyzers, err := s.build(check)
		if err != nil {
			return nil, fmt.Errorf("%s settings: %w", check, err)
		}
		return &plugin{analyzers: analyzers}, nil
	}
}

// Analyzers builds the checks the settings ask for, on one contract
// analyzer configured by them.
func (s Settings) Analyzers() ([]*analysis.Analyzer, error) { return s.build("") }

// build builds the checks of the retrylint linter (only == "") or of the
// linter of check only.
func (s Settings) build(only string) ([]*analysis.Analyzer, error) {
	cfg := contract.DefaultConfig()
	cfg.Nolint = false // golangci-lint applies //nolint, and nolintlint must see what it covers
	model := contract.New(cfg)
	own := model // the model the checks run on
	if only != "" {
		renamed := *model // the same options and run, under a name of its own
		renamed.Name = contract.Name + "_" + only
		own = &renamed
	}
	checks := suite.Checks(own)
	// .retrylint.yaml first, from the directory golangci-lint runs in; the
	// plugin's settings override it. model carries the options' flags
	// under the file's name for them, retrycontract.
	all := append([]*analysis.Analyzer{model, suite.Meta(own, checks)}, checks...)
	fileArgs, path, err := config.ArgsFor(".", all)
	if err != nil {
		return nil, err
	}
	disable, err := config.Apply(fileArgs, all)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if only != "" {
		// A per-check linter shares its settings with retrylint's (one YAML
		// anchor), where disable names the checks that run as linters of
		// their own: its own check there is not turned off. The file's
		// disable holds for every driver, this one too.
		s.Disable = slices.DeleteFunc(slices.Clone(s.Disable), func(name string) bool { return name == only })
	}
	s.Disable = append(disable, s.Disable...)
	for _, opt := range []struct{ name, value string }{
		{contract.FlagCarrierMethod, s.CarrierMethod},
		{contract.FlagDLQPattern, s.DLQPattern},
		{contract.FlagDLQSubjectPattern, s.DLQSubjectPattern},
		{contract.FlagDLQFuncs, strings.Join(s.DLQFuncs, ",")},
		{contract.FlagDecodeFuncs, strings.Join(s.DecodeFuncs, ",")},
		{contract.FlagTransientPredicate, s.TransientPredicatePattern},
	} {
		if opt.value == "" {
			continue
		}
		if err := cfg.SetOption(opt.name, opt.value); err != nil {
			return nil, err
		}
	}
	byName := make(map[string]*analysis.Analyzer)
	var names []string
	for _, a := range checks {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	for _, name := range s.Disable {
		if byName[name] == nil && name != directives.Name {
			return nil, fmt.Errorf("disable: no check named %q (checks: %s, %s)", name, strings.Join(names, ", "), directives.Name)
		}
	}
	checkNames := make([]string, 0, len(s.Checks))
	for name := range s.Checks {
		checkNames = append(checkNames, name)
	}
	sort.Strings(checkNames)
	for _, name := range checkNames {
		a := byName[name]
		if a == nil {
			return nil, fmt.Errorf("checks: no check named %q (checks: %s)", name, strings.Join(names, ", "))
		}
		opts := s.Checks[name]
		keys := make([]string, 0, len(opts))
		for k := range opts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := config.Removed(name, k); err != nil && a.Flags.Lookup(k) == nil {
				return nil, fmt.Errorf("checks.%s.%s: %w", name, k, err)
			}
			if a.Flags.Lookup(k) == nil {
				return nil, fmt.Errorf("checks.%s: unknown option %q", name, k)
			}
			if err := a.Flags.Set(k, fmt.Sprint(opts[k])); err != nil {
				return nil, fmt.Errorf("checks.%s.%s: %w", name, k, err)
			}
		}
	}
	checks = slices.DeleteFunc(checks, func(a *analysis.Analyzer) bool {
		return slices.Contains(s.Disable, a.Name) || only != "" && a.Name != only
	})
	for i, a := range checks {
		checks[i] = foldRelated(a)
	}
	if only == "" && !slices.Contains(s.Disable, directives.Name) {
		checks = append(checks, foldRelated(suite.Meta(own, checks)))
	}
	return checks, nil
}

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.analyzers, nil }

func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
