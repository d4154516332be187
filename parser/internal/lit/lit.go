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
}

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
	return x
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
