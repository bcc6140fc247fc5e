package libtracer

import (
	"bytes"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/steps"
)

// The step helpers build the features' inputs; these tests hold them to
// known answers from the spec and docs/DECISIONS.md (CRC check values) and to the
// worked-example bytes of docs/libtracer.md, computed there by a separate
// bit-by-bit CRC in Python.

func TestStepCRCCheckValues(t *testing.T) {
	check := []byte("123456789")
	for _, c := range []struct {
		m    crcModel
		want uint32
	}{
		{crc32C, 0xE3069283}, // LT-CRC-04
		{crc16, 0x29B1},      // LT-CRC-08
		// The bitwise loop with the CRC-32C parameters agrees with hash/crc32.
		{crcModel{width: 32, poly: 0x1EDC6F41, init: 0xFFFFFFFF, refin: true, refout: true, xorout: 0xFFFFFFFF}, 0xE3069283},
		// Catalogued CRCs, to show the variant parameters mean what they say
		// (reveng's catalogue: CRC-32/ISO-HDLC, CRC-16/XMODEM, CRC-16/KERMIT).
		{crcModel{width: 32, poly: 0x04C11DB7, init: 0xFFFFFFFF, refin: true, refout: true, xorout: 0xFFFFFFFF}, 0xCBF43926},
		{crcModel{width: 16, poly: 0x1021, init: 0x0000}, 0x31C3},
		{crcModel{width: 16, poly: 0x1021, init: 0x0000, refin: true, refout: true}, 0x2189},
	} {
		if got := c.m.sum(check); got != c.want {
			t.Errorf("%+v: check %#x, want %#x", c.m, got, c.want)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := parseBytes(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStepBuilders(t *testing.T) {
	crc := func(frame, name, variant string) string {
		m, err := model(name)
		if err != nil {
			t.Fatal(err)
		}
		v, err := parseVariant(m, variant)
		if err != nil {
			t.Fatal(err)
		}
		b, err := appendCRC(mustHex(t, frame), v)
		if err != nil {
			t.Fatal(err)
		}
		return hex.EncodeToString(b)
	}
	for _, c := range []struct{ name, got, want string }{
		{"LT-EX-05", crc("01 10 05 00 AA BB CC DD EE", "CRC-32C", ""), "01100500aabbccddeeb6c91223"},
		{"LT-EX-04", crc("01 30 04 00 2a 00 00 00 T0", "CRC-32C", ""), "013004002a0000000000a02d1fe5ab186a09504d"},
		{"LT-EX-05 smallest", crc("01 14 05 00 aa bb cc dd ee", "CRC-16-CCITT", ""), "01140500aabbccddee05be"},
		{"LT-SIZE-02", crc("01 14 02 00 ca fe", "CRC-16-CCITT", ""), "01140200cafe41ea"},
		{"LT-SIZE-06", crc("01 32 02 00 ca fe e8 03 00 00", "CRC-32C", ""), "01320200cafee8030000a2089c54"},
		{"LT-SIZE-05", crc("01 36 02 00 ca fe e8 03 00 00", "CRC-16-CCITT", ""), "01360200cafee8030000a59e"},
		{"big-endian", crc("01 10 05 00 AA BB CC DD EE", "CRC-32C", "written big-endian"), "01100500aabbccddee2312c9b6"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got, c.want)
		}
	}

	var s state
	if err := s.givenPath(`NAME children "sensor" and "temp"`, "CRC-32C"); err != nil {
		t.Fatal(err)
	}
	if want := mustHex(t, "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47"); !bytes.Equal(s.input, want) {
		t.Errorf("LT-EX-06: %x, want %x", s.input, want)
	}

	s = state{}
	if err := s.givenValueOpt("ca fe", "36"); err != nil {
		t.Fatal(err)
	}
	if want := mustHex(t, "80 60 0c 00 01 36 02 00 ca fe e8 03 00 00 a5 9e T0"); !bytes.Equal(s.input, want) {
		t.Errorf("VALUE with opt 36: %x, want %x", s.input, want)
	}

	// LT-TS-05: the ADC record of docs/libtracer.md, from a frame table.
	rows := []tableRow{
		{depth: 0, typ: 0x80, opt: 0x60, stamp: &trailerStamp{abs: t0}},
		{depth: 1, typ: 0x01, opt: 0x22, payload: []byte{0x64, 0, 0, 0}, stamp: &trailerStamp{rel: true, off: 0}},
		{depth: 1, typ: 0x01, opt: 0x22, payload: []byte{0x65, 0, 0, 0}, stamp: &trailerStamp{rel: true, off: 1}},
		{depth: 1, typ: 0x01, opt: 0x22, payload: []byte{0x66, 0, 0, 0}, stamp: &trailerStamp{rel: true, off: 2}},
	}
	b, tree, err := buildFrames(rows, false)
	if err != nil {
		t.Fatal(err)
	}
	want := mustHex(t, "80 60 24 00  01 22 04 00 64 00 00 00 00 00 00 00  01 22 04 00 65 00 00 00 01 00 00 00  01 22 04 00 66 00 00 00 02 00 00 00 T0")
	if !bytes.Equal(b, want) {
		t.Errorf("ADC record: %x, want %x", b, want)
	}
	if tree[0].children != 3 || tree[2].offset != 16 || tree[3].resolved != t0+2 || tree[3].length != 4 {
		t.Errorf("ADC record tree: %+v", tree)
	}

	// A nest of 3 around the empty STATUS; LL=1 once a payload passes 65535.
	if got, want := hex.EncodeToString(nest(3, mustHex(t, "09 00 00 00"))), "80400c00"+"80400800"+"80400400"+"09000000"; got != want {
		t.Errorf("nest: %s, want %s", got, want)
	}
	big := nest(2, make([]byte, 0xFFFE))
	if !bytes.Equal(big[:10], mustHex(t, "80 48 02 00 01 00  80 40 fe ff")) {
		t.Errorf("nest over 64 KiB: % x", big[:10])
	}
}

func TestStepByteStrings(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"09 00 00 00", "09000000"},
		{"0x0A ff", "0aff"},
		{"T0", "0000a02d1fe5ab18"},
		{"T0+1", "0100a02d1fe5ab18"},
		{"aa [5 bytes i mod 3] bb", "aa0001020001bb"},
		{"[3 bytes i mod 251][2 bytes i mod 251]", "0001020001"},
	} {
		b, err := parseBytes(c.in)
		if err != nil || hex.EncodeToString(b) != c.want {
			t.Errorf("%q: %x %v, want %s", c.in, b, err, c.want)
		}
	}
	for _, bad := range []string{"0", "zz", "T1", "[3 bytes i mod 0]"} {
		if _, err := parseBytes(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	for _, c := range []struct {
		in   string
		want uint64
	}{{"T0", t0}, {"T0+1000", t0 + 1000}, {"T0-1", t0 - 1}, {"18446744073709551615", 1<<64 - 1}} {
		if got, err := parseTime(c.in); err != nil || got != c.want {
			t.Errorf("time %q: %d %v", c.in, got, err)
		}
	}
	if _, err := receiveArgs(" on a stream with per-frame reports and a work budget of 7"); err != nil {
		t.Error(err)
	}
	if _, err := receiveArgs(" over carrier pigeon"); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("unknown receiver option: %v", err)
	}
}

// Every libtracer feature rule has the catalog's level (@should on exactly
// the SHOULD rules) and sits in a feature tagged @libtracer.
func TestFeatureLevels(t *testing.T) {
	inv, err := steps.LoadInventory(spec.MustSet(tracerspec.Spec), []string{"../../features/libtracer"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range inv.Rules {
		if r.Spec != "libtracer" {
			t.Errorf("%s (%s:%d) is not a libtracer rule", r.ID, r.URI, r.Line)
			continue
		}
		n++
		c, ok := tracerspec.Spec.Rule(rules.ID(r.ID))
		if !ok {
			continue // checkTraceability reports it
		}
		if got, want := r.Level(), c.Level.String(); got != want {
			t.Errorf("%s (%s:%d) is %s in the features, %s in the catalog", r.ID, r.URI, r.Line, got, want)
		}
		if !slices.Contains(r.Tags, "@libtracer") {
			t.Errorf("%s (%s:%d): its feature is not tagged @libtracer", r.ID, r.URI, r.Line)
		}
	}
	if n == 0 {
		t.Fatal("no libtracer feature rules")
	}
}

// FuzzStepBytes: the byte-string reader never panics, and what it
// reads is read back the same from its plain hex.
func FuzzStepBytes(f *testing.F) {
	for _, s := range []string{"09 00 00 00", "T0 T0+1 T0-5", "aa [5 bytes i mod 3] bb", "0x", "[3 bytes i mod 0]", "T0+", "zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := parseBytes(s)
		if err != nil {
			return
		}
		again, err := parseBytes(hex.EncodeToString(b))
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%q read as %x, its hex read as %x (%v)", s, b, again, err)
		}
	})
}
