package hivevec

import (
	"fmt"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
)

// CellBlobV1 vectors (section 3). A blob is decoded with an already
// authenticated size class, the class argument of hiverelay.decode; its
// length must be exactly the class length. The large inputs are recipes
// built from the committed inventory positives (a file part, plus a hex
// part) or from a header and a repeated byte.

func blobFile(c int) string { return fmt.Sprintf("positive/cell-blob-v1-class-%d.bin", c) }

func (g *gen) blobs() error {
	for c := 1; c <= hr.NumClasses; c++ {
		pos := fmt.Sprintf("cell-blob-v1-class-%d", c)
		// Each inventory blob decoded with each other class: the five blob
		// vectors MUST decode only with their stated class (section 5).
		for d := 1; d <= hr.NumClasses; d++ {
			if d == c {
				continue
			}
			g.rejectm(fmt.Sprintf("%s-decoded-as-class-%d", pos, d), blobDecoder(d), g.recipe(filePart(blobFile(c))),
				meta{rules: ids(hr.RuleBlobWrongClass, hr.RuleVecBlobClass), tags: []string{tagBoundary},
					comment: fmt.Sprintf("the inventory class-%d blob (%d bytes) decoded as class %d (%d bytes): wrong class", c, classLength[c], d, classLength[d]),
					derived: pos})
		}
		// One byte too many.
		g.rejectm(pos+"-trailing-byte", blobDecoder(c), g.recipe(filePart(blobFile(c)), hexPart([]byte{0})),
			meta{rules: ids(hr.RuleBlobLong), tags: []string{tagBoundary, tagMutation},
				comment: fmt.Sprintf("the inventory class-%d blob and one more byte (%d bytes): a long blob", c, classLength[c]+1), derived: pos})
		// Truncated at the field boundaries: nothing, after the version,
		// after the nonce.
		b := g.files[blobFile(c)]
		for _, n := range []int{0, 1, blobHeaderLen} {
			what := map[int]string{0: "formatVersion", 1: "nonce", blobHeaderLen: "sealed"}[n]
			g.rejectm(fmt.Sprintf("%s-truncated-before-%s", pos, kebab(what)), blobDecoder(c), file(b[:n]),
				meta{rules: ids(hr.RuleBlobShort, cenc.RuleTruncated), tags: []string{tagMutation},
					comment: fmt.Sprintf("the first %d bytes of the inventory class-%d blob, cut before %s: a short blob", n, c, what), derived: pos})
		}
		// A header and classLength-13 bytes of 0x5a: accepted; with one
		// byte less, short; with another version byte, an unknown version.
		nonce := b[1:blobHeaderLen]
		header := func(v byte) []byte { return append([]byte{v}, nonce...) }
		sealed := pos + "-sealed-5a"
		g.accept(sealed, blobDecoder(c), g.recipe(hexPart(header(1)), repeatPart(0x5a, classLength[c]-blobHeaderLen)),
			meta{rules: ids(hr.RuleBlobLayout), comment: fmt.Sprintf("a class-%d blob: version 1, the inventory blob's nonce, %d sealed bytes 0x5a", c, classLength[c]-blobHeaderLen)})
		if c > 1 {
			g.rejectm(sealed+"-one-byte-short", blobDecoder(c), g.recipe(hexPart(header(1)), repeatPart(0x5a, classLength[c]-blobHeaderLen-1)),
				meta{rules: ids(hr.RuleBlobShort), tags: []string{tagBoundary},
					comment: fmt.Sprintf("a class-%d blob one byte short (%d bytes)", c, classLength[c]-1), derived: sealed})
		}
		for _, v := range []byte{0, 2, 0xff} {
			g.rejectm(fmt.Sprintf("%s-format-version-%d", sealed, v), blobDecoder(c), g.recipe(hexPart(header(v)), repeatPart(0x5a, classLength[c]-blobHeaderLen)),
				meta{rules: ids(cenc.RuleUnknownVersion), tags: []string{tagMutation},
					comment: fmt.Sprintf("a class-%d-length blob with formatVersion %d", c, v), derived: sealed})
		}
	}
	// The class is the context that selects the decoder: without one, or
	// with one outside 1..5, no blob decodes.
	for _, d := range []int{0, 6, 255} {
		name := fmt.Sprintf("cell-blob-v1-class-1-decoded-as-class-%d", d)
		comment := fmt.Sprintf("the inventory class-1 blob decoded with class %d, which is no size class", d)
		if d == 0 {
			name, comment = "cell-blob-v1-class-1-decoded-without-class", "the inventory class-1 blob decoded without a class argument"
		}
		g.rejectm(name, blobDecoder(d), g.recipe(filePart(blobFile(1))),
			meta{rules: ids(hr.RuleBlobClassSelect), tags: []string{tagBoundary}, comment: comment, derived: "cell-blob-v1-class-1"})
	}
	zero := make([]byte, classLength[1])
	zero[0] = 1
	g.accept("cell-blob-v1-class-1-zero-nonce-and-sealed", blobDecoder(1), file(zero),
		meta{rules: ids(hr.RuleBlobLayout, hr.RuleBlobAEADOutside),
			comment: "a class-1 blob whose nonce and sealed bytes are all zero: section 3 marks no blob field nonzero and gives nonce use and AEAD to the encryption profile (\"this binary codec only fixes the envelope bytes\")"})
	return nil
}
