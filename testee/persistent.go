package testee

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Persistent is the adapter for a testee in persistent mode
// (docs/PROTOCOL.md, "Persistent mode"): one long-running process that reads
// JSON-line requests on standard input and answers each, in order, with one
// JSON line on standard output.
//
// The process is started on the first request, in its own process group.
// After any testee failure the whole group is killed and the failure
// returned; the next request starts the testee afresh. Do is safe for
// concurrent use; requests are answered one at a time.
type Persistent struct {
	cfg    Config
	closed atomic.Bool
	cur    atomic.Pointer[proc] // the running process, for Close to kill while a Do holds mu

	mu         sync.Mutex // serializes requests; guards the fields below
	p          *proc
	lr         *lineReader
	wbuf       []byte
	startFails int   // consecutive failures to start
	startErr   error // the last one
	lastTail   *tail // the standard error of the current or last process
	stats      Stats
	ending     *Ending // how the process ended at Close
	who        string  // the current process in the trace (Config.Trace)
}

var (
	_ Implementation = (*Persistent)(nil)
	_ Killer         = (*Persistent)(nil)
)

// Stats counts what happened to a persistent testee.
type Stats struct {
	Starts      int // processes started
	Failures    int // requests that ended in a testee failure
	IdleExits   int // times the testee was found to have exited between requests (it was restarted)
	Unsolicited int // times it was found to have written output between requests (it was restarted)
	Processes   int // processes run at once that started at least once (1 for a Persistent that started; up to Size for a Pool)
}

// Restarts is the number of starts after the first of each process.
func (s Stats) Restarts() int { return max(s.Starts-max(s.Processes, 1), 0) }

// NewPersistent returns an adapter that runs cfg.Command in persistent
// mode. It starts nothing yet.
func NewPersistent(cfg Config) (*Persistent, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Persistent{cfg: cfg}, nil
}

// Stats returns the counters so far.
func (a *Persistent) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats
}

// Stderr returns the tail of the standard error of the current process, or
// of the last one when none runs.
func (a *Persistent) Stderr() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lastTail == nil {
		return nil
	}
	return a.lastTail.Bytes()
}

// Do sends req and waits for its answer, at most the configured timeout or
// until ctx ends. See Implementation for what the results mean.
func (a *Persistent) Do(ctx context.Context, req Request) (Response, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cfg.Trace == nil {
		return a.do(ctx, req)
	}
	t0 := time.Now()
	a.who = ""
	resp, err := a.do(ctx, req)
	if a.lr != nil {
		a.lr.trace = nil
	}
	if err != nil {
		a.cfg.Trace.Failure(cmp.Or(a.who, "not started"), err, time.Since(t0))
	}
	return resp, err
}

// do is Do with the adapter locked.
func (a *Persistent) do(ctx context.Context, req Request) (Response, error) {
	if a.closed.Load() {
		return Response{}, &Failure{Kind: Closed, ID: req.ID, Op: req.Op, Detail: "the adapter is closed"}
	}
	if err := ctxDone(ctx); err != nil {
		return Response{}, &Failure{Kind: Canceled, ID: req.ID, Op: req.Op, Detail: "not sent: " + err.Error(), Err: err}
	}
	var err error
	if a.wbuf, err = appendRequestHead(a.wbuf[:0], req); err != nil { // checked before anything starts
		return Response{}, err
	}
	defer func() {
		if cap(a.wbuf) > keepLong {
			a.wbuf = nil // do not hold a huge request's memory for the rest of the run
		}
	}()
	if a.p != nil {
		// Anything the testee did between requests is no request's fault:
		// count it, start afresh, and go on.
		switch {
		case a.p.hasExited():
			a.stats.IdleExits++
			a.stop()
		case a.lr.buffered() > 0:
			a.stats.Unsolicited++
			a.stop()
		}
	}
	if a.p == nil {
		if err := a.start(); err != nil {
			if f := (*Failure)(nil); errors.As(err, &f) {
				f.ID, f.Op = req.ID, req.Op
				a.stats.Failures++
			}
			return Response{}, err
		}
	}
	p := a.p

	deadline := time.Now().Add(a.cfg.Timeout)
	callerDeadline := false
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline, callerDeadline = d, true
	}
	if ctx.Done() != nil {
		interrupted := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			now := time.Now()
			p.stdin.SetWriteDeadline(now)
			p.stdout.SetReadDeadline(now)
			close(interrupted)
		})
		defer func() {
			if !stop() {
				<-interrupted // it must not touch the deadlines of the next request
			}
		}()
	}

	// The testee's exit bounds the pipes (lifecycle.go); a deadline set
	// after it must not undo that.
	p.stdin.SetWriteDeadline(deadline)
	if p.hasExited() {
		p.boundPipes()
	}
	tm := timingFrom(ctx)
	t0 := time.Now()
	if tr := a.cfg.Trace; tr != nil {
		a.who = tracePid(p)
		tr.Request(a.who, req)
		a.lr.trace = func(line []byte) { tr.Answer(a.who, line, time.Since(t0)) }
	}
	a.wbuf, err = WriteRequest(p.stdin, a.wbuf, req)
	t1 := time.Now()
	if tm != nil {
		tm.Send = t1.Sub(t0)
		defer func() { tm.Answer = time.Since(t1) }()
	}
	if err != nil {
		return Response{}, a.fail(ctx, req, err, callerDeadline, deadline, "while writing the request")
	}
	p.stdout.SetReadDeadline(deadline)
	if p.hasExited() {
		p.boundPipes()
	}
	a.lr.expect = int(min(max(req.AnswerSize, 0), int64(a.cfg.MaxLine)))
	resp, err := a.lr.readAnswer(req.ID)
	a.lr.expect = 0
	var f *Failure
	switch {
	case errors.As(err, &f):
		f.Op = req.Op
		f.Stderr, _ = a.stopAfterFailure()
		return Response{}, f
	case err != nil:
		return Response{}, a.fail(ctx, req, err, callerDeadline, deadline, "while waiting for the answer")
	}
	return resp, nil
}

