package testee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Implementation is the one seam between the checks (the godog steps,
// conform) and what they check: the in-process reference, or an external
// testee behind the Persistent or OneShot adapter.
//
// Do answers one request. A rejection is a Response with Outcome Rejected
// and a nil error. A non-nil error is a testee failure, a *Failure, except
// for errors wrapping ErrInvalidRequest, which report a request the caller
// built wrong, and a *ResourceError, for a testee conform had not the
// resources of its own to start (file descriptors, memory). Close releases the implementation (for external testees: ends
// the process and everything it started).
type Implementation interface {
	Do(ctx context.Context, req Request) (Response, error)
	Close() error
}

// Killer is implemented by the external adapters (Persistent, Pool,
// OneShot): Kill ends every testee process they run, and everything those
// started, at once, without waiting for a request in flight or for the
// testee to exit by itself, and closes the adapter. It is for a caller about
// to exit (conform's second interrupt), which must not wait on anything.
type Killer interface {
	Kill()
}

// Hello is a testee's answer to hello (docs/PROTOCOL.md, "The handshake").
type Hello struct {
	Protocol int // always ProtocolVersion
	// Implementation names the testee in one line, shown in the report:
	// hello's "implementation" when it is a string, else the block's
	// name, version and language (ImplementationInfo.String).
	Implementation string
	// Info is hello's "implementation" when it is an object: the
	// implementation block (nil when hello gave a string or nothing).
	Info     *ImplementationInfo
	Ops      []string                   // the operations it implements
	Profiles []string                   // the optional capabilities it claims
	Limits   map[string]json.RawMessage // informational: the testee's own resource limits
	// Capabilities are the optional ways of speaking the protocol the
	// testee claims (CapabilityInputPath); unlike profiles they decide how
	// requests are sent, not which vectors apply. Unknown ones are kept and
	// ignored.
	Capabilities []string
	// Readings are the alternatives the testee declares it takes (reading ID
	// to alternative, docs/READINGS.md); a reading it does not list is taken
	// at the project's default. Optional in hello.
	Readings map[string]string
	// AllOps is true when the testee answered hello with unsupported: it is
	// then taken to claim every operation and no profile.
	AllOps bool
}

// ImplementationInfo is hello's optional implementation block
// (docs/PROTOCOL.md, "The implementation block"): which implementation,
// at which version, answers, so that a report or a claim pins it. Every
// member but Name is optional.
type ImplementationInfo struct {
	Name     string `json:"name"`
	Version  string `json:"version,omitempty"`
	Language string `json:"language,omitempty"` // "Go 1.27.3", "Python 3", "JavaScript (Node 18 or later)"
	Source   string `json:"source,omitempty"`   // where its source is (a repository URL, a path)
	Homepage string `json:"homepage,omitempty"`
	// Data are the versions of the data it carries where they decide
	// answers, by name: {"unicode":"17.0.0"} for the NFC tables.
	Data map[string]string `json:"data,omitempty"`
}

// String is the block in one line: "name version (language)".
func (i *ImplementationInfo) String() string {
	s := i.Name
	if i.Version != "" {
		s += " " + i.Version
	}
	if i.Language != "" {
		s += " (" + i.Language + ")"
	}
	return s
}

// parseImplementation reads hello's "implementation": a string (free
// text) or the implementation block, an object whose "name" is a
// non-empty string, whose "version", "language", "source" and "homepage"
// are strings when present and whose "data" maps names to strings.
func parseImplementation(raw json.RawMessage, h *Hello) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if !isObject(raw) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf(`hello result: "implementation" is %s, neither a string nor an implementation block (an object): %v`, excerpt(raw), err)
		}
		h.Implementation = s
		return nil
	}
	var info ImplementationInfo
	if err := json.Unmarshal(raw, &info); err != nil {
		return fmt.Errorf(`hello result: "implementation" block: %v`, err)
	}
	if info.Name == "" {
		return errors.New(`hello result: the "implementation" block has no "name" (a non-empty string)`)
	}
	h.Info, h.Implementation = &info, info.String()
	return nil
}

// CapabilityInputPath is the capability of reading a persistent-mode
// request's input from a file: a testee that claims it gets "input_path"
// (the absolute path of a read-only file holding exactly the input bytes)
// instead of "input" (docs/PROTOCOL.md, "Inputs by path").
const CapabilityInputPath = "input-path"

