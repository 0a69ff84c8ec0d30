// Package printf reads printf-style format strings: their verbs and the
// operand each consumes, from the constant value or from the source text.
package printf

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
)

// Verb is one formatting directive of a printf-style format string.
type Verb struct {
	Verb   rune // 'v', 'w', 's', ...
	Arg    int  // index of its operand among the arguments after the format, -1 if none
	Offset int  // byte offset of the verb letter within the format text
	Start  int  // byte offset of the verb's '%'
}

// ParseVerbs lists the verbs of format in order, with the operand each one
// consumes (explicit [n] indexes and * widths included). It works on the
// unquoted value and on the source text between the quotes alike, since a
// verb never contains an escape sequence.
func ParseVerbs(format string) []Verb {
	var verbs []Verb
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		start := i
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		// flags
		for i < len(format) && isFlag(format[i]) {
			i++
		}
		arg, i = argIndex(format, i, arg)
		// width
		if i < len(format) && format[i] == '*' {
			arg++
			i++
		} else {
			for i < len(format) && isDigit(format[i]) {
				i++
			}
		}
		// precision
		if i < len(format) && format[i] == '.' {
			i++
			arg, i = argIndex(format, i, arg)
			if i < len(format) && format[i] == '*' {
				arg++
				i++
			} else {
				for i < len(format) && isDigit(format[i]) {
					i++
				}
			}
		}
		arg, i = argIndex(format, i, arg)
		if i >= len(format) {
			break
		}
		r := rune(format[i])
		verbs = append(verbs, Verb{Verb: r, Arg: arg, Offset: i, Start: start})
		arg++
	}
	return verbs
}

// argIndex consumes an explicit argument index [n] at format[i:].
func argIndex(format string, i, arg int) (int, int) {
	if i >= len(format) || format[i] != '[' {
		return arg, i
	}
	j := i + 1
	for j < len(format) && isDigit(format[j]) {
		j++
	}
	if j >= len(format) || format[j] != ']' || j == i+1 {
		return arg, i
	}
	n, err := strconv.Atoi(format[i+1 : j])
	if err != nil || n < 1 {
		return arg, i
	}
	return n - 1, j + 1
}

func isFlag(c byte) bool {
	return c == '+' || c == '-' || c == '#' || c == ' ' || c == '0'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// ConstString returns the constant string value of e, if it has one.
func ConstString(info *types.Info, e ast.Expr) (string, bool) {
	if info == nil {
		return "", false
	}
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// WrappedOperands returns the operands of fmt.Errorf that a %w verb wraps.
// A format that is not constant wraps nothing we can see.
func WrappedOperands(info *types.Info, call *ast.CallExpr) []ast.Expr {
	if len(call.Args) < 2 {
		return nil
	}
	format, ok := ConstString(info, call.Args[0])
	if !ok {
		return nil
	}
	var out []ast.Expr
	for _, v := range ParseVerbs(format) {
		if v.Verb == 'w' && v.Arg >= 0 && v.Arg+1 < len(call.Args) {
			out = append(out, call.Args[v.Arg+1])
		}
	}
	return out
}
