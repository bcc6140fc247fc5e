package spec

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/testee"
)

// Handler answers one operation under e. It returns the result for
// accepted input (a value MarshalResult encodes), or an error: a
// *rules.Violation (or an error wrapping one) for rejected input,
// ErrUnsupported (wrapped, see Unsupported) for arguments it does not
// implement, or testee.ErrInvalidRequest (wrapped) for a request built
// wrong.
type Handler func(e Env, req testee.Request) (any, error)

// Env is what a handler answers under: the caps on the bounds a request
// may ask for, checked before any work, and the rules.Checks every parse
// and construction it runs carries (faults and readings; the zero Checks
// enforces every rule and takes every default reading).
type Env struct {
	Caps   Caps
	Checks rules.Checks
}

// Caps are the largest bounds a request may ask the reference for, by the
// hello limit that advertises each (docs/PROTOCOL.md, "Arguments"). A
// request that asks for more is answered unsupported, naming the bound and
// its cap, before any work is done; a bound a request leaves out takes its
// default, which is never above the cap.
type Caps map[string]int64

// ErrUnsupported marks a request whose arguments the reference does not
// implement (the mark mode 009, for example); it is answered with
// unsupported, never as a rejection.
var ErrUnsupported = errors.New("unsupported")

// Unsupported returns an error wrapping ErrUnsupported with the message.
func Unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// DecodeArgs decodes req's arguments into v, reporting a malformed object
// as a request built wrong.
func DecodeArgs(req testee.Request, v any) error {
	if err := req.DecodeArgs(v); err != nil {
		return fmt.Errorf("%w: %s args: %v", testee.ErrInvalidRequest, req.Op, err)
	}
	return nil
}

// Bound checks one bound argument v (nil: absent) against its cap (the
// hello limit named limit) and the floor 1: it returns the value to use
// (def when absent, never above the cap) or an unsupported error naming
// the bound, its cap and the limit.
func (c Caps) Bound(name string, v *int64, def int64, limit string) (int64, error) {
	cap := c[limit]
	if v == nil {
		return min(def, cap), nil
	}
	switch {
	case *v < 1:
		return 0, Unsupported("%s %d: bounds below 1 are not supported", name, *v)
	case *v > cap:
		return 0, Unsupported("%s %d is above this testee's cap %d (hello limits %s)", name, *v, cap, limit)
	}
	return *v, nil
}

// CheckArgs encodes an argument struct as a request line carries it and
// reads it back as a testee would: it reports an error unless the JSON
// object sent is want and the value read back is args (for the wings'
// tests that their arguments are the members docs/PROTOCOL.md names).
func CheckArgs[T any](args T, want string) error {
	raw, err := testee.MarshalArgs(args)
	if err != nil {
		return err
	}
	line, err := testee.AppendRequest(nil, testee.Request{Op: "x", Args: raw})
	if err != nil {
		return err
	}
	req, err := testee.ParseRequest(line[:len(line)-1])
	if err != nil {
		return err
	}
	var back T
	if err := req.DecodeArgs(&back); err != nil {
		return err
	}
	if string(raw) != want || !reflect.DeepEqual(back, args) {
		return fmt.Errorf("%+v: encodes as %s and reads back as %+v; want %s", args, raw, back, want)
	}
	return nil
}
