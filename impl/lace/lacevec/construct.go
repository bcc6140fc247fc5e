package lacevec

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/vectorset"
)

// Generic constructors select one record form (Lace-010, LACE-CTOR-01..10
// and the constructor's duties of LACE-PLEX-05..09): lace.construct vectors,
// whose inputs are the JSON specifications of docs/PROTOCOL.md.

// ctorSpec is a constructor specification; nil members are absent.
type ctorSpec struct {
	Data   *[]byte     `json:"data,omitempty"`
	Fields [][2]string `json:"fields,omitempty"`
	Secret *[]byte     `json:"secret,omitempty"`
	Aux    *[]byte     `json:"aux,omitempty"`
}

// field is one caller field occurrence.
type field struct{ name, value string }

func (s ctorSpec) json() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil { // []byte members encode as standard base64
		panic("lacevec: construct spec: " + err.Error())
	}
	return buf.Bytes()
}

func ctor(data []byte, fs ...field) ctorSpec {
	var s ctorSpec
	if data != nil {
		s.Data = &data
	}
	for _, f := range fs {
		s.Fields = append(s.Fields, [2]string{f.name, f.value})
	}
	return s
}

func (s ctorSpec) sealedBy(sg signer) ctorSpec {
	secret, a := sg.secret[:], aux[:]
	s.Secret, s.Aux = &secret, &a
	return s
}

// canonical is what the constructor must build from s, by the table of
// Lace-010: no fields -> Blob, fields -> Plex, fields and a secret -> Seal;
// fields sorted by name bytes, same-name occurrences in caller order, values
// taking no part, nothing added.
func (s ctorSpec) canonical() record {
	var data []byte
	if s.Data != nil {
		data = *s.Data
	}
	if len(s.Fields) == 0 {
		return blobR(data)
	}
	fs := append([][2]string(nil), s.Fields...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i][0] < fs[j][0] })
	lines := make([]string, len(fs))
	for i, f := range fs {
		lines[i] = f[0] + ": " + f[1]
	}
	p := plexR(data, lines...)
	if s.Secret == nil {
		return p
	}
	return newSignerFrom([32]byte(*s.Secret)).seal(p)
}

func constructResult(r record) map[string]any {
	return map[string]any{"record": vectorset.BytesMatcher(r.bytes()), "hash": r.hash()}
}

func (g *gen) constructOK(name string, s ctorSpec, rs []rules.ID, t []string, comment string) {
	v := vec{name: name, op: lacespec.OpConstruct, in: s.json(), ok: true, result: constructResult(s.canonical()), rules: rs, tags: t, comment: comment}
	if s.Secret != nil {
		v.mark = markStandin // the Mark's bytes are the stand-in's: made under it, profile lace-mark-bip340-standin
	}
	g.add(v)
}

func (g *gen) constructBad(name string, s ctorSpec, rs []rules.ID, comment string) {
	v := vec{name: name, op: lacespec.OpConstruct, in: s.json(), rules: rs, comment: comment}
	g.add(v)
}

