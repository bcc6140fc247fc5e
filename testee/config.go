package testee

import (
	"errors"
	"time"
)

// Config describes how to run an external testee. The zero values of the
// numeric fields select the defaults.
type Config struct {
	Command []string      // TESTEE ARGS...: the program and its arguments
	Dir     string        // working directory; "" is conform's
	Env     []string      // environment as "KEY=value"; nil inherits conform's
	Timeout time.Duration // per request; default 10 s

	// MaxLine bounds one response: a persistent-mode line (without its LF) or
	// a one-shot standard output; default 128 MiB. Longer is a Flood failure.
	MaxLine int
	// StderrTail is how many of the last bytes of the testee's standard error
	// are kept for the report; default 64 KiB.
	StderrTail int
	// MaxStartFailures (persistent mode) is how many consecutive failures to
	// start the testee are tolerated before every further request fails at
	// once with StartFailed; default 3.
	MaxStartFailures int
	// CloseGrace (persistent mode) is how long Close waits for the testee to
	// exit after closing its standard input, before killing it; default 1 s.
	CloseGrace time.Duration
	// Trace, when set, is given every request line sent and every answer
	// line read, with timings (conform's --trace FILE).
	Trace *Trace
}

// Defaults of Config.
const (
	DefaultTimeout          = 10 * time.Second
	DefaultMaxLine          = 128 << 20
	DefaultStderrTail       = 64 << 10
	DefaultMaxStartFailures = 3
	DefaultCloseGrace       = time.Second
)

func (c Config) withDefaults() (Config, error) {
	if len(c.Command) == 0 || c.Command[0] == "" {
		return c, errors.New("testee: no command given")
	}
	c.Command = append([]string(nil), c.Command...)
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxLine <= 0 {
		c.MaxLine = DefaultMaxLine
	}
	if c.StderrTail <= 0 {
		c.StderrTail = DefaultStderrTail
	}
	if c.MaxStartFailures <= 0 {
		c.MaxStartFailures = DefaultMaxStartFailures
	}
	if c.CloseGrace <= 0 {
		c.CloseGrace = DefaultCloseGrace
	}
	return c, nil
}
