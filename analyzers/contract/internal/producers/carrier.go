package producers

import (
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// IsCarrier reports whether a value of static type t carries retry intent:
// its method set (or, for a type parameter, its constraint's) has
// CarrierMethod() time.Duration. An interface that declares the method is a
// carrier too: every value it holds keeps the intent.
func (m *Result) IsCarrier(t types.Type) bool {
	fn := gotypes.MethodOf(t, m.pkg, m.carrierMethod)
	return fn != nil && isCarrierMethod(fn)
}

// IsCarrierPtr is IsCarrier for t or *t: the carrier test for a type named
// in a composite literal or errors.As target.
func (m *Result) IsCarrierPtr(t types.Type) bool {
	fn := gotypes.PointerMethodOf(t, m.pkg, m.carrierMethod)
	return fn != nil && isCarrierMethod(fn)
}

func isCarrierMethod(fn *types.Func) bool {
	sig, ok := gotypes.SignatureIs(fn, 0, 1)
	return ok && gotypes.IsDuration(sig.Results().At(0).Type())
}