// ClaimsCapability reports whether the testee claims capability c.
func (h *Hello) ClaimsCapability(c string) bool {
	return slices.Contains(h.Capabilities, c)
}

// Claims reports whether the testee implements op.
func (h *Hello) Claims(op string) bool {
	return h.AllOps || slices.Contains(h.Ops, op)
}

// ClaimsProfile reports whether the testee claims profile p.
func (h *Hello) ClaimsProfile(p string) bool {
	return slices.Contains(h.Profiles, p)
}

// Applies reports whether a vector of operation op that needs the given
// profiles applies to the testee: it claims op and every profile. A vector
// that does not apply is reported as not applicable, never as a failure.
func (h *Hello) Applies(op string, profiles []string) bool {
	if !h.Claims(op) {
		return false
	}
	for _, p := range profiles {
		if !h.ClaimsProfile(p) {
			return false
		}
	}
	return true
}

// HelloRequest is the first request conform sends:
// {"id":0,"op":"hello","args":{},"input":""}.
func HelloRequest() Request { return Request{ID: 0, Op: OpHello} }

// Handshake sends hello to impl and returns what the testee claims. An
// unsupported answer claims every operation and no profile; a rejection or
// a result that is not a valid hello result is a *Failure of Kind BadHello.
func Handshake(ctx context.Context, impl Implementation) (*Hello, error) {
	req := HelloRequest()
	resp, err := impl.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) (*Hello, error) {
		return nil, &Failure{Kind: BadHello, ID: req.ID, Op: req.Op, Detail: fmt.Sprintf(format, args...)}
	}
	switch resp.Outcome {
	case Unsupported:
		return &Hello{Protocol: ProtocolVersion, AllOps: true}, nil
	case Rejected:
		return bad("hello rejected: %s: %s", resp.Code, resp.Detail)
	}
	h, err := ParseHello(resp.Result)
	if err != nil {
		return bad("%v", err)
	}
	return h, nil
}

// ParseHello parses a hello result object strictly: "protocol" must be the
// integer 1; "ops" and "profiles" arrays of strings; "limits" an object;
// "implementation", when present, a string or the implementation block
// (ImplementationInfo); "capabilities", when present, an array of strings.
func ParseHello(result json.RawMessage) (*Hello, error) {
	var raw struct {
		Protocol       json.RawMessage            `json:"protocol"`
		Implementation json.RawMessage            `json:"implementation"`
		Ops            *[]string                  `json:"ops"`
		Profiles       *[]string                  `json:"profiles"`
		Limits         map[string]json.RawMessage `json:"limits"`
		Capabilities   *[]string                  `json:"capabilities"`
		Readings       json.RawMessage            `json:"readings"`
	}
	if !isObject(result) {
		return nil, errors.New("hello result is not an object")
	}
	if err := json.Unmarshal(result, &raw); err != nil {
		return nil, fmt.Errorf("hello result: %v", err)
	}
	h := &Hello{}
	switch {
	case raw.Protocol == nil:
		return nil, errors.New(`hello result without "protocol"`)
	case string(raw.Protocol) != "1":
		return nil, fmt.Errorf(`hello result: "protocol" is %s; this conform speaks protocol 1`, excerpt(raw.Protocol))
	case raw.Ops == nil:
		return nil, errors.New(`hello result without "ops" (a list of operations)`)
	case raw.Profiles == nil:
		return nil, errors.New(`hello result without "profiles" (a list, possibly empty)`)
	case raw.Limits == nil:
		return nil, errors.New(`hello result without "limits" (an object, possibly empty)`)
	}
	h.Protocol = ProtocolVersion
	if err := parseImplementation(raw.Implementation, h); err != nil {
		return nil, err
	}
	h.Ops, h.Profiles, h.Limits = *raw.Ops, *raw.Profiles, raw.Limits
	if raw.Capabilities != nil {
		h.Capabilities = *raw.Capabilities
	}
	if len(raw.Readings) > 0 && string(raw.Readings) != "null" {
		if !isObject(raw.Readings) {
			return nil, fmt.Errorf(`hello result: "readings" is %s, not an object of reading IDs to alternatives`, excerpt(raw.Readings))
		}
		if err := json.Unmarshal(raw.Readings, &h.Readings); err != nil {
			return nil, fmt.Errorf(`hello result: "readings" must map reading IDs to alternative names (strings): %v`, err)
		}
	}
	return h, nil
}
