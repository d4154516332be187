package model

// ReleaseObjects lets the object store go once the findings are built: the
// rules' joins are its only readers (a finding keeps the few objects it
// names), and on a large gather it is about a quarter of the model
// (measured at ×50 of the corpus metal gather). A report built afterwards
// reads no object of the store; g.Objects is nil from here on.
func (g *Gather) ReleaseObjects() {
	g.Objects = nil
}
