package fileignore

import "fmt"

/* want `//retrylint:file-ignore has no reason and suppresses nothing: say why the finding does not apply \(//retrylint:file-ignore retryflatten <reason>\)` */ //retrylint:file-ignore retryflatten

/* want `//retrylint:file-ignore barenak suppresses no finding of barenak in this file: remove it` */ //retrylint:file-ignore barenak the stream caps deliveries

/* want `//retrylint:file-ignore names unknown check "retryflaten" and suppresses nothing: correct it to retryflatten` */ //retrylint:file-ignore retryflaten the operators read it

/* want `//retrylint:file-ignore names unknown check "the" and suppresses nothing: name only retrylint's checks` */ //retrylint:file-ignore the operators read it

/* want `//retrylint:file-ignore names no check and suppresses nothing` */ //retrylint:file-ignore

func _() error {
	return fmt.Errorf("b: %v", produce())
}
