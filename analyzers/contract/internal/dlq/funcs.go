package dlq

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
)

// FlagText is how messages name the dlq-funcs flag (contract's
// -retrycontract.dlq-funcs; a test keeps the two equal).
const FlagText = flagPrefix + "dlq-funcs"

// flagPrefix is how the command line prefixes the contract's options.
const flagPrefix = "-retrycontract."

// FuncName is a fully qualified function or method: PkgPath.Name or
// PkgPath.Recv.Name, and where it was configured.
type FuncName struct {
	PkgPath string
	Recv    string // receiver type name without '*', empty for functions
	Name    string
	// Origin is the place of the configuration file that named it
	// (file:line), empty when it came from the flag. It travels with the
	// entry (import/path.Func@file:line) rather than in a table beside the
	// configuration, so that every driver reports the same place.
	Origin string
	// Option is the option that named it (decode-funcs), empty for
	// dlq-funcs.
	Option string
}

func (f FuncName) String() string {
	if f.Recv != "" {
		return f.PkgPath + "." + f.Recv + "." + f.Name
	}
	return f.PkgPath + "." + f.Name
}

// ParseFuncName parses "import/path.Func" or "import/path.Type.Method",
// optionally followed by "@origin", the place of the configuration file
// that named it (the configuration file's reader writes it).
func ParseFuncName(s string) (FuncName, error) {
	s = strings.TrimSpace(s)
	s, origin, _ := strings.Cut(s, "@")
	slash := strings.LastIndex(s, "/")
	rest := s[slash+1:]
	parts := strings.Split(rest, ".")
	bad := func() (FuncName, error) {
		return FuncName{}, fmt.Errorf("malformed function name %q: want import/path.Func or import/path.Type.Method", s)
	}
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" {
		return bad()
	}
	pkg := s[:slash+1] + parts[0]
	for _, p := range parts[1:] {
		if !token.IsIdentifier(p) {
			return bad()
		}
	}
	if len(parts) == 3 {
		return FuncName{PkgPath: pkg, Recv: parts[1], Name: parts[2], Origin: origin}, nil
	}
	return FuncName{PkgPath: pkg, Name: parts[1], Origin: origin}, nil
}

// Declares reports whether pkg declares the function or method f names
// (a method of the type or of its pointer, promoted ones included).
func Declares(pkg *types.Package, f FuncName) bool {
	if f.Recv == "" {
		_, ok := pkg.Scope().Lookup(f.Name).(*types.Func)
		return ok
	}
	tn, ok := pkg.Scope().Lookup(f.Recv).(*types.TypeName)
	if !ok {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, f.Name)
	_, ok = obj.(*types.Func)
	return ok
}

// Describe says what f names: "method Sink.Park", "function deadLetter".
func (f FuncName) Describe() string {
	if f.Recv != "" {
		return "method " + f.Recv + "." + f.Name
	}
	return "function " + f.Name
}

// Where says where an entry was configured: the place in a
// configuration file, or the flag.
func (f FuncName) Where() string {
	if f.Origin != "" {
		return f.Origin
	}
	if f.Option != "" {
		return flagPrefix + f.Option
	}
	return FlagText
}

// OptionName is the option that named f: dlq-funcs or decode-funcs.
func (f FuncName) OptionName() string {
	if f.Option != "" {
		return f.Option
	}
	return "dlq-funcs"
}

// FuncList is a comma-separated list of FuncNames, usable as a flag.Value.
type FuncList []FuncName

func (l *FuncList) String() string {
	if l == nil {
		return ""
	}
	var names []string
	for _, f := range *l {
		names = append(names, f.String())
	}
	return strings.Join(names, ",")
}

// Set replaces the list; an empty string clears it.
func (l *FuncList) Set(s string) error {
	var out FuncList
	for part := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		f, err := ParseFuncName(part)
		if err != nil {
			return err
		}
		out = append(out, f)
	}
	*l = out
	return nil
}

// Funcs returns the list (the drivers read every list option alike).
func (l *FuncList) Funcs() FuncList { return *l }

// OptionList is a FuncList set by an option other than dlq-funcs, as a
// flag.Value: each entry remembers the option, for the message that
// reports an entry naming nothing.
type OptionList struct {
	*FuncList
	Option string
}

// Set replaces the list, each entry marked with the option.
func (l OptionList) Set(s string) error {
	if err := l.FuncList.Set(s); err != nil {
		return err
	}
	for i := range *l.FuncList {
		(*l.FuncList)[i].Option = l.Option
	}
	return nil
}

// Names reports whether fn is one of l's functions.
func (l FuncList) Names(fn *types.Func) bool {
	if len(l) == 0 || fn.Pkg() == nil {
		return false
	}
	recv := ""
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			recv = n.Obj().Name()
		}
	}
	for _, f := range l {
		if f.PkgPath == fn.Pkg().Path() && f.Name == fn.Name() && f.Recv == recv {
			return true
		}
	}
	return false
}
