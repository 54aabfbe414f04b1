package explore

import "encoding/binary"

// path is how the search reaches a state: one link per step, holding that
// step's picks, shared by every path through it. A frontier state keeps
// only its last link, so paths cost a few bytes a state, not a copy of
// every pick since the start.
type path struct {
	parent *path
	picks  []byte // this step's picks, uvarints
	n      int32  // picks from the start through this link
	// short holds picks when they fit: one allocation a link, not two.
	short [12]byte
}

// extend returns the link of one more step whose picks are picks.
func (p *path) extend(picks []int) *path {
	q := &path{parent: p}
	q.picks = q.short[:0]
	if len(picks) > len(q.short) { // a pick takes at least a byte
		q.picks = make([]byte, 0, len(picks))
	}
	for _, v := range picks {
		q.picks = binary.AppendUvarint(q.picks, uint64(v))
	}
	q.n = int32(len(picks))
	if p != nil {
		q.n += p.n
	}
	return q
}

// all returns every pick from the start.
func (p *path) all() []int {
	if p == nil {
		return []int{}
	}
	out := make([]int, p.n)
	i := len(out)
	for q := p; q != nil; q = q.parent {
		var step []int
		for b := q.picks; len(b) > 0; {
			v, k := binary.Uvarint(b)
			step, b = append(step, int(v)), b[k:]
		}
		i -= len(step)
		copy(out[i:], step)
	}
	return out
}
