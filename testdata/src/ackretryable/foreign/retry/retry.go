// Package retry declares a retry carrier.
package retry

import "time"

type Busy struct{ D time.Duration }

func (b *Busy) Error() string             { return "busy" }
func (b *Busy) RetryDelay() time.Duration { return b.D }
