package tracervec

import (
	"fmt"
	"sort"
)

// boundaries lists the structural boundaries strictly inside an input of
// total bytes whose frames are list: for every frame its first byte, after
// its type, after its opt, after its header, after its payload and after
// its trailer_ts.
func boundaries(list []flat, total int) []int {
	seen := map[int]bool{}
	for _, f := range list {
		o := int(f.offset)
		h := hdrSize(f.opt)
		l := int(f.length)
		for _, p := range []int{o, o + 1, o + 2, o + h, o + h + l, o + h + l + tsSize(f.opt)} {
			if p > 0 && p < total {
				seen[p] = true
			}
		}
	}
	out := make([]int, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

// truncations: every worked example cut at every structural boundary, as a
// datagram (tr::frame::truncated, LT-TRUNC-03) and as a stream that closes
// (tr::transport::down, LT-TRUNC-02). The length is checked against the
// bytes present before any payload byte is read (LT-TRUNC-05), so a cut
// frame is truncated whatever its payload or CRC would have been.
func truncations(s *set) {
	for _, ex := range examples {
		f := ex.frame()
		b := wire(f)
		for _, cut := range boundaries(flatten(f), len(b)) {
			s.reject(fmt.Sprintf("%s--cut-%d", ex.name, cut), in(b[:cut]), dgram, meta{
				rules: rulesOf("LT-TRUNC-03", "LT-TRUNC-04", "LT-TRUNC-05"), tags: tags("truncation"), derived: ex.name,
				comment: fmt.Sprintf("%s cut after %d of its %d bytes, as a datagram: truncated", ex.name, cut, len(b)),
			})
			s.reject(fmt.Sprintf("%s--cut-%d-stream", ex.name, cut), in(b[:cut]), stream, meta{
				rules: rulesOf("LT-TRUNC-02", "LT-TRUNC-04"), tags: tags("truncation"), derived: ex.name + "-stream",
				comment: fmt.Sprintf("%s cut after %d of its %d bytes, on a stream that closes: transport::down", ex.name, cut, len(b)),
			})
		}
	}
}
