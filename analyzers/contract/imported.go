package contract

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/producers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
)

// importFacts reads every fact of the packages pass depends on.
func importFacts(pass *analysis.Pass) importedFacts {
	imp := importedFacts{
		producers: producers.Imported{
			Producers: make(map[*types.Func]bool),
			Vars:      make(map[*types.Var]bool),
			Wraps:     make(map[*types.Func][]int),
		},
		dlq:         dlq.Imported{Writers: make(map[*types.Func]dlq.WriterKind), WriterNames: make(map[string]bool)},
		effects:     settle.Imported{Effects: make(map[*types.Func][]settle.Effect), Names: make(map[string]bool)},
		classifiers: make(map[*types.Func]transient.ClassifierKind),
		noReturn:    make(map[*types.Func]bool),
		handlers: handlers.Imported{
			Handlers:   make(map[*types.Func]handlers.Registration),
			Middleware: make(map[*types.Func][]int),
			Factories:  make(map[*types.Func]bool),
		},
	}
	for _, of := range pass.AllObjectFacts() {
		if of.Object.Pkg() == pass.Pkg {
			continue
		}
		fn, _ := of.Object.(*types.Func)
		switch f := of.Fact.(type) {
		case *producerFact:
			imp.producers.Producers[fn] = true
		case *retryableVarFact:
			if v, ok := of.Object.(*types.Var); ok {
				imp.producers.Vars[v] = true
			}
		case *wrapsFact:
			imp.producers.Wraps[fn] = f.Params
		case *dLQWriterFact:
			imp.dlq.Writers[fn] = f.Kind
			imp.dlq.WriterNames[fn.Name()] = true
		case *effectsFact:
			imp.effects.Effects[fn] = f.Effects
			imp.effects.Names[fn.Name()] = true
		case *classifierFact:
			imp.classifiers[fn] = f.Kind
		case *cfgs.NoReturnFact:
			imp.noReturn[fn] = true
		case *handlerFact:
			imp.handlers.Handlers[fn] = handlers.Registration{Params: f.Params, Line: f.Line, Col: f.Col, File: f.File, Payload: f.Payload, OnError: f.OnError}
		case *middlewareFact:
			if len(f.Params) > 0 {
				imp.handlers.Middleware[fn] = f.Params
			}
			if f.Factory {
				imp.handlers.Factories[fn] = true
			}
		case *handlers.FieldFact:
			imp.handlers.AddFieldFact(fn, f)
		}
	}
	imp.handlers.LinkFields()
	return imp
}
