package libtracer

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The JSON of a result, written out by hand from the worked examples.
func TestResultJSON(t *testing.T) {
	t.Parallel()
	in := cat(
		hx(t, "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47"),
		rec(OptTS, u64le(T0), mk(1, OptTS|OptTF|OptCR|OptCW, nil, i32le(-7))),
		mk(0x0e, 0, nil, nil),
		[]byte{0x01},
	)
	got, err := json.Marshal(Decode(in, Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"frames":[` +
		`{"offset":0,"type":6,"opt":80,"length":18,"class":"core","name":"PATH","children":[` +
		`{"offset":4,"type":2,"opt":0,"length":6,"class":"core","name":"NAME","payload":"73656e736f72"},` +
		`{"offset":14,"type":2,"opt":0,"length":4,"class":"core","name":"NAME","payload":"74656d70"}],` +
		`"crc":{"width":32,"value":"47ab70f3"}},` +
		`{"offset":26,"type":128,"opt":96,"length":10,"class":"user","children":[` +
		`{"offset":30,"type":1,"opt":54,"length":0,"class":"core","name":"VALUE","payload":"",` +
		`"ts":{"form":"rel","raw":"-7","resolved":"1777766399999999993"},"crc":{"width":16,"value":"` + hex16(bitCRC16(i32le(-7))) + `"}}],` +
		`"ts":{"form":"abs","raw":"1777766400000000000","resolved":"1777766400000000000"}},` +
		`{"offset":48,"type":14,"opt":0,"length":0,"class":"unknown","error":{"rule":"LT-UNK-05","code":"tr::schema::type_mismatch","offset":48,"detail":"type 0x0e (unknown) is not a type this receiver knows"}}],` +
		`"error":{"rule":"LT-TRUNC-03","code":"tr::frame::truncated","offset":52,"detail":"header needs 1 more bytes, the datagram ends after 1"}}`
	if string(got) != want {
		t.Fatalf("JSON\n got %s\nwant %s", got, want)
	}
}

func hex16(v uint16) string { return bigHex([]byte{byte(v >> 8), byte(v)}) }

// The JSON of a decoded tree reads back into the same frames, and the
// exact encoding of what it reads is the input (the libtracer.encode path).
func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, ex := range allByteExamples(t) {
		wire := hx(t, ex.wire)
		r := Decode(wire, Limits{})
		b, _ := json.Marshal(r.Frames)
		fs, err := ParseFramesJSON(b)
		if err != nil {
			t.Fatalf("%s: %v", ex.name, err)
		}
		sameFrames(t, ex.name, stripReceived(fs), stripReceived(r.Frames))
		out, err := EncodeExact(fs)
		if err != nil || !bytes.Equal(out, wire) {
			t.Fatalf("%s: EncodeExact = %x, %v", ex.name, out, err)
		}
	}
	// One object instead of an array; ts by resolved only, for Encode.
	fs, err := ParseFramesJSON([]byte(`{"type":1,"opt":32,"payload":"2a000000","ts":{"resolved":"1777766400000000000"}}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Encode(fs)
	if err != nil || !bytes.Equal(out, mk(1, OptTS, pl42, u64le(T0))) {
		t.Fatalf("Encode = %x, %v", out, err)
	}
	for _, bad := range []string{`[{"opt":1}]`, `[{"type":1,"payload":"zz"}]`, `[{"type":1,"payload":"","children":[]}]`,
		`[{"type":1,"ts":{"form":"later"}}]`, `[{"type":1,"opt":34,"ts":{"raw":"99999999999"}}]`, `[`} {
		if _, err := ParseFramesJSON([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// stripReceived clears what JSON input does not carry back: the CRC as
// received (encoders recompute it).
func stripReceived(fs []Frame) []Frame {
	out := append([]Frame{}, fs...)
	for i := range out {
		out[i].CRC = nil
		if out[i].Children != nil {
			out[i].Children = stripReceived(out[i].Children)
		}
	}
	return out
}
