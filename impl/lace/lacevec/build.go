package lacevec

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/mark"
)

// The generator writes every record itself and computes every hash text from
// the bytes it wrote: BLAKE3-256 over every byte after the glyph line's LF
// (Lace-010, "Every stored record starts with a record glyph line"), in B64A.
// Nothing here calls the reference's parser or encoder, so that the
// reference is checked against these values, not the other way round.

// b64a is B64A as docs/DECISIONS.md defines it (document 006 is not
// given): base64 over the ASCII-sorted alphabet, big-endian bit packing, no
// padding. Written with encoding/base64 so that it does not come from
// impl/b64a.
var b64a = base64.NewEncoding("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~").WithPadding(base64.NoPadding)

// Record text constants (Lace-010).
const (
	glyph         = "🖧"  // U+1F5A7
	reservedGlyph = "⋯🖧" // U+22EF U+1F5A7
	glyphPrefix   = glyph + ": "
	maxData       = 32 << 20 // Blob data limit, 33,554,432 bytes
	maxFields     = 512
	maxLine       = 128
)

// digestOf is BLAKE3-256 of the concatenated segments.
func digestOf(segs ...[]byte) [32]byte {
	h := blake3.New()
	for _, s := range segs {
		h.Write(s)
	}
	var d [32]byte
	h.Sum(d[:0])
	return d
}

// hashText is the H3 hash text T.<b64a>.H3 of a payload given in segments.
func hashText(form byte, segs ...[]byte) string {
	d := digestOf(segs...)
	return string(form) + "." + b64a.EncodeToString(d[:]) + ".H3"
}

// record is the generator's model of a Blob, Plex or Seal: the lines it
// writes and the data. Its methods lay them out with every glyph digest
// computed afresh, innermost record first, so a change to any part (a
// reordered field, a dropped By line) gives a record whose digests match
// and whose only fault is the one made on purpose.
type record struct {
	form   byte     // 'B', 'P' or 'S': the outer record's form
	env    []string // Seal: the envelope lines without LF (By, Mark)
	fields []string // Plex, Seal: the application field lines without LF
	dl     *string  // the Data-Length line without LF; nil means canonical
	blank  *string  // what stands between the Data-Length line and the data; nil means "\n"
	data   []byte
}

func blobR(data []byte) record { return record{form: 'B', data: data} }

func plexR(data []byte, fields ...string) record {
	return record{form: 'P', fields: fields, data: data}
}

func sealR(env []string, p record) record {
	p.form, p.env = 'S', env
	return p
}

func (r record) clone() record {
	c := r
	c.env = append([]string(nil), r.env...)
	c.fields = append([]string(nil), r.fields...)
	return c
}

func (r record) dlLine() string {
	if r.dl != nil {
		return *r.dl
	}
	return "Data-Length: " + strconv.Itoa(len(r.data))
}

func (r record) blankText() string {
	if r.blank != nil {
		return *r.blank
	}
	return "\n"
}

func lines(ls []string) []byte {
	if len(ls) == 0 {
		return nil
	}
	return []byte(strings.Join(ls, "\n") + "\n")
}

// levels is a record laid out level by level, innermost first, each
// digest computed once: the payload segments of the Blob, Plex and Seal it
// is or holds (a Plex or Seal payload holds the complete embedded record,
// glyph line included) and their hash texts. Levels above the one asked
// for are nil.
type levels struct {
	blobPayload, plexPayload, sealPayload [][]byte
	blobHash, plexHash, sealHash          string
}

func (r record) levels(upTo byte) levels {
	var l levels
	l.blobPayload = [][]byte{[]byte(r.dlLine() + "\n" + r.blankText()), r.data}
	l.blobHash = hashText('B', l.blobPayload...)
	if upTo == 'B' {
		return l
	}
	l.plexPayload = append([][]byte{lines(r.fields), glyphText(l.blobHash)}, l.blobPayload...)
	l.plexHash = hashText('P', l.plexPayload...)
	if upTo == 'P' {
		return l
	}
	l.sealPayload = append([][]byte{lines(r.env), glyphText(l.plexHash)}, l.plexPayload...)
	l.sealHash = hashText('S', l.sealPayload...)
	return l
}

