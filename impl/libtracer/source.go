package libtracer

import "sort"

// source is what the walker reads: the contiguous wire buffer, or a rope of
// views when rope is set. Offsets are int64 logical offsets, so a rope
// longer than a 32-bit int still works; callers guarantee that every range
// they ask for lies inside [0, size()). It is a plain struct rather than
// an interface so that the contiguous path inlines and allocates nothing.
type source struct {
	// buf is the wire-receive context: one contiguous transport buffer,
	// the cursor advancing offset += child_size (§Two parser contexts,
	// LT-CTX-01).
	buf  []byte
	rope *Rope // the in-memory walk (LT-CTX-02)
}

func (s source) size() int64 {
	if s.rope != nil {
		return s.rope.Len()
	}
	return int64(len(s.buf))
}

// read copies len(p) bytes at off into p.
func (s source) read(p []byte, off int64) {
	if s.rope != nil {
		s.rope.read(p, off)
		return
	}
	copy(p, s.buf[off:])
}

// crc folds the bytes [off, end) into the running CRC c.
func (s source) crc(cw16 bool, c uint32, off, end int64) uint32 {
	if s.rope != nil {
		return s.rope.crc(cw16, c, off, end)
	}
	return crcUpdate(cw16, c, s.buf[off:end])
}

// bytes returns the bytes [off, end): a subslice of the buffer, or a fresh
// copy from a rope.
func (s source) bytes(off, end int64) []byte {
	if s.rope != nil {
		return s.rope.bytes(off, end)
	}
	return s.buf[off:end:end]
}

// Rope is the substrate of the in-memory walk: a chain of views whose
// concatenation is the bytes walked (§Two parser contexts, LT-CTX-02). The
// bytes of one TLV, its payload included, may lie in one view or several
// adjacent ones; empty views are allowed. A Rope does not copy its views:
// they must not change while it is in use.
type Rope struct {
	views [][]byte
	ends  []int64 // ends[i]: logical offset one past view i
}

// NewRope returns the rope of the given views, in order.
func NewRope(views ...[]byte) *Rope {
	r := &Rope{views: views, ends: make([]int64, len(views))}
	var n int64
	for i, v := range views {
		n += int64(len(v))
		r.ends[i] = n
	}
	return r
}

// Len is the number of bytes in the rope.
func (r *Rope) Len() int64 {
	if len(r.ends) == 0 {
		return 0
	}
	return r.ends[len(r.ends)-1]
}

// Views returns the rope's views, in order.
func (r *Rope) Views() [][]byte { return r.views }

// locate returns the view holding logical offset off and off's index in it.
func (r *Rope) locate(off int64) (view int, at int) {
	i := sort.Search(len(r.ends), func(i int) bool { return r.ends[i] > off })
	return i, int(off - (r.ends[i] - int64(len(r.views[i]))))
}

// viewEnd is the logical offset one past the view that holds off.
func (r *Rope) viewEnd(off int64) int64 {
	i, _ := r.locate(off)
	if i >= len(r.ends) {
		return r.Len()
	}
	return r.ends[i]
}

// each calls fn on the pieces of [off, end) in order, one per view touched.
func (r *Rope) each(off, end int64, fn func(p []byte)) {
	if off >= end {
		return
	}
	i, at := r.locate(off)
	for n := end - off; n > 0; i, at = i+1, 0 {
		p := r.views[i][at:]
		if int64(len(p)) > n {
			p = p[:n]
		}
		fn(p)
		n -= int64(len(p))
	}
}

func (r *Rope) read(p []byte, off int64) {
	k := 0
	r.each(off, off+int64(len(p)), func(q []byte) { k += copy(p[k:], q) })
}

func (r *Rope) crc(cw16 bool, c uint32, off, end int64) uint32 {
	r.each(off, end, func(p []byte) { c = crcUpdate(cw16, c, p) })
	return c
}

func (r *Rope) bytes(off, end int64) []byte {
	out := make([]byte, 0, end-off)
	r.each(off, end, func(p []byte) { out = append(out, p...) })
	return out
}
