package model

import "strconv"

// FieldLines maps paths of status fields of one object to their 1-based line
// in its file, so that evidence can cite the field that decides ("restartCount:
// 5" on line 256) rather than the object's first line. Paths are dotted, list
// elements named by their name or type:
// "status.containerStatuses[api].restartCount",
// "status.conditions[PodScheduled].message". Block-style YAML and JSON are indexed;
// a flow mapping ("state: {waiting: {...}}") is known by its key's line.
type FieldLines map[string]int

// Line returns the line of the first of paths that is known, else 0.
func (f FieldLines) Line(paths ...string) int {
	for _, p := range paths {
		if n := f[p]; n > 0 {
			return n
		}
	}
	return 0
}

// MessageLine returns the line where line k (0-based, the message split at
// "\n") of the multi-line message at path begins, when the reader recorded
// it (a YAML block or double-quoted scalar folded over several lines),
// else the line of path itself (0 when that is not known either).
func (f FieldLines) MessageLine(path string, k int) int {
	if n := f[path+"#"+strconv.Itoa(k)]; n > 0 {
		return n
	}
	return f[path]
}