// readAnswer reads the answer line to the request numbered id and parses
// it: the answer reader of persistent mode. A line that is no well-formed
// answer is a *Failure (InvalidJSON, BadShape, WrongID); a line longer than
// the cap is errLineTooLong; the end of the input or a read error is
// returned as it is. Memory: at most the cap and the read buffer.
func (l *lineReader) readAnswer(id int64) (Response, error) {
	line, err := l.readLine()
	if err != nil {
		return Response{}, err
	}
	if l.trace != nil {
		l.trace(line)
	}
	// A line that outgrew the read buffer is in a buffer of its own: an
	// accepted answer's result keeps it rather than a copy of a 60 MB
	// line, and the reader starts a new one.
	owned := l.spilled
	resp, err := parseResponseLine(line, id, true, owned)
	if owned && err == nil && resp.Outcome == Accepted {
		l.long = nil
	}
	return resp, err
}

// ctxDone returns ctx's error, or DeadlineExceeded when its deadline has
// passed (its own timer may not have fired yet), or nil.
func ctxDone(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// start starts the testee, or fails with StartFailed, or with a
// *ResourceError when conform itself had not the resources to start it
// (not the testee's failure, and not counted as one).
func (a *Persistent) start() error {
	if a.startFails >= a.cfg.MaxStartFailures {
		return &Failure{Kind: StartFailed, Err: a.startErr, Detail: fmt.Sprintf(
			"gave up after %d consecutive failures to start %q; the last: %v", a.startFails, a.cfg.Command[0], a.startErr)}
	}
	p, err := startProc(a.cfg.Command, a.cfg.Dir, a.cfg.Env, a.cfg.StderrTail)
	if re := resourceError(fmt.Sprintf("starting %q", a.cfg.Command[0]), err); re != nil {
		return re
	}
	if err != nil {
		a.startFails++
		a.startErr = err
		return &Failure{Kind: StartFailed, Err: err, Detail: fmt.Sprintf(
			"starting %q (attempt %d of %d): %v", a.cfg.Command[0], a.startFails, a.cfg.MaxStartFailures, err)}
	}
	a.startFails = 0
	a.stats.Starts++
	a.stats.Processes = 1
	a.p, a.lastTail = p, p.errTail
	a.cur.Store(p)
	if a.closed.Load() {
		p.killTree() // Kill ran while it started, and did not see it
	}
	if a.lr == nil {
		a.lr = newLineReader(p.stdout, a.cfg.MaxLine)
	} else {
		a.lr.reset(p.stdout)
	}
	return nil
}

// stop kills and reaps the current process.
func (a *Persistent) stop() (selfExited bool) {
	selfExited = a.p.reap()
	a.p = nil
	a.cur.Store(nil)
	return selfExited
}

// stopAfterFailure counts a failure, stops the process and returns its
// stderr tail and how it ended.
func (a *Persistent) stopAfterFailure() ([]byte, string) {
	a.stats.Failures++
	p := a.p
	self := a.stop()
	return p.errTail.Bytes(), p.status(self)
}

// fail turns an I/O error on the testee's pipes into a *Failure and stops
// the process.
func (a *Persistent) fail(ctx context.Context, req Request, ioErr error, callerDeadline bool, deadline time.Time, while string) *Failure {
	p := a.p
	f := &Failure{ID: req.ID, Op: req.Op}
	pending := a.lr.pending()
	switch {
	case a.closed.Load():
		f.Kind, f.Detail = Closed, "the adapter was closed during the request"
	case errors.Is(ioErr, os.ErrDeadlineExceeded) && (ctx.Err() != nil || callerDeadline && !time.Now().Before(deadline)):
		f.Kind, f.Err = Canceled, context.Cause(ctx)
		if f.Err == nil {
			f.Err = context.DeadlineExceeded
		}
		f.Detail = fmt.Sprintf("the caller's context ended %s: %v", while, f.Err)
	case errors.Is(ioErr, os.ErrDeadlineExceeded) && !p.hasExited():
		f.Kind = Timeout
		if while == "while writing the request" {
			f.Detail = fmt.Sprintf("did not read its request within %v", a.cfg.Timeout)
		} else {
			f.Detail = fmt.Sprintf("no answer within %v", a.cfg.Timeout)
		}
	case errors.Is(ioErr, errLineTooLong):
		f.Kind = Flood
		f.Detail = fmt.Sprintf("answer line longer than the read cap of %d bytes", a.cfg.MaxLine)
	default:
		// EOF on stdout, EPIPE on stdin, or a deadline after the exit: the
		// testee is gone or going. Give it a moment to be reaped so the
		// report can say how it ended.
		f.Kind = Exited
		p.waitExit(100 * time.Millisecond)
		switch {
		case errors.Is(ioErr, os.ErrDeadlineExceeded):
			f.Detail = "exited " + while + ", its standard streams held open by a process it started"
		case errors.Is(ioErr, io.EOF):
			f.Detail = "closed its standard output " + while
		case brokenPipe(ioErr):
			f.Detail = "closed its standard input " + while
		default:
			f.Detail = "gone " + while + ": " + ioErr.Error()
		}
	}
	if pending > 0 {
		f.Detail += fmt.Sprintf(" (after %d bytes of an unterminated line)", pending)
	}
	var how string
	f.Stderr, how = a.stopAfterFailure()
	if f.Kind == Exited || f.Kind == Timeout {
		f.Detail += "; " + how
	}
	return f
}

// Close ends the testee: it closes its standard input, waits up to
// CloseGrace for it to exit, then kills it and what it started and reaps
// it; how it ended and what it wrote on its standard error meanwhile are
// kept (Endings, Stderr). A request in flight fails with Closed: its
// process is killed at once, and Close waits for the request to end at
// most closeWait (it ends as soon as the kill is noticed), never for ever.
// Do after Close fails with Closed.
func (a *Persistent) Close() error {
	if a.closed.Swap(true) {
		return nil
	}
	if !a.mu.TryLock() {
		// A request is in flight: kill the testee so it ends now.
		if p := a.cur.Load(); p != nil {
			p.kill()
		}
		if !lockWithin(&a.mu, closeWait) {
			return errors.New("testee: a request did not end within " + closeWait.String() + " of its process being killed")
		}
	}
	defer a.mu.Unlock()
	if a.p != nil {
		p := a.p
		p.stdin.Close()
		self := p.waitExit(a.cfg.CloseGrace)
		a.stop()
		e := Ending{Code: -1}
		if self {
			e.Status, e.Code = p.state.String(), p.state.ExitCode()
		} else {
			e.Status = fmt.Sprintf("killed: still running %v after its standard input was closed", a.cfg.CloseGrace)
		}
		a.ending = &e
	}
	return nil
}

// closeWait bounds how long Close waits for a request in flight to end
// once its process is killed: reap's own bounds (what it started killed
// within a second, stderrDrain) and a margin.
const closeWait = 5 * time.Second

// lockWithin locks mu unless it stays locked for d; it reports whether it
// locked it.
func lockWithin(mu *sync.Mutex, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for !mu.TryLock() {
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}

// Ending is how a persistent testee process ended when its adapter was
// closed at the end of a run: its standard input closed, given
// Config.CloseGrace to exit by itself, then killed. A sanitizer's leak
// report and its exit status come at this moment; the standard error it
// wrote then is in Stderr's tail.
type Ending struct {
	Process int    // which process of a Pool (1 to Size); 0 for a Persistent
	Status  string // "exit status 0", "exit status 3", "signal: aborted", or "killed: still running 1s after ..."
	Code    int    // the exit status; -1 when a signal ended it or it was killed
}

// Clean reports whether the process exited by itself with status 0.
func (e Ending) Clean() bool { return e.Code == 0 }

// Endings returns how the process ended at Close: nothing before Close, or
// when no process was running then.
func (a *Persistent) Endings() []Ending {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ending == nil {
		return nil
	}
	return []Ending{*a.ending}
}

// Kill kills the running process and everything it started now, without
// waiting for a request in flight or for anything else, and closes the
// adapter: for a caller that is about to exit (a second interrupt).
func (a *Persistent) Kill() {
	a.closed.Store(true)
	if p := a.cur.Load(); p != nil {
		p.killTree()
	}
}
