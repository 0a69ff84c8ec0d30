package dataflow

import "golang.org/x/tools/go/cfg"

// Reach answers ordering questions over a CFG (is B reachable after A?)
// the way the contract asks them: along forward edges only. A back edge
// closes a loop (or a backward goto); what comes after it belongs to the
// next iteration, which concerns another message.
type Reach struct {
	g    *cfg.CFG
	back map[[2]int32]bool
}

// NewReach finds the back edges of g: the edges that close a cycle in a
// depth-first walk from the entry.
func NewReach(g *cfg.CFG) *Reach {
	r := &Reach{g: g, back: make(map[[2]int32]bool)}
	if len(g.Blocks) == 0 {
		return r
	}
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(g.Blocks))
	type frame struct {
		b    *cfg.Block
		next int
	}
	stack := []frame{{b: g.Blocks[0]}}
	color[0] = grey
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.b.Succs) {
			color[top.b.Index] = black
			stack = stack[:len(stack)-1]
			continue
		}
		s := top.b.Succs[top.next]
		top.next++
		switch color[s.Index] {
		case grey:
			r.back[[2]int32{top.b.Index, s.Index}] = true
		case white:
			color[s.Index] = grey
			stack = append(stack, frame{b: s})
		}
	}
	return r
}

// IsBack reports whether the edge from b to s is a back edge.
func (r *Reach) IsBack(b, s *cfg.Block) bool { return r.back[[2]int32{b.Index, s.Index}] }

// Succs returns b's successors along forward edges.
func (r *Reach) Succs(b *cfg.Block) []*cfg.Block {
	var out []*cfg.Block
	for _, s := range b.Succs {
		if !r.IsBack(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// After walks the blocks reachable from start along forward edges,
// depth-first, each once, start included, calling visit on each. When
// visit returns true the walk stops and After returns the witness: the
// blocks from start to the one visit accepted. It returns nil when visit
// accepted none.
func (r *Reach) After(start *cfg.Block, visit func(b *cfg.Block) bool) []*cfg.Block {
	seen := make([]bool, len(r.g.Blocks))
	var path []*cfg.Block
	var walk func(b *cfg.Block) bool
	walk = func(b *cfg.Block) bool {
		path = append(path, b)
		if visit(b) {
			return true
		}
		for _, s := range r.Succs(b) {
			if !seen[s.Index] {
				seen[s.Index] = true
				if walk(s) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		return false
	}
	seen[start.Index] = true
	if walk(start) {
		return path
	}
	return nil
}

// EventsAfter calls f for each event placed after the one at index in
// start (events per block, in evaluation order), then for the events of
// every block reachable from start without crossing a back edge,
// depth-first, each block once, until f returns false. The ordering checks
// walk their settlements and DLQ writes with it, settletwice its Acks.
func EventsAfter[E any](r *Reach, events map[*cfg.Block][]E, start *cfg.Block, index int, f func(E) bool) {
	from := index + 1
	r.After(start, func(b *cfg.Block) bool {
		for _, e := range events[b][from:] {
			if !f(e) {
				return true
			}
		}
		from = 0
		return false
	})
}
