package harness

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
)

// Helpers for cmd/conform: flags, the testee's start, progress, signals.

// ListFlag is a flag that may be repeated and takes comma-separated lists.
type ListFlag []string

func (l *ListFlag) String() string { return strings.Join(*l, ",") }

// Set adds the comma-separated values of s.
func (l *ListFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// TesteeOptions say how to run an external testee.
type TesteeOptions struct {
	OneShot bool
	// Jobs is how many persistent testee processes run at once (a
	// testee.Pool when above 1); one-shot mode runs as many requests at once
	// as Config.Jobs asks, whatever this says.
	Jobs          int
	Timeout       time.Duration // per request
	TimeoutPerMiB time.Duration // added to Timeout per started MiB of input
	HelloTimeout  time.Duration // for hello, the first request
	MaxResponse   int           // read cap of one answer; 0: testee.DefaultMaxLine
	StderrTail    int           // bytes of standard error kept per failure; 0: 16 KiB
	// Trace, when set, is given every request and answer line, with
	// timings, long inputs abbreviated (testee.Trace: --trace FILE).
	Trace io.Writer
}

// MaxJobs is the most vectors a run asks at once (-j): as many testee
// processes in persistent mode, or one-shot runs (docs/CONFORM.md). Each
// costs memory and file descriptors before it starts (issue 30: -j
// 10000000 took 3.4 GB for one vector); a run also asks no more at once
// than it has vectors.
const MaxJobs = 1024

// MaxDuration is the longest duration a timeout flag takes (1000 h), so
// that no deadline conform computes from them overflows (a request's is
// --timeout plus --timeout-per-mib for each of up to 64 MiB).
const MaxDuration = 1000 * time.Hour

// Check refuses, as usage errors, options under which every request would
// fail for conform's own reasons and be blamed on the testee (issue 30: a
// negative --timeout gave a testee failure for every vector,
// --hello-timeout 0 "the testee could not be run"): a timeout of zero or
// less, a per-MiB timeout below zero, a duration over MaxDuration, a read
// cap below zero (0 selects the default), Jobs over MaxJobs.
func (o TesteeOptions) Check() error {
	for _, d := range []struct {
		flag   string
		v      time.Duration
		zeroOK bool
	}{
		{"--timeout", o.Timeout, false},
		{"--timeout-per-mib", o.TimeoutPerMiB, true},
		{"--hello-timeout", o.HelloTimeout, false},
	} {
		switch {
		case d.v < 0:
			return fmt.Errorf("%s %v: a duration below zero", d.flag, d.v)
		case d.v == 0 && !d.zeroOK:
			return fmt.Errorf("%s 0: every request would time out at once; give a duration above zero", d.flag)
		case d.v > MaxDuration:
			return fmt.Errorf("%s %v: longer than the longest allowed, %v", d.flag, d.v, MaxDuration)
		}
	}
	switch {
	case o.MaxResponse < 0:
		return fmt.Errorf("--max-response %d: below zero", o.MaxResponse)
	case o.Jobs < 0 || o.Jobs > MaxJobs:
		return fmt.Errorf("-j %d: from 1 to %d", o.Jobs, MaxJobs)
	}
	return nil
}

// Testee is a started external testee: Impl enforces the timeouts; Stats,
// Stderr and Endings are set in persistent mode.
type Testee struct {
	Impl    testee.Implementation
	Stats   func() testee.Stats
	Stderr  func() []byte
	Endings func() []testee.Ending
}

// StartTestee returns the adapter for command (nothing starts before the
// first request), wrapped with Timeouts; options Check refuses are an
// error.
func StartTestee(command []string, opt TesteeOptions) (*Testee, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	if opt.StderrTail <= 0 {
		opt.StderrTail = 16 << 10
	}
	cfg := testee.Config{
		Command:    command,
		Timeout:    AdapterTimeout(opt.HelloTimeout, opt.Timeout, opt.TimeoutPerMiB),
		MaxLine:    opt.MaxResponse,
		StderrTail: opt.StderrTail,
	}
	if opt.Trace != nil {
		cfg.Trace = testee.NewTrace(opt.Trace)
	}
	if opt.OneShot {
		a, err := testee.NewOneShot(cfg)
		if err != nil {
			return nil, err
		}
		return &Testee{Impl: Timeouts(a, opt.HelloTimeout, opt.Timeout, opt.TimeoutPerMiB)}, nil
	}
	if opt.Jobs > 1 {
		a, err := testee.NewPool(cfg, opt.Jobs)
		if err != nil {
			return nil, err
		}
		return &Testee{Impl: Timeouts(a, opt.HelloTimeout, opt.Timeout, opt.TimeoutPerMiB), Stats: a.Stats, Stderr: a.Stderr, Endings: a.Endings}, nil
	}
	a, err := testee.NewPersistent(cfg)
	if err != nil {
		return nil, err
	}
	return &Testee{Impl: Timeouts(a, opt.HelloTimeout, opt.Timeout, opt.TimeoutPerMiB), Stats: a.Stats, Stderr: a.Stderr, Endings: a.Endings}, nil
}

// TesteeFlags are the flags every command that starts a testee shares
// (conform run, smoke and features): the three timeouts and --trace.
type TesteeFlags struct {
	Timeout, TimeoutPerMiB, HelloTimeout *time.Duration
	Trace                                *string
}

// AddTesteeFlags defines the shared testee flags on fs with conform's
// defaults (docs/CONFORM.md).
func AddTesteeFlags(fs *flag.FlagSet) TesteeFlags {
	return TesteeFlags{
		Timeout:       fs.Duration("timeout", 10*time.Second, "per-request timeout"),
		TimeoutPerMiB: fs.Duration("timeout-per-mib", 500*time.Millisecond, "added to the per-request timeout for every started MiB of input"),
		HelloTimeout:  fs.Duration("hello-timeout", 5*time.Minute, "timeout of the first request, hello (allows for go run compiling)"),
		Trace:         fs.String("trace", "", TraceUsage),
	}
}

// Options are the TesteeOptions the parsed flags give (the timeouts; the
// trace is opened with OpenTrace).
func (f TesteeFlags) Options() TesteeOptions {
	return TesteeOptions{Timeout: *f.Timeout, TimeoutPerMiB: *f.TimeoutPerMiB, HelloTimeout: *f.HelloTimeout}
}

// Start opens the file the --trace flag names (OpenTrace) and starts the
// testee command with opts and that trace (StartTestee); closeTrace
// closes the file after the testee is done.
func (f TesteeFlags) Start(command []string, opts TesteeOptions, stderr io.Writer) (t *Testee, closeTrace func() error, err error) {
	w, closeTrace, err := OpenTrace(*f.Trace, stderr)
	if err != nil {
		return nil, nil, err
	}
	opts.Trace = w
	if t, err = StartTestee(command, opts); err != nil {
		closeTrace()
		return nil, nil, err
	}
	return t, closeTrace, nil
}

// TraceUsage is the help text of the --trace flag.
const TraceUsage = "write every request and answer line, with timings (long inputs abbreviated), to `file` (- for standard error)"

// OpenTrace opens the file of a --trace flag: nil for "", stderr for
// "-", else the file, created or truncated. close closes it.
func OpenTrace(file string, stderr io.Writer) (w io.Writer, close func() error, err error) {
	switch file {
	case "":
		return nil, func() error { return nil }, nil
	case "-":
		return stderr, func() error { return nil }, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, nil, &SetupError{Err: fmt.Errorf("--trace: %w", err)}
	}
	return f, f.Close, nil
}

// ProgramName is how a rerun command names conform: "go run ./cmd/conform"
// when it runs from a go run build directory (.../go-build.../exe/conform),
// else argv0 as invoked.
func ProgramName(argv0 string) string {
	if p := filepath.ToSlash(argv0); strings.Contains(p, "/go-build") && filepath.Base(filepath.Dir(p)) == "exe" {
		return "go run ./cmd/conform"
	}
	return argv0
}

// SetFlags returns the flags of fs that were set, except those in omit,
// as "--name=value" (a bool flag "--name", when true), in name order.
func SetFlags(fs *flag.FlagSet, omit []string) []string {
	var flags []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(omit, f.Name) {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if f.Value.String() == "true" {
				flags = append(flags, "--"+f.Name)
			}
			return
		}
		flags = append(flags, "--"+f.Name+"="+f.Value.String())
	})
	return flags
}

