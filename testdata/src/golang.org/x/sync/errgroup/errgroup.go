// Package errgroup is a stub of golang.org/x/sync/errgroup for the tests:
// Go runs a function and keeps its first error; nothing is acked.
package errgroup

import "sync"

type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}
