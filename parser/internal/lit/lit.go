// Package lit answers "which of these fixed lists of literals has a member in
// this text, and the earliest list if several do" in one pass over the text,
// where a loop of strings.Contains makes one pass per literal. The node-log
// classifier asks it of every journal line it parses, against about 80
// literals in 14 ordered classes.
package lit

import (
	"strings"
	"unsafe"
)

// Index is built once from ordered groups of literals; it is read-only after
// New and safe for concurrent use.
type Index struct {
	groups int
	// pairs has bit p set when some literal starts with the two bytes p
	// (first byte high): most positions of a text are ruled out by one test.
	pairs [1 << 16 / 64]uint64
	// slot[p] is 1 + the index in starting of the literals that start with
	// pair p, in group order (a table, not a map: pairs such as "er" and "le"
	// start literals and occur every few dozen bytes of a log line).
	slot     [1 << 16]uint8
	starting [][]entry
	skip     *skipTable // nil: every position is looked at
}

// skipTable lets FirstBelow move over the text several bytes at a time when
// every literal is at least skipMin bytes long (the Wu–Manber scan, with
// blocks of two bytes): the text is looked at through a window of m bytes,
// the shortest literal's length; when the window's last two bytes occur
// nowhere in the first m bytes of any literal, no literal can start in the
// window, and it moves on by m-1 bytes; when they occur, it moves on so
// that they line up with their last occurrence; when they end the first m
// bytes of a literal, the literals that end so are compared there.
type skipTable struct {
	m     int
	shift [1 << 16]uint8 // by the window's last two bytes (first byte high)
	slot  [1 << 16]uint8 // 1 + the index in ends of the literals whose first m bytes end with the pair
	ends  [][]entry      // in group order
}

// skipMin is the shortest literal that makes the skip scan worth its table:
// with shorter windows it moves on by too little.
const skipMin = 4

type entry struct {
	lit   string
	group int
}

// New indexes groups: group i is the list of literals groups[i]. Every
// literal must be at least two bytes long, and the literals may start with
// at most 255 distinct pairs of bytes; New panics otherwise (the lists are the
// program's own constants).
func New(groups [][]string) *Index {
	x := &Index{groups: len(groups)}
	for g, lits := range groups {
		for _, l := range lits {
			if len(l) < 2 {
				panic("lit: literal shorter than two bytes: " + l)
			}
			p := pairAt(l, 0)
			if x.slot[p] == 0 {
				if len(x.starting) == 255 {
					panic("lit: more than 255 distinct two-byte prefixes")
				}
				x.starting = append(x.starting, nil)
				x.slot[p] = uint8(len(x.starting))
			}
			x.pairs[p>>6] |= 1 << (p & 63)
			x.starting[x.slot[p]-1] = append(x.starting[x.slot[p]-1], entry{l, g})
		}
	}
	x.skip = newSkipTable(groups)
	return x
}

// newSkipTable returns the skip scan's table for groups, or nil when a
// literal is shorter than skipMin or the literals end their first m bytes
// with more than 255 distinct pairs.
func newSkipTable(groups [][]string) *skipTable {
	m := 0
	for _, lits := range groups {
		for _, l := range lits {
			if m == 0 || len(l) < m {
				m = len(l)
			}
		}
	}
	if m < skipMin {
		return nil
	}
	m = min(m, 255)
	t := &skipTable{m: m}
	for i := range t.shift {
		t.shift[i] = uint8(m - 1)
	}
	for g, lits := range groups {
		for _, l := range lits {
			for q := 0; q <= m-2; q++ {
				p := pairAt(l, q)
				t.shift[p] = min(t.shift[p], uint8(m-2-q))
			}
			p := pairAt(l, m-2)
			if t.slot[p] == 0 {
				if len(t.ends) == 255 {
					return nil
				}
				t.ends = append(t.ends, nil)
				t.slot[p] = uint8(len(t.ends))
			}
			t.ends[t.slot[p]-1] = append(t.ends[t.slot[p]-1], entry{l, g})
		}
	}
	return t
}

// firstSkipping is FirstBelow by the skip scan; best is min(limit, groups).
func (t *skipTable) firstSkipping(s string, best int) int {
	none := best
	for i := t.m - 1; i < len(s); {
		p := uint16(s[i-1])<<8 | uint16(s[i])
		if sh := t.shift[p]; sh > 0 {
			i += int(sh)
			continue
		}
		start := i - t.m + 1
		for _, e := range t.ends[t.slot[p]-1] {
			if e.group >= best {
				break // entries are in group order
			}
			if strings.HasPrefix(s[start:], e.lit) {
				best = e.group
				if best == 0 {
					return 0
				}
				break
			}
		}
		i++
	}
	if best == none {
		return -1
	}
	return best
}

func pairAt(s string, i int) uint16 { return uint16(s[i])<<8 | uint16(s[i+1]) }

// First returns the lowest group index of which a literal occurs in s, or -1
// when none does: the same answer as trying each group in order with
// strings.Contains on each of its literals.
func (x *Index) First(s string) int {
	return x.FirstBelow(s, x.groups)
}

// FirstBelow is First restricted to the groups below limit: it returns the
// lowest group index under limit with a literal in s, or -1. It lets a caller
// search a second text only for groups earlier than the first text's answer.
func (x *Index) FirstBelow(s string, limit int) int {
	best := min(limit, x.groups)
	if len(s) < 2 || best <= 0 {
		return -1
	}
	if x.skip != nil {
		return x.skip.firstSkipping(s, best)
	}
	p := uint16(s[0])
	for i := 1; i < len(s); i++ {
		p = p<<8 | uint16(s[i]) // the pair that starts at i-1
		if x.pairs[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		for _, e := range x.starting[x.slot[p]-1] {
			if e.group >= best {
				break // entries are in group order
			}
			if strings.HasPrefix(s[i-1:], e.lit) {
				best = e.group
				if best == 0 {
					return 0
				}
				break
			}
		}
	}
	if best == min(limit, x.groups) {
		return -1
	}
	return best
}

// FirstBytes is First of b's bytes, without copying them: the index keeps
// nothing of b.
func (x *Index) FirstBytes(b []byte) int {
	return x.First(unsafe.String(unsafe.SliceData(b), len(b)))
}