// RerunFunc returns the function that builds the command rerunning one
// vector: prog, the subcommand, the flags of fs that were set except those
// in omit, --id and the testee command.
func RerunFunc(prog, sub string, fs *flag.FlagSet, omit []string, command []string) func(id string) string {
	head := prog + " " + sub
	if flags := SetFlags(fs, omit); len(flags) > 0 {
		head += " " + ShellJoin(flags)
	}
	tail := " -- " + ShellJoin(command)
	return func(id string) string {
		return head + " --id " + shellQuote(globEscape(id)) + tail
	}
}

// ShowFunc returns the function that builds the command printing one
// vector of vectorsDir and writing its input bytes to FILE.
func ShowFunc(prog, vectorsDir string) func(id string) string {
	head := prog + " show"
	if vectorsDir != "vectors" {
		head += " " + shellQuote("--vectors="+vectorsDir)
	}
	return func(id string) string { return head + " --write FILE " + shellQuote(id) }
}

// globEscape escapes the characters path.Match treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// ProgressLine returns a Progress callback that redraws one line on w (a
// terminal) at most ten times a second, and a function that clears it.
func ProgressLine(w io.Writer) (update func(Progress), clear func()) {
	var last time.Time
	draw, clear := RedrawLine(w)
	update = func(p Progress) {
		if now := time.Now(); p.Done < p.Total && now.Sub(last) < 100*time.Millisecond {
			return
		} else {
			last = now
		}
		draw(fmt.Sprintf("conform: %d/%d vectors, %d failed, %d not applicable, %.1fs",
			p.Done, p.Total, p.Failed, p.NotApplicable, p.Elapsed.Seconds()))
	}
	return update, clear
}

