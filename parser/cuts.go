package parser

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// cut records data a limit dropped (model.Cut), said in the reports next
// to the count it affects and in the coverage besides the gather problem.
func (b *builder) cut(c model.Cut) {
	c.Path = cutText(c.Path)
	b.mu.Lock()
	b.cuts = append(b.cuts, c)
	b.mu.Unlock()
}

// settleCuts returns the cuts in path order (the workers record them in
// any order).
func (b *builder) settleCuts() []model.Cut {
	out := slices.Clone(b.cuts)
	slices.SortStableFunc(out, func(x, y model.Cut) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// cutCount is the count a cut of a member of kind c affects.
func cutCount(c classified) string {
	switch c.Kind {
	case kindPodList, kindPod:
		return model.CutPods
	case kindEventList:
		return model.CutEvents
	case kindNode, kindNodeList:
		return model.CutNodes
	}
	return model.CutObjects
}

// cutFile names a file of kind c in a cut's text ("events file").
func cutFile(c classified) string {
	switch c.Kind {
	case kindPodList, kindEventList, kindNodeList:
		return strings.TrimSuffix(cutCount(c), "s") + "s file"
	case kindPod, kindNode:
		return strings.TrimSuffix(cutCount(c), "s") + " file"
	}
	return "object file"
}

// mib writes a size in whole MiB ("703 MiB"), or KiB under 1 MiB (a
// lowered limit's).
func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// prefixList reports whether the member at p, of kind c, is a List in YAML
// that is decoded up to the file limit when it is larger (readListPrefix):
// its items are independent, so the ones before the cut stand.
func prefixList(p string, c classified) bool {
	switch c.Kind {
	case kindPodList, kindEventList, kindNodeList, kindObjectList, kindClusterOperators:
	default:
		return false
	}
	ext := path.Ext(strings.TrimSuffix(p, ".gz"))
	return ext == ".yaml" || ext == ".yml"
}

// readListPrefix reads the List at p from r, at most the file limit of it:
// a larger one is kept up to its last line break within the limit, and
// marked cut (cutFiles) so that its decoder drops the item cut there
// (listMem); the cut is recorded. size is the member's size when it is that
// of the bytes r gives (0: unknown), declared its archive size.
func (b *builder) readListPrefix(p string, c classified, r io.Reader, size, declared int64) ([]byte, error) {
	max := b.maxObjectFileBytes
	lr := &io.LimitedReader{R: r, N: max}
	if size > max {
		size = 0
	}
	data, err := readBounded(lr, max, size, b.bufs)
	if err != nil || lr.N > 0 {
		return data, err
	}
	var one [1]byte
	if n, _ := io.ReadFull(r, one[:]); n == 0 {
		return data, nil // exactly at the limit
	}
	of := "of more than " + mib(max) + " once decompressed"
	if size == 0 && declared > max {
		of = "of " + mib(declared)
	}
	i := bytes.LastIndexByte(data, '\n')
	if i < 0 {
		// Not a line of text within the limit (a bomb of zeros): nothing
		// to decode.
		b.cut(model.Cut{Count: cutCount(c), Path: p, Read: model.CutNotRead,
			Text: fmt.Sprintf("1 %s %s not read: over the %s limit", cutFile(c), of, mib(max))})
		if size == 0 && declared > max {
			return nil, fmt.Errorf("file of %s is larger than the %s limit for one object file, skipped: %w", mib(declared), mib(max), errTooLarge)
		}
		return nil, fmt.Errorf("file is larger than %d MiB once decompressed, skipped: %w", max>>20, errTooLarge)
	}
	data = data[:i+1]
	b.cut(model.Cut{Count: cutCount(c), Path: p, Read: model.CutInPart,
		Text: fmt.Sprintf("1 %s %s read only to the %s limit", cutFile(c), of, mib(max))})
	b.mu.Lock()
	if b.cutFiles == nil {
		b.cutFiles = map[string]bool{}
	}
	b.cutFiles[p] = true
	b.mu.Unlock()
	return data, nil
}

// listMem is the load's memory for decoding the List at p, marked cut when
// readListPrefix cut it.
func (b *builder) listMem(p string) loadMem {
	lm := b.mem()
	b.mu.Lock()
	lm.cut = b.cutFiles[p]
	b.mu.Unlock()
	return lm
}

// podUnderCap counts one more pod, of the list at p (its item at line),
// and reports whether it is within the pod limit; the first over it is
// recorded as a problem and a cut.
func (b *builder) podUnderCap(p string, line int) bool {
	if b.podCount.Add(1) <= b.maxPods {
		return true
	}
	b.podLimitOnce.Do(func() {
		from := p
		if line > 0 {
			from = fmt.Sprintf("%s line %d", p, line)
		}
		b.problem(p, fmt.Sprintf("more than %d pods in the gather: the pods beyond the limit are not analysed (from %s on)", b.maxPods, from))
		b.cut(model.Cut{Count: model.CutPods, Path: p, Read: model.CutInPart,
			Text: fmt.Sprintf("pods over the %d-pod limit not read", b.maxPods)})
	})
	return false
}

// objectUnderCap counts one more object of another kind, of the file at p
// (its item at line), and reports whether it is within MaxObjects; the
// first over it is recorded as a problem and a cut.
func (b *builder) objectUnderCap(p string, line int) bool {
	if b.objectCount.Add(1) <= MaxObjects {
		return true
	}
	b.objectLimitOnce.Do(func() {
		from := p
		if line > 0 {
			from = fmt.Sprintf("%s line %d", p, line)
		}
		b.problem(p, fmt.Sprintf("more than %d objects of other kinds in the gather: the objects beyond the limit are not indexed (from %s on)", MaxObjects, from))
		b.cut(model.Cut{Count: model.CutObjects, Path: p, Read: model.CutInPart,
			Text: fmt.Sprintf("objects over the %d-object limit not indexed", MaxObjects)})
	})
	return false
}
