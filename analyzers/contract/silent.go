package contract

import "github.com/retrylint/retrylint/analyzers/contract/internal/silence"

// SilentInputs is what Silence reads of a package.
type SilentInputs = silence.Inputs

// Silence is the verdict on a package (silence.Verdict).
type Silence = silence.Verdict

// Silence decides whether a package can export no fact of any retrylint
// analyzer but its functions' NoReturn, so that a driver may skip its
// function bodies and its analysis (package silence states the rules). A
// fact a dependency lets it see counts against it unless the fact's type
// has a SeenBySilent method, as NoReturn's, wrapsFact and FlattensFact do.
func (cfg *Config) Silence(in SilentInputs) Silence {
	return silence.Decide(silence.WordsOf(cfg.CarrierMethod, cfg.DLQName, cfg.DLQSubject, len(cfg.DLQFuncs) > 0, cfg.Profiles), in)
}
