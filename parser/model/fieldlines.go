package model

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
