package libtracer

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"sync"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/reading"
)

// Parses carrying different Checks at the same time each see their own
// faults and readings and no one else's: the Checks are values a parse
// carries, not a switch of the process. Each case's verdict follows from
// the spec and the fault's text; the concurrent runs must all give it.
func TestChecksArePerParse(t *testing.T) {
	t.Parallel()
	stamped := mk(1, OptTS|OptCR, pl42, u64le(T0)) // EX-04: CRC-32C over payload and trailer_ts
	corrupt := flip(stamped, 5, 0x01)              // a payload byte changed: its CRC fails
	cases := []struct {
		name string
		c    rules.Checks
		in   []byte
		want rules.ID // "" for accepted
	}{
		{"zero-checks-crc-fails", rules.Checks{}, corrupt, RuleCRCVerify32},
		{"crc-check-off", faultChecks(string(RuleCRCVerify32)), corrupt, ""},
		{"zero-checks-stamped", rules.Checks{}, stamped, ""},
		// The mutant's CRC leaves the trailer_ts out: the sender's CRC no
		// longer matches.
		{"crc-without-ts", faultChecks(string(MutCRCWithoutTS)), stamped, RuleCRCVerify32},
		{"zero-checks-empty-datagram", rules.Checks{}, nil, RuleTruncEmptyDatagram},
		{"empty-datagram-no-frames", rules.Checks{Readings: reading.Of(map[string]string{ReadEmptyInput: AltEmptyDatagramNoFrames})}, nil, ""},
	}
	verdict := func(err error) rules.ID {
		if v := asViolation(err); v != nil {
			return v.Rule
		}
		return ""
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				k := cases[(g+i)%len(cases)]
				if got := verdict(DecodeWith(k.c, k.in, Limits{}).FirstError()); got != k.want {
					errs <- k.name + ": Decode gave " + string(got) + ", want " + string(k.want)
					return
				}
				if _, err := ValidateWith(k.c, k.in, Limits{}); verdict(err) != k.want {
					errs <- k.name + ": Validate gave " + string(verdict(err)) + ", want " + string(k.want)
					return
				}
				if len(k.in) > 0 {
					f, err := NewStreamDecoderWith(k.c, bytes.NewReader(k.in), Limits{}).Next()
					if err == nil && f.Err != nil {
						err = f.Err
					}
					if err == io.EOF {
						err = nil
					}
					if verdict(err) != k.want {
						errs <- k.name + ": StreamDecoder gave " + string(verdict(err)) + ", want " + string(k.want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// The standard walk reads only the standard dialect: walk.go and stream.go
// name no dialect and no flag of one; every departure from libtracer-01 is
// asked of the misreading (faultwalk.go).
func TestStandardWalkReadsNoDialect(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	parse := func(name string) *ast.File {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	flags := map[string]bool{}
	ast.Inspect(parse("dialect.go"), func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == "dialect" {
			for _, f := range ts.Type.(*ast.StructType).Fields.List {
				for _, id := range f.Names {
					flags[id.Name] = true
				}
			}
		}
		return true
	})
	if len(flags) < 50 {
		t.Fatalf("found %d dialect fields", len(flags))
	}
	for _, name := range []string{"walk.go", "stream.go"} {
		ast.Inspect(parse(name), func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if flags[n.Sel.Name] {
					t.Errorf("%s: %s reads the dialect field %s", name, fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.Ident:
				switch n.Name {
				case "dialect", "stdDialect", "dialectOf", "faultReader":
					t.Errorf("%s: %s names %s", name, fset.Position(n.Pos()), n.Name)
				}
			}
			return true
		})
	}
}
