package testee

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// ArgsEnv is the environment variable that carries a one-shot request's
// args object, as compact JSON.
const ArgsEnv = "CONFORM_ARGS"

// OneShot is the adapter for a testee in one-shot mode (docs/PROTOCOL.md,
// "One-shot mode"): every request runs `TESTEE ARGS... OP` once, with the
// raw input bytes on standard input and the args in CONFORM_ARGS; the
// testee writes one response object (its "id" may be omitted) and exits 0
// for ok:true and unsupported:true, 1 for ok:false.
//
// Do is safe for concurrent use; each call runs its own process (group), so
// a caller may run N requests in parallel.
type OneShot struct {
	cfg    Config
	env    []string
	closed atomic.Bool

	mu      sync.Mutex
	running map[*proc]struct{} // for Close to kill
}

var (
	_ Implementation = (*OneShot)(nil)
	_ Killer         = (*OneShot)(nil)
)

// NewOneShot returns an adapter that runs cfg.Command in one-shot mode.
// MaxStartFailures and CloseGrace do not apply.
func NewOneShot(cfg Config) (*OneShot, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	// Drop an inherited CONFORM_ARGS: each request sets its own.
	clean := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if len(kv) <= len(ArgsEnv) || kv[:len(ArgsEnv)+1] != ArgsEnv+"=" {
			clean = append(clean, kv)
		}
	}
	return &OneShot{cfg: cfg, env: clean, running: map[*proc]struct{}{}}, nil
}

// Do runs the testee once for req. See Implementation for what the results mean.
func (o *OneShot) Do(ctx context.Context, req Request) (Response, error) {
	tr := o.cfg.Trace
	if tr == nil {
		return o.do(ctx, req, nil)
	}
	who := "one-shot " + req.Op
	tr.Request(who, req)
	t0 := time.Now()
	resp, err := o.do(ctx, req, func(out []byte) { tr.Answer(who, bytes.TrimSpace(out), time.Since(t0)) })
	if err != nil {
		tr.Failure(who, err, time.Since(t0))
	}
	return resp, err
}