// glyphText is the glyph line of a hash text, LF included.
func glyphText(hash string) []byte { return []byte(glyphPrefix + hash + "\n") }

// outer returns the outer record's payload and hash text.
func (r record) outer() ([][]byte, string) {
	l := r.levels(r.form)
	switch r.form {
	case 'P':
		return l.plexPayload, l.plexHash
	case 'S':
		return l.sealPayload, l.sealHash
	}
	return l.blobPayload, l.blobHash
}

// Payloads and records of each level.
func (r record) blobPayload() [][]byte { return r.levels('B').blobPayload }
func (r record) plexPayload() [][]byte { return r.levels('P').plexPayload }
func (r record) sealPayload() [][]byte { return r.levels('S').sealPayload }

func (r record) blobRecord() [][]byte {
	l := r.levels('B')
	return append([][]byte{glyphText(l.blobHash)}, l.blobPayload...)
}

func (r record) plexRecord() [][]byte {
	l := r.levels('P')
	return append([][]byte{glyphText(l.plexHash)}, l.plexPayload...)
}

// payload is the outer record's payload.
func (r record) payload() [][]byte {
	p, _ := r.outer()
	return p
}

// hash is the outer record's hash text.
func (r record) hash() string {
	_, h := r.outer()
	return h
}

// bytes is the complete stored record.
func (r record) bytes() []byte {
	p, h := r.outer()
	return concat(append([][]byte{glyphText(h)}, p...)...)
}

func concat(segs ...[]byte) []byte {
	n := 0
	for _, s := range segs {
		n += len(s)
	}
	out := make([]byte, 0, n)
	for _, s := range segs {
		out = append(out, s...)
	}
	return out
}

// withGlyph is a record with the given glyph line text (hash text) over
// payload, right or wrong.
func withGlyph(hash string, payload ...[]byte) []byte {
	return concat(append([][]byte{glyphText(hash)}, payload...)...)
}

// rawRecord is a record of form whose payload is given verbatim, with the
// glyph digest computed over it.
func rawRecord(form byte, payload ...[]byte) []byte {
	return withGlyph(hashText(form, payload...), payload...)
}

// formName is the testee protocol's name of a form letter.
func formName(form byte) string {
	return map[byte]string{'B': "blob", 'P': "plex", 'S': "seal"}[form]
}

// Marks under the project's stand-in scheme (bip340-standin: BIP-340
// Schnorr over secp256k1, docs/DECISIONS.md "Marks"). The scheme itself is
// impl/mark's; the By and Mark texts are written here.

// signer holds a By-secret of 32 equal bytes.
type signer struct {
	secret [mark.KeySize]byte
	by     string // the By text V.<b64a>.H3
}

// aux is the auxRand32 of every Mark the generator makes: 32 0x01 bytes, as
// in the canonical vector.
var aux = [mark.AuxSize]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}

func newSigner(b byte) signer {
	var secret [mark.KeySize]byte
	for i := range secret {
		secret[i] = b
	}
	return newSignerFrom(secret)
}

func newSignerFrom(secret [mark.KeySize]byte) signer {
	key, err := mark.BIP340Standin.By(secret)
	if err != nil {
		panic("lacevec: a By-secret the stand-in refuses: " + err.Error())
	}
	return signer{secret: secret, by: byText(key[:])}
}

func byText(key []byte) string { return "V." + b64a.EncodeToString(key) + ".H3" }

// markOver is the Mark text of the signer over the 32 bytes of digest.
func (s signer) markOver(digest [32]byte) string {
	m, err := mark.BIP340Standin.Sign(s.secret, digest, aux)
	if err != nil {
		panic("lacevec: signing: " + err.Error())
	}
	return b64a.EncodeToString(m[:])
}

// env is the Seal envelope of a Mark over the digest of the Plex p.
func (s signer) env(p record) []string {
	return []string{"By: " + s.by, "Mark: " + s.markOver(digestOf(p.plexPayload()...))}
}

// seal is the Seal of p under s.
func (s signer) seal(p record) record { return sealR(s.env(p), p) }
