package tracervec

import (
	"bytes"
	"encoding/hex"

	"github.com/threespec/conformance/vectorset"
)

// The large inputs of the suite repeat one pattern: the worked example's
// 102400-byte payload (byte i = i mod 251) in the wire bytes, and its hex
// text (period 502) in libtracer.encode inputs. compress writes such an
// input as a recipe: hex parts around repeat parts.
var periods = []int{251, 502}

// compress returns the recipe of b whose parts are fewest hex digits:
// for each candidate period, maximal runs of at least two repeats of a
// period-long block become repeat parts, the rest hex parts.
func compress(b []byte) *vectorset.Recipe {
	var best []vectorset.Part
	bestSize := -1
	for _, p := range periods {
		parts := runs(b, p)
		size := 0
		for _, x := range parts {
			size += len(x.Hex)
			if x.Repeat != nil {
				size += len(x.Repeat.Hex)
			}
		}
		if bestSize < 0 || size < bestSize {
			best, bestSize = parts, size
		}
	}
	return &vectorset.Recipe{Parts: best}
}

func runs(b []byte, period int) []vectorset.Part {
	var parts []vectorset.Part
	lit := 0
	flush := func(end int) {
		if end > lit {
			parts = append(parts, vectorset.Part{Hex: hex.EncodeToString(b[lit:end])})
		}
	}
	for i := 0; i+2*period <= len(b); {
		block := b[i : i+period]
		if !bytes.Equal(block, b[i+period:i+2*period]) {
			i++
			continue
		}
		k := 2
		for i+(k+1)*period <= len(b) && bytes.Equal(block, b[i+k*period:i+(k+1)*period]) {
			k++
		}
		flush(i)
		parts = append(parts, vectorset.Part{Repeat: &vectorset.Repeat{Hex: hex.EncodeToString(block), Count: int64(k)}})
		i += k * period
		lit = i
	}
	flush(len(b))
	return parts
}
