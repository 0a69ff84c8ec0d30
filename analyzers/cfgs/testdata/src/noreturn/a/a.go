// Package a proves the no-return inference of cfgs.NoReturn: the
// functions that end with a call that never returns (panic, an intrinsic,
// a no-return function of this package or, through its fact, of lib) and
// have no return statement of their own; and the look-alikes that return.
package a

import (
	"log"
	"os"
	"runtime"
	"syscall"
	"testing"

	"noreturn/lib"
)

var cond bool

// Panics.

func panics() { // want panics:"no return"
	print(1)
	panic(2)
}

func parenthesized() { // want parenthesized:"no return"
	(panic)("x")
}

func parenthesizedCall() { // want parenthesizedCall:"no return"
	(os.Exit(1))
}

// The intrinsics: os, syscall, runtime, log (functions and methods) and
// testing's methods.

func osExit() { // want osExit:"no return"
	os.Exit(1)
}

func syscallExit() { // want syscallExit:"no return"
	syscall.Exit(1)
}

func goexit() { // want goexit:"no return"
	runtime.Goexit()
}

func logFatal() { // want logFatal:"no return"
	log.Fatal("x")
}

func logFatalf() { // want logFatalf:"no return"
	log.Fatalf("%s", "x")
}

func logFatalln() { // want logFatalln:"no return"
	log.Fatalln("x")
}

func logPanic() { // want logPanic:"no return"
	log.Panic("x")
}

func logPanicf() { // want logPanicf:"no return"
	log.Panicf("%s", "x")
}

func logPanicln() { // want logPanicln:"no return"
	log.Panicln("x")
}

func loggerFatal(l *log.Logger) { // want loggerFatal:"no return"
	l.Fatalf("%s", "x")
}

func testFatal(t *testing.T) { // want testFatal:"no return"
	t.Fatal("x")
}

func testFatalf(b *testing.B) { // want testFatalf:"no return"
	b.Fatalf("%s", "x")
}

func testFailNow(t *testing.T) { // want testFailNow:"no return"
	t.FailNow()
}

func testSkip(t *testing.T) { // want testSkip:"no return"
	t.Skip("x")
}

func testSkipf(t *testing.T) { // want testSkipf:"no return"
	t.Skipf("%s", "x")
}

func testSkipNow(t *testing.T) { // want testSkipNow:"no return"
	t.SkipNow()
}

func tbFatal(tb testing.TB) { // want tbFatal:"no return"
	tb.Fatal("x")
}

// Functions of this package, in any order of declaration.

func callsPanics() { // want callsPanics:"no return"
	panics()
}

func callsLater() { // want callsLater:"no return"
	later()
}

func callsLaterStill() { // want callsLaterStill:"no return"
	callsLast()
}

func callsLast() { // want callsLast:"no return"
	last()
}

func later() { // want later:"no return"
	last()
}

func last() { // want last:"no return"
	os.Exit(3)
}

type T struct{}

func (T) fail() { // want fail:"no return"
	panic("T")
}

func (t T) callsMethod() { // want callsMethod:"no return"
	t.fail()
}

func callsMethodExpr(t T) { // want callsMethodExpr:"no return"
	T.fail(t)
}

// Generic functions and methods: the call of an instance is a call of
// the generic declaration.

func failG[E any](v E) { // want failG:"no return"
	panic(v)
}

func callsGeneric() { // want callsGeneric:"no return"
	failG(1)
}

func callsGenericExplicit() { // want callsGenericExplicit:"no return"
	failG[string]("x")
}

type Box[E any] struct{ v E }

func (b Box[E]) fail() { // want fail:"no return"
	panic(b.v)
}

func callsBoxMethod() { // want callsBoxMethod:"no return"
	Box[int]{}.fail()
}

// Functions of another package, through their facts.

func callsLibFail() { // want callsLibFail:"no return"
	lib.Fail("x")
}

func callsLibExit() { // want callsLibExit:"no return"
	lib.Exit()
}

func callsLibWrapped() { // want callsLibWrapped:"no return"
	lib.Wrapped()
}

func callsLibMethod(l lib.Logger) { // want callsLibMethod:"no return"
	l.Die()
}

// A function literal's return is not its enclosing function's.

func literalReturns() { // want literalReturns:"no return"
	f := func() int { return 1 }
	_ = f
	panic("still")
}

// Look-alikes that return.

func empty() {}

func noBody()

func returnsLib() {
	lib.Returns()
}

func conditionalPanic() {
	if cond {
		panic("sometimes")
	}
}

func panicThenMore() {
	panic("x")
	print("unreachable, but the last statement is judged")
}

func earlyReturn() {
	if cond {
		return
	}
	panic("x")
}

func returnInSwitch(x int) {
	switch x {
	case 0:
		return
	}
	os.Exit(1)
}

func goPanics() {
	go panics()
}

func shadowedPanic() {
	panic := func(any) {}
	panic("not the builtin")
}

func logPrint() {
	log.Print("x")
}

func testError(t *testing.T) {
	t.Error("x")
}

func testFail(t *testing.T) {
	t.Fail()
}

func testLog(t *testing.T) {
	t.Log("x")
}

func callsLibMayFail() {
	lib.MayFail(true)
}

func callsLibSpin() {
	lib.Spin()
}

func callsMayReturn() {
	conditionalPanic()
}

// Only the last statement is judged: these never return, but are taken
// to.

func spin() {
	for {
	}
}

func blocks() {
	select {}
}

func allCases(x int) {
	switch x {
	case 0:
		panic(0)
	default:
		os.Exit(1)
	}
}

func deferredPanic() {
	defer panic("at exit")
}

func panicsInBlock() {
	{
		panic("x")
	}
}

// Calls whose callee is not known statically.

func funcValue() {
	exit := os.Exit
	exit(1)
}

func methodValue(t T) {
	fail := t.fail
	fail()
}

func funcParam(f func()) {
	f()
}

func interfaceMethod(d lib.Dier) {
	d.Die()
}

func literalCalled() {
	func() { panic("x") }()
}

// Deferred recovers: a panic that a function's own deferred call recovers
// returns normally; an exit does not, and a recover anywhere else (in a
// literal the deferred one calls, in another package's function) does not
// stop a panic.

func recoversInLiteral() {
	defer func() { recover() }()
	panic("x")
}

func rescue() { recover() }

func recoversInHelper() {
	defer rescue()
	panic("x")
}

type guard struct{}

func (guard) release() {}

func defersNoRecover() { // want defersNoRecover:"no return"
	var g guard
	defer g.release()
	panic("x")
}

func recoversThenExits() { // want recoversThenExits:"no return"
	defer func() { recover() }()
	os.Exit(1)
}

func recoverTooDeep() { // want recoverTooDeep:"no return"
	defer func() {
		func() { recover() }()
	}()
	panic("x")
}

func recoversAndPanicsAgain() { // want recoversAndPanicsAgain:"no return"
	defer func() {
		if r := recover(); r != nil {
			print(r)
			panic(r)
		}
	}()
	panic("x")
}