// RedrawLine returns a function that redraws one line on w (a terminal)
// and one that clears it; a caller that calls draw from several goroutines
// serializes the calls itself.
func RedrawLine(w io.Writer) (draw func(string), clear func()) {
	var mu sync.Mutex
	drawn := false
	draw = func(s string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprint(w, "\r\033[K"+s)
		drawn = true
	}
	clear = func() {
		mu.Lock()
		defer mu.Unlock()
		if drawn {
			fmt.Fprint(w, "\r\033[K")
			drawn = false
		}
	}
	return draw, clear
}

// OnInterrupt returns a context canceled by the first SIGINT or SIGTERM
// (on Windows: Ctrl-C, Ctrl-Break, or the console closing); on a second, it
// calls hard (which should kill the testee at once: testee.Killer) and
// exits with ExitInterrupted, after hardLimit at the latest, whatever hard
// is doing then. stop releases the signal handler.
func OnInterrupt(parent context.Context, note io.Writer, hard func()) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
		case <-done:
			return
		}
		fmt.Fprintln(note, "\nconform: interrupted; stopping the testee and writing the report (interrupt again to quit at once)")
		cancel()
		select {
		case <-ch:
			killed := make(chan struct{})
			go func() {
				hard()
				close(killed)
			}()
			t := time.NewTimer(hardLimit)
			select {
			case <-killed:
			case <-t.C:
				fmt.Fprintln(note, "conform: the testee was not killed within", hardLimit, "; quitting all the same")
			}
			os.Exit(ExitInterrupted)
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
}

// hardLimit bounds how long the second interrupt waits for hard: killing
// each testee process and what it started takes a second at most
// (testee.Killer).
const hardLimit = 3 * time.Second

// Usage returns a flag.FlagSet usage function that prints head and the
// flags of fs except the hidden ones.
func Usage(fs *flag.FlagSet, head string, hidden ...string) func() {
	return func() {
		w := fs.Output()
		fmt.Fprint(w, head)
		fs.VisitAll(func(f *flag.Flag) {
			for _, h := range hidden {
				if f.Name == h {
					return
				}
			}
			name, usage := flag.UnquoteUsage(f)
			prefix := "-"
			if len(f.Name) > 1 {
				prefix = "--"
			}
			line := "  " + prefix + f.Name
			if name != "" {
				line += " " + name
			}
			fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
				fmt.Fprintf(w, " (default %s)", f.DefValue)
			}
			fmt.Fprintln(w)
		})
	}
}

// ParseFaults reads the value of the hidden --fault flag of conform serve:
// comma-separated rule IDs whose enforcement internal/fault switches off,
// or named mutant IDs (MUT-…) it switches on. It returns the IDs and those
// of them the specs' rule catalogs and mutant lists do not know.
func ParseFaults(specs *spec.Set, s string) (ids, unknown []string, err error) {
	var l ListFlag
	l.Set(s)
	mutants := map[string]bool{}
	for _, mu := range specs.Mutants() {
		mutants[string(mu.ID)] = true
	}
	for _, id := range l {
		if !specs.RuleIDPattern().MatchString(id) && !specs.MutantIDPattern().MatchString(id) {
			return nil, nil, fmt.Errorf("--fault %q: neither a rule ID (%s-<AREA>-<nn>) nor a mutant ID (MUT-%s-<WORDS>)", id, strings.Join(specs.Prefixes(), "|"), strings.Join(specs.Prefixes(), "|"))
		}
		if _, rule := specs.Rule(rules.ID(id)); !rule && !mutants[id] {
			unknown = append(unknown, id)
		}
	}
	return l, unknown, nil
}

// ParseReadings parses the value of `conform serve --reading`: comma-separated
// ID=ALTERNATIVE pairs (HR-READ-03=zero-previous-hash-rejected), each a
// reading of one of the specs and one of its alternatives (docs/READINGS.md).
func ParseReadings(specs *spec.Set, s string) (map[string]string, error) {
	var l ListFlag
	l.Set(s)
	m := map[string]string{}
	for _, p := range l {
		id, alt, ok := strings.Cut(p, "=")
		if !ok || id == "" || alt == "" {
			return nil, fmt.Errorf("--reading %q: want ID=ALTERNATIVE (<PREFIX>-READ-<nn>=<alternative>, docs/READINGS.md)", p)
		}
		if _, dup := m[id]; dup {
			return nil, fmt.Errorf("--reading: %s given twice", id)
		}
		m[id] = alt
	}
	if err := specs.CheckTaken(m); err != nil {
		return nil, fmt.Errorf("--reading: %w", err)
	}
	return m, nil
}
