package rules

// EvidenceKind says what an evidence line cites. Its values are the enum of
// report.json's findings[].evidence[].kind (docs/report-schema.md); a test
// of package report keeps the two lists equal.
type EvidenceKind string

const (
	// EvidenceStatus is a status field of the subject (a container's state,
	// a condition), summarised by mgtriage.
	EvidenceStatus EvidenceKind = "status"
	// EvidenceSpec is a spec field of the subject (scheduling or readiness
	// gates), summarised by mgtriage.
	EvidenceSpec EvidenceKind = "spec"
	// EvidenceEvent is an event: its type, reason and message.
	EvidenceEvent EvidenceKind = "event"
	// EvidenceNodeLog is a (collapsed) line of a node's journal: kubelet,
	// CRI-O, kernel, or an install bundle's host unit.
	EvidenceNodeLog EvidenceKind = "node-log"
	// EvidenceContainerLog is a line of a container's previous or current log.
	EvidenceContainerLog EvidenceKind = "container-log"
	// EvidenceObject is an object of the store a join or matcher read, with
	// what in it decides, summarised by mgtriage.
	EvidenceObject EvidenceKind = "object"
	// EvidenceAlert is a firing alert of the Prometheus rules dump.
	EvidenceAlert EvidenceKind = "alert"
	// EvidenceLog is a line of a container log of an install log bundle (a
	// bootstrap or control-plane host's container, not a pod's).
	EvidenceLog EvidenceKind = "log"
)

// EvidenceKinds lists every kind an evidence line may have, in the order
// docs/report-schema.md lists them.
func EvidenceKinds() []EvidenceKind {
	return []EvidenceKind{EvidenceStatus, EvidenceSpec, EvidenceEvent, EvidenceNodeLog, EvidenceContainerLog, EvidenceObject, EvidenceAlert, EvidenceLog}
}

// Summary reports whether mgtriage writes the text of evidence of this
// kind (a status or spec field, a joined object, an alert) rather than
// quoting a line of the file.
func (k EvidenceKind) Summary() bool {
	switch k {
	case EvidenceStatus, EvidenceSpec, EvidenceObject, EvidenceAlert:
		return true
	}
	return false
}
