package contract

import "go/types"

// IsCarrier reports whether a value of static type t carries retry intent:
// its method set (or, for a type parameter, its constraint's) has
// CarrierMethod() time.Duration. An interface that declares the method is a
// carrier too: every value it holds keeps the intent.
func (m *Model) IsCarrier(t types.Type) bool {
	fn := methodOf(t, m.pkg, m.cfg.CarrierMethod)
	return fn != nil && isCarrierMethod(fn)
}

// IsCarrierPtr is IsCarrier for t or *t: the carrier test for a type named
// in a composite literal or errors.As target.
func (m *Model) IsCarrierPtr(t types.Type) bool {
	fn := pointerMethodOf(t, m.pkg, m.cfg.CarrierMethod)
	return fn != nil && isCarrierMethod(fn)
}

func isCarrierMethod(fn *types.Func) bool {
	sig, ok := signatureIs(fn, 0, 1)
	return ok && IsDuration(sig.Results().At(0).Type())
}

// HasUnwrap reports whether t (or *t) has Unwrap() error or
// Unwrap() []error, so errors.As can see through it.
func HasUnwrap(t types.Type, pkg *types.Package) bool {
	fn := pointerMethodOf(t, pkg, "Unwrap")
	if fn == nil {
		return false
	}
	sig, ok := signatureIs(fn, 0, 1)
	if !ok {
		return false
	}
	res := sig.Results().At(0).Type()
	if IsError(res) {
		return true
	}
	if sl, ok := res.Underlying().(*types.Slice); ok {
		return IsError(sl.Elem())
	}
	return false
}
