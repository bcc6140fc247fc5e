package lacespec

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/reference/referencetest"
	"github.com/threespec/conformance/testee"
)

// The canonical Blob of Lace-010, "A canonical vector covers all three record forms".
const seedBlob = "🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Length: 5\n\nhello"

func TestLaceRecordKnownAnswer(t *testing.T) {
	resp := referencetest.Do(t, Spec, OpRecord, "{}", []byte(seedBlob))
	if resp.Outcome != testee.Accepted {
		t.Fatalf("seed Blob: %+v", resp)
	}
	var res RecordResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.Form != "blob" || res.Hash != "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3" || res.Data != 5 {
		t.Fatalf("seed Blob result %+v", res)
	}
}

func TestLaceRejectionCarriesRule(t *testing.T) {
	// Data-Length: 01 is a rejection example of Lace-010's last section.
	bad := []byte("🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Length: 05\n\nhello")
	resp := referencetest.Do(t, Spec, OpRecord, "{}", bad)
	if resp.Outcome != testee.Rejected || resp.Rule == "" || resp.Code != resp.Rule {
		t.Fatalf("Data-Length: 05 gave %+v", resp)
	}
}

// The mark argument: 009 is unsupported by the reference; lace.construct
// makes Marks under the stand-in (the default) only.
func TestMarkUnsupported(t *testing.T) {
	if r := referencetest.Do(t, Spec, OpRecord, `{"mark":"009"}`, []byte(seedBlob)); r.Outcome != testee.Unsupported {
		t.Fatalf("mark 009: %+v", r)
	}
	// lace.construct's mark names the scheme a Mark is made under: the
	// stand-in (default) only.
	plex := []byte(`{"data":"aGVsbG8=","fields":[["App","chat"]]}`)
	for args, want := range map[string]testee.Outcome{
		`{}`: testee.Accepted, `{"mark":"bip340-standin"}`: testee.Accepted,
		`{"mark":"009"}`: testee.Unsupported, `{"mark":"none"}`: testee.Unsupported, `{"mark":"ed25519"}`: testee.Unsupported,
	} {
		if r := referencetest.Do(t, Spec, OpConstruct, args, plex); r.Outcome != want {
			t.Errorf("lace.construct %s: %+v, want %s", args, r, want)
		}
	}
	if _, err := reference.For(Spec).Do(context.Background(), testee.Request{Op: OpRecord, Args: json.RawMessage(`[1]`)}); err == nil {
		t.Fatal("args that are not an object must be a request error")
	}
}

// constructInput, which decodes an input that is only a payload in place,
// gives the lace.Spec and the error constructInputJSON gives, on the
// inputs it decodes itself and on those it leaves to encoding/json.
func TestConstructInputIsConstructInputJSON(t *testing.T) {
	payload := base64.StdEncoding.EncodeToString([]byte("payload bytes \x00\xff"))
	secret := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	inputs := []string{
		`{"data":"` + payload + `"}`,
		`{"data":"` + payload + `"}` + " \t\r\n",
		`{"data":""}`,
		`{"data":"QQ=="}`,
		`{"data":"QR=="}`, // non-zero padding bits, which StdEncoding accepts
		`{"data":"QQ"}`,   // missing padding
		`{"data":"Q"}`,    // truncated
		`{"data":"QQ==QQ=="}`,
		`{"data":"QU` + "\n" + `FB"}`, // a raw LF, which base64 would skip: not JSON
		`{"data":"QU` + "\r" + `FB"}`,
		`{"data":"QUFB` + "\r\n" + `"}`,
		`{"data":"QU\nFB"}`,  // an escaped LF, which base64 would skip too
		`{"data":"QU\\nFB"}`, // an escaped backslash
		`{"data":"QU\/FB"}`,
		`{"data":"QUFB\u0041"}`,
		`{"data":"QUFB\\u0041"}`,
		`{"data":"QUFB` + "\xff" + `"}`,
		`{"data":"QUFB"`,
		`{"data":"QUFB"}}`,
		`{"data":"QUFB"} x`,
		`{"data":"QUFB"},`,
		`{"data":"QUFB" }`,
		`{"data":"QUFB","data":"QkJC"}`,
		`{"data":"QUFB","DATA":null}`,
		`{"data":"QUFB","fields":[["Kind","note"]]}`,
		`{"data":"QUFB","secret":"` + secret + `"}`,
		`{"data":"QUFB","secret":"QQ=="}`,
		`{"data":"QUFB","aux":"QQ=="}`,
		` {"data":"QUFB"}`,
		`{ "data":"QUFB"}`,
		`{"Data":"QUFB"}`,
		`{"data":null}`,
		`{"data":1}`,
		`{"fields":[["A","b"]]}`,
		`{}`,
		`[]`,
		``,
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			got, gotErr := constructInput([]byte(in))
			want, wantErr := constructInputJSON([]byte(in))
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("constructInput = %+v, %v\nconstructInputJSON = %+v, %v", got, gotErr, want, wantErr)
			}
		})
	}
	// The fast path is taken where it should be (else the cases above
	// compare encoding/json with itself).
	for _, in := range inputs[:4] {
		if _, ok := soleData([]byte(in)); !ok {
			t.Errorf("soleData(%q) declined", in)
		}
	}
}

// The whole lace.construct answer for a 32 MiB payload, as conform serve
// gets it from Do, is what json.Marshal made of the result before
// (a base64 string, escaped by encoding/json).
func TestLaceConstructLargeAnswer(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 2<<20)
	in := `{"data":"` + base64.StdEncoding.EncodeToString(data) + `"}` + "\n"
	resp := referencetest.Do(t, Spec, OpConstruct, "{}", []byte(in))
	if resp.Outcome != testee.Accepted {
		t.Fatalf("%+v", resp)
	}
	out, rec, err := lace.Construct(lace.Spec{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(map[string]any{"record": base64.StdEncoding.EncodeToString(out), "hash": rec.Hash.String(), "form": rec.Form.String()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resp.Result, want) {
		t.Errorf("result %.100s... (%d bytes), want %.100s... (%d bytes)", resp.Result, len(resp.Result), want, len(want))
	}
}