// do is Do; trace, when set, is given the standard output as read.
func (o *OneShot) do(ctx context.Context, req Request, trace func(out []byte)) (Response, error) {
	fail := func(k Kind, err error, format string, args ...any) *Failure {
		return &Failure{Kind: k, ID: req.ID, Op: req.Op, Err: err, Detail: fmt.Sprintf(format, args...)}
	}
	if o.closed.Load() {
		return Response{}, fail(Closed, nil, "the adapter is closed")
	}
	if err := ctxDone(ctx); err != nil {
		return Response{}, fail(Canceled, err, "not run: %v", err)
	}
	args, err := compactArgs(nil, req.Args)
	if err != nil {
		return Response{}, err
	}
	if req.Op == "" {
		return Response{}, fmt.Errorf("%w: empty op", ErrInvalidRequest)
	}
	env := append(o.env[:len(o.env):len(o.env)], ArgsEnv+"="+string(args))
	argv := append(o.cfg.Command[:len(o.cfg.Command):len(o.cfg.Command)], req.Op)
	if tm := timingFrom(ctx); tm != nil {
		t0 := time.Now()
		defer func() { tm.Answer = time.Since(t0) }() // the input is written as the testee runs: all of it is the testee's
	}
	p, err := startProc(argv, o.cfg.Dir, env, o.cfg.StderrTail)
	if re := resourceError(fmt.Sprintf("starting %q", argv[0]), err); re != nil {
		return Response{}, re // conform's, not the testee's
	}
	if err != nil {
		return Response{}, fail(StartFailed, err, "starting %q: %v", argv[0], err)
	}
	if !o.track(p) {
		p.reap()
		return Response{}, fail(Closed, nil, "the adapter was closed")
	}
	defer o.untrack(p)

	deadline := time.Now().Add(o.cfg.Timeout)
	callerDeadline := false
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline, callerDeadline = d, true
	}
	stopWatch := context.AfterFunc(ctx, func() { p.stdout.SetReadDeadline(time.Now()) })
	defer stopWatch()

	// Feed the input while reading the output. A testee may stop reading
	// (say, it rejects the input early); a broken pipe is then no failure.
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		p.stdin.SetWriteDeadline(deadline)
		p.stdin.Write(req.Input)
		p.stdin.Close()
	}()
	p.stdout.SetReadDeadline(deadline)
	if p.hasExited() {
		p.boundPipes() // as the exit did (lifecycle.go)
	}
	out, rerr := readAllCapped(p.stdout, o.cfg.MaxLine)
	if errors.Is(rerr, os.ErrDeadlineExceeded) && p.hasExited() && ctx.Err() == nil && time.Now().Before(deadline) {
		// It exited, and a process it started holds its standard output
		// open: what it wrote before it exited is its answer.
		rerr = nil
	}
	if rerr == nil {
		// Standard output is closed; the exit follows.
		t := time.NewTimer(time.Until(deadline))
		select {
		case <-p.exited:
		case <-t.C:
			rerr = os.ErrDeadlineExceeded
		case <-ctx.Done():
			rerr = os.ErrDeadlineExceeded
		}
		t.Stop()
	}
	self := p.reap()
	p.stdin.SetWriteDeadline(time.Now())
	<-fed
	tailBytes := p.errTail.Bytes()
	withTail := func(f *Failure) (Response, error) {
		f.Stderr = tailBytes
		return Response{}, f
	}

	switch {
	case o.closed.Load():
		return withTail(fail(Closed, nil, "the adapter was closed during the request"))
	case errors.Is(rerr, errLineTooLong):
		return withTail(fail(Flood, nil, "standard output longer than the read cap of %d bytes", o.cfg.MaxLine))
	case rerr != nil && (ctx.Err() != nil || callerDeadline && !time.Now().Before(deadline)):
		cause := context.Cause(ctx)
		if cause == nil {
			cause = context.DeadlineExceeded
		}
		return withTail(fail(Canceled, cause, "the caller's context ended: %v", cause))
	case errors.Is(rerr, os.ErrDeadlineExceeded):
		return withTail(fail(Timeout, nil, "did not finish within %v; %s", o.cfg.Timeout, p.status(self)))
	case rerr != nil:
		return withTail(fail(Exited, rerr, "reading standard output: %v; %s", rerr, p.status(self)))
	}

	if trace != nil && len(out) > 0 {
		trace(out)
	}
	code := p.state.ExitCode()
	if len(bytes.TrimSpace(out)) == 0 {
		return withTail(fail(Exited, nil, "%s without writing a response", p.status(true)))
	}
	resp, err := parseResponse(out, req.ID, false)
	if err != nil {
		f := err.(*Failure)
		f.Op = req.Op
		f.Detail += "; " + p.status(true)
		return withTail(f)
	}
	want := 0
	if resp.Outcome == Rejected {
		want = 1
	}
	if code != want {
		return withTail(fail(BadExit, nil, "%s after an %s response; want exit status %d", p.status(true), shapes[resp.Outcome], want))
	}
	return resp, nil
}

// shapes names the response shapes as the protocol writes them.
var shapes = [...]string{Accepted: "ok:true", Rejected: "ok:false", Unsupported: "unsupported:true"}

func (o *OneShot) track(p *proc) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed.Load() {
		return false
	}
	o.running[p] = struct{}{}
	return true
}

func (o *OneShot) untrack(p *proc) {
	o.mu.Lock()
	delete(o.running, p)
	o.mu.Unlock()
}

// Close kills the processes of the requests in flight (they fail with
// Closed; each Do reaps its own and what it started); later requests fail
// with Closed at once.
func (o *OneShot) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed.Store(true)
	for p := range o.running {
		p.kill()
	}
	return nil
}

// Kill kills the processes of the requests in flight and everything they
// started now, and closes the adapter: for a caller that is about to exit.
func (o *OneShot) Kill() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed.Store(true)
	var wg sync.WaitGroup
	for p := range o.running {
		wg.Go(p.killTree)
	}
	wg.Wait()
}

// readAllCapped reads r to its end, failing with errLineTooLong once it has
// read more than max bytes.
func readAllCapped(r io.Reader, max int) ([]byte, error) {
	buf := make([]byte, 0, min(512, max+1))
	for {
		if len(buf) == cap(buf) {
			c := min(2*cap(buf), max+1)
			if c == len(buf) {
				return nil, errLineTooLong
			}
			nb := make([]byte, len(buf), c)
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > max {
			return nil, errLineTooLong
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
