package lacevec

// tree is a file (chunks.go) or directory (directory.go) model: its record
// and the subtrees its links reach, in link order, repeats included.
type tree interface {
	rec() record
	subtrees() []tree
}

// records lists the record of t and every record below it, depth first,
// each once.
func records(t tree) []record {
	var out []record
	seen := map[string]bool{}
	var walk func(tree)
	walk = func(t tree) {
		r := t.rec()
		if seen[r.hash()] {
			return
		}
		seen[r.hash()] = true
		out = append(out, r)
		for _, s := range t.subtrees() {
			walk(s)
		}
	}
	walk(t)
	return out
}

// treeStream is the record stream of t: its root first, then every other
// record it reaches, each once.
func treeStream(t tree) []byte {
	rs := records(t)
	return streamOf(rs[0], rs[1:]...)
}

// depth is the longest chain of links below t: the max_depth at which a
// consumer still accepts it (docs/PROTOCOL.md, bounds).
func depth(t tree) int {
	d := 0
	for _, s := range t.subtrees() {
		d = max(d, 1+depth(s))
	}
	return d
}

// uses is the number of links a consumer follows to validate t, every
// repeated use counted: the max_expansion at which it still accepts it.
func uses(t tree) int {
	n := 0
	for _, s := range t.subtrees() {
		n += 1 + uses(s)
	}
	return n
}
