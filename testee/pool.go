package testee

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// Pool is the adapter for several persistent testees of one command run at
// once (docs/PROTOCOL.md, "Several processes at once"): each request goes to
// a member that is free, so that as many requests as there are members are
// answered in parallel. Every member is a Persistent of its own: started on
// its first request, restarted after a failure of its own, which never
// touches the others. hello goes to the member that takes the first
// request; the others answer their first request without one, as a
// restarted testee does.
//
// Do is safe for concurrent use; a caller that keeps at most Size requests
// in flight never waits for a member.
type Pool struct {
	members []*Persistent
	free    chan *Persistent
	closed  atomic.Bool
}

var (
	_ Implementation = (*Pool)(nil)
	_ Killer         = (*Pool)(nil)
)

// NewPool returns an adapter that runs cfg.Command in persistent mode as n
// processes (at least 1). It starts nothing yet.
func NewPool(cfg Config, n int) (*Pool, error) {
	n = max(n, 1)
	p := &Pool{free: make(chan *Persistent, n)}
	for range n {
		a, err := NewPersistent(cfg)
		if err != nil {
			return nil, err
		}
		p.members = append(p.members, a)
		p.free <- a
	}
	return p, nil
}

// Size is the number of members.
func (p *Pool) Size() int { return len(p.members) }

// Do sends req to a free member and waits for its answer (see
// Persistent.Do); while every member is busy it waits for one, at most
// until ctx ends.
func (p *Pool) Do(ctx context.Context, req Request) (Response, error) {
	var m *Persistent
	select {
	case m = <-p.free:
	default:
		select {
		case m = <-p.free:
		case <-ctx.Done():
			err := ctx.Err()
			return Response{}, &Failure{Kind: Canceled, ID: req.ID, Op: req.Op, Detail: "not sent: " + err.Error(), Err: err}
		}
	}
	defer func() { p.free <- m }()
	if p.closed.Load() {
		return Response{}, &Failure{Kind: Closed, ID: req.ID, Op: req.Op, Detail: "the adapter is closed"}
	}
	return m.Do(ctx, req)
}

// Stats returns the members' counters, added up.
func (p *Pool) Stats() Stats {
	var s Stats
	for _, m := range p.members {
		ms := m.Stats()
		s.Starts += ms.Starts
		s.Failures += ms.Failures
		s.IdleExits += ms.IdleExits
		s.Unsolicited += ms.Unsolicited
		s.Processes += ms.Processes
	}
	return s
}

// Stderr returns the tail of the standard error of each member's current or
// last process, each under a line naming the member when more than one
// wrote anything.
func (p *Pool) Stderr() []byte {
	var tails [][]byte
	var who []int
	for i, m := range p.members {
		if t := m.Stderr(); len(t) > 0 {
			tails, who = append(tails, t), append(who, i+1)
		}
	}
	if len(tails) <= 1 {
		if len(tails) == 0 {
			return nil
		}
		return tails[0]
	}
	var b strings.Builder
	for i, t := range tails {
		fmt.Fprintf(&b, "[testee process %d of %d]\n", who[i], len(p.members))
		b.Write(t)
		if t[len(t)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// Endings returns how each member's process ended at Close, numbered 1 to
// Size (members that never started, or had no process then, give none).
func (p *Pool) Endings() []Ending {
	var out []Ending
	for i, m := range p.members {
		for _, e := range m.Endings() {
			e.Process = i + 1
			out = append(out, e)
		}
	}
	return out
}

// Kill kills every member's process and what it started now, and closes
// the pool (Persistent.Kill).
func (p *Pool) Kill() {
	p.closed.Store(true)
	var wg sync.WaitGroup
	for _, m := range p.members {
		wg.Go(m.Kill)
	}
	wg.Wait()
}

// Close ends every member at once (Persistent.Close); requests in flight
// fail with Closed, and so does Do after Close.
func (p *Pool) Close() error {
	if p.closed.Swap(true) {
		return nil
	}
	var wg sync.WaitGroup
	for _, m := range p.members {
		wg.Go(func() { m.Close() })
	}
	wg.Wait()
	return nil
}
