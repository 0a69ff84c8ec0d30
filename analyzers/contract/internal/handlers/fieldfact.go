package handlers

import (
	"go/types"
	"strconv"
	"strings"
)

// FieldFact is what a function says of a func-typed field in the split
// between a registry and its runner. Fields are named Type.field in the
// function's own package (Stores, Returns), or path.Type.field in another
// (Acks).
type FieldFact struct {
	Stores string // the field the function stores its handler parameters Params in
	Params []int
	// Returns is the field whose call's result the function returns (the
	// entry's method: return w.run(ctx, p)).
	Returns string
	// Acks is a field of another package the function Acks on nil, at
	// Line and Col relative to the function's declaration.
	Acks      string
	Line, Col int
}

func (*FieldFact) AFact() {}

// SeenBySilent: an importer with no message in sight and no ack reads a
// registry's Stores and Returns only to find handlers, which it cannot
// have; an Acks comes from a package in sight, which puts its importers
// in sight (contract.Silence).
func (f *FieldFact) SeenBySilent() bool { return f.Acks == "" }

func (f *FieldFact) String() string {
	var parts []string
	if f.Stores != "" {
		parts = append(parts, "stores handler param "+joinInts(f.Params)+" in "+f.Stores)
	}
	if f.Returns != "" {
		parts = append(parts, "returns "+f.Returns+"'s result")
	}
	if f.Acks != "" {
		parts = append(parts, "acks when "+f.Acks+" returns nil")
	}
	return strings.Join(parts, "; ")
}

// fieldAck is where a function of another package Acks on a field's nil.
type fieldAck struct {
	fn        *types.Func
	line, col int
}

func joinInts(xs []int) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}