func constructVectors(g *gen) {
	ka := tags("known-answer")
	// The form-selection table, row by row (LACE-CTOR-01..05).
	g.constructOK("construct-empty-spec", ctorSpec{}, ids(lace.RuleCtorEmpty, lace.RuleCtorOmittedData), nil,
		"{}: the empty specification gives the empty Blob")
	g.constructOK("construct-empty-data-no-fields", ctor([]byte{}), ids(lace.RuleCtorEmpty), nil,
		`{"data":""}: empty data and no fields is the empty specification too`)
	g.constructOK("construct-only-data", ctor(hello), ids(lace.RuleCtorDataOnly, lace.RuleVecBlob), ka,
		"only data hello gives the canonical Blob")
	g.constructOK("construct-seed-plex", ctor(hello, seedFieldsAsFields()...), ids(lace.RuleCtorFields, lace.RuleVecPlex, lace.RuleVecAppOrder, lace.RuleCtorNoInvented), ka,
		"data hello with the canonical fields in their order gives the canonical Plex, nothing added")
	g.constructBad("construct-secret-without-fields", ctor(hello).sealedBy(signer7), ids(lace.RuleCtorSecretOnly),
		"a By-secret with data and no fields is an error: a Seal wraps a Plex")
	g.constructBad("construct-secret-only", ctorSpec{}.sealedBy(signer7), ids(lace.RuleCtorSecretOnly),
		"a By-secret and nothing else is an error")
	g.constructOK("construct-seed-seal-standin", ctor(hello, seedFieldsAsFields()...).sealedBy(signer7), ids(lace.RuleCtorSeal, lace.RuleCtorDeriveMark), nil,
		"the canonical Plex's specification with the secret of 32 0x07 bytes and aux of 32 0x01 bytes: a Seal whose By and Mark are the stand-in's")
	g.constructOK("construct-seal-no-data", ctor(nil, field{"App", "chat"}).sealedBy(signer9), ids(lace.RuleCtorSeal, lace.RuleCtorOmittedData), nil,
		"a secret of 32 0x09 bytes and one field, data omitted: a Seal over an empty Blob")
	g.constructOK("construct-fields-no-data", ctor(nil, field{"App", "chat"}), ids(lace.RuleCtorOmittedData, lace.RuleCtorFields), nil,
		"fields and omitted data: a Plex over the empty Blob")

	// Ordering duties (LACE-PLEX-05..07, -09; LACE-EX-07).
	g.constructOK("construct-label-mode", ctor(hello, field{"Mode", "public"}, field{"Label", "second"}, field{"Label", "first"}),
		ids(lace.RulePlexCtorOrder, lace.RuleExNoValueSort, lace.RulePlexSortNames), nil,
		"Mode, Label second, Label first gives Label: second, Label: first, Mode: public: names sorted, same-name order kept, values unsorted")
	g.constructOK("construct-seed-fields-shuffled", ctor(hello, field{"TAI", "tomorrow"}, field{"App", "chat"}, field{"Name", "note"}, field{"Group", "room7"}, field{"App", "archive"}),
		ids(lace.RulePlexSortNames, lace.RulePlexSameName, lace.RulePlexCtorOrder, lace.RulePlexValuesUnsorted), ka,
		"the canonical fields in another order, App: chat still before App: archive, give the canonical Plex")
	g.constructOK("construct-names-bytewise", ctor(nil, field{"é", "1"}, field{"a", "2"}, field{"Z", "3"}, field{"#K", "4"}, field{"_", "5"}),
		ids(lace.RulePlexSortNames), nil, "names are sorted by bytes: #K, Z, _, a, é")
	g.constructOK("construct-value-spaces-kept", ctor(nil, field{"Note", " a  b "}), ids(lace.RuleFieldWhitespace, lace.RuleFieldLeadingSpace), tags("decision"),
		"the value ' a  b ' is kept with every space (the line is Note:  a  b )")
	many := make([]field, 513)
	for i := range many {
		many[i] = field{"F", strconv.Itoa(512 - i)}
	}
	g.constructOK("construct-512-fields", ctor(nil, many[:512]...), ids(lace.RulePlexMaxFields, lace.RulePlexCtorOrder), tags("boundary"),
		"512 occurrences of one name, in caller order")
	g.constructBad("construct-513-fields", ctor(nil, many...), ids(lace.RulePlexMaxFields), "513 field occurrences")

	// Validation and reserved names (LACE-CTOR-08, -09).
	for _, c := range []struct{ name, field string }{
		{"data-length", "Data-Length"}, {"by", "By"}, {"mark", "Mark"}, {"glyph", glyph}, {"reserved-glyph", reservedGlyph},
	} {
		g.constructBad("construct-reserved-name-"+c.name, ctor(hello, field{"App", "chat"}, field{c.field, "x"}), ids(lace.RuleCtorReserved, lace.RulePlexReserved),
			"a field named "+c.field+": constructors reject reserved names")
	}
	for _, c := range []struct {
		name    string
		f       field
		rule    rules.ID
		comment string
	}{
		{"name-empty", field{"", "x"}, lace.RuleFieldNameEmpty, "an empty field name"},
		{"name-space", field{"Ap p", "x"}, lace.RuleFieldNameChars, "a field name with a space"},
		{"name-colon", field{"a:b", "x"}, lace.RuleFieldNameChars, "a field name with ':'"},
		{"value-empty", field{"App", ""}, lace.RuleFieldValueEmpty, "an empty value"},
		{"value-not-nfc", field{"Name", "note\u0301"}, lace.RuleFieldNFC, "a value that is not NFC"},
		{"value-cr", field{"App", "chat\r"}, lace.RuleFieldLF, "a value ending in CR"},
		{"value-lf", field{"App", "ch\nat"}, lace.RuleFieldControl, "a value holding LF"},
		{"value-nul", field{"App", "ch\x00at"}, lace.RuleFieldControl, "a value holding NUL"},
		{"line-129-bytes", field{"X", strings.Repeat("a", 126)}, lace.RuleFieldLineLength, "X: plus 126 a, a 129-byte line"},
	} {
		g.constructBad("construct-field-"+c.name, ctor(hello, c.f), ids(c.rule, lace.RuleCtorValidate), c.comment+": constructors validate fields")
	}
	g.constructOK("construct-field-line-128-bytes", ctor(hello, field{"X", strings.Repeat("a", 125)}), ids(lace.RuleCtorValidate, lace.RuleFieldLineLength), tags("boundary"),
		"X: plus 125 a, a 128-byte line, is constructed")

	z := make([]byte, 32)
	zero := ctor(hello, field{"App", "chat"})
	zero.Secret, zero.Aux = &z, &z
	g.add(vec{name: "construct-secret-zero", op: lacespec.OpConstruct, in: zero.json(), rules: ids(lace.RuleCtorDeriveMark),
		mark:    markStandin,
		comment: "a By-secret of 32 zero bytes, which the stand-in scheme refuses (BIP-340 secret keys are 1..n-1)"})

	// Data of 32 MiB and over, as recipes: 33,554,433 bytes 'A' are
	// 11,184,811 times the base64 QUFB; 33,554,432 bytes end in QUE=.
	atLimit := ctor(bytes.Repeat([]byte("A"), maxData))
	g.add(vec{name: "construct-data-32mib", op: lacespec.OpConstruct, ok: true, result: constructResult(atLimit.canonical()), rules: ids(lace.RuleBlobMaxData, lace.RuleCtorDataOnly),
		recipe: &vectorset.Recipe{Parts: []vectorset.Part{
			hexPart([]byte(`{"data":"`)), repeatPart([]byte("QUFB"), maxData/3), hexPart([]byte("QUE=\"}\n")),
		}},
		tags: tags("boundary"), comment: "data of exactly 32 MiB: the largest Blob a constructor makes"})
	g.add(vec{name: "construct-data-over-32mib", op: lacespec.OpConstruct, rules: ids(lace.RuleBlobMaxData),
		recipe: &vectorset.Recipe{Parts: []vectorset.Part{
			hexPart([]byte(`{"data":"`)), repeatPart([]byte("QUFB"), (maxData+1)/3), hexPart([]byte("\"}\n")),
		}},
		tags: tags("boundary"), comment: "data of 32 MiB + 1 bytes: over the Blob data limit"})
}

func seedFieldsAsFields() []field {
	out := make([]field, len(seedFields))
	for i, l := range seedFields {
		name, value, _ := strings.Cut(l, ": ")
		out[i] = field{name, value}
	}
	return out
}
