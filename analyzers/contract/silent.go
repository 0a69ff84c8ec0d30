package contract

import "github.com/retrylint/retrylint/analyzers/contract/internal/silence"

// SilentInputs is what Silence reads of a package.
type SilentInputs = silence.Inputs

// Silence is the verdict on a package (silence.Verdict).
type Silence = silence.Verdict

// Silence decides whether a package can export no fact of any retrylint
// analyzer but NoReturn's, so that a driver may skip its bodies and its
// analysis (package silence states the rules). A fact a dependency lets
// it see counts against it unless its SeenBySilent method says otherwise
// (NoReturn's, wrapsFact's, FlattensFact's, a FieldFact's without Acks).
func (cfg *Config) Silence(in SilentInputs) Silence {
	return silence.Decide(silence.WordsOf(cfg.CarrierMethod, cfg.DLQName, cfg.DLQSubject, len(cfg.DLQFuncs) > 0, cfg.Profiles), in)
}
