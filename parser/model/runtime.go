package model

import "time"

// RuntimeSandbox is one row of `crictl pods` (a pod sandbox), merged with its
// `crictl inspectp` JSON when the sosreport has it.
type RuntimeSandbox struct {
	ID        string // the sandbox ID, as printed (13 hex digits in the table, 64 in inspectp)
	Name      string // pod name
	Namespace string
	UID       string // pod UID, from inspectp labels (io.kubernetes.pod.uid)
	State     string // Ready or NotReady (SANDBOX_READY / SANDBOX_NOTREADY in inspectp)
	Attempt   int    // sandbox attempt: how often the sandbox was recreated
	// Created is when the sandbox was created: from inspectp, else the
	// table's relative CREATED ("34 minutes ago") taken back from the
	// sosreport's date; zero when neither is known.
	Created time.Time
	Source  Source
}

// RuntimeContainer is one row of `crictl ps -a` merged with its `crictl
// inspect` JSON when the sosreport has it.
type RuntimeContainer struct {
	ID      string // container ID as printed (13 hex digits in the table, 64 in inspect)
	PodID   string // sandbox ID
	PodName string // pod name, from the table's POD column or inspect labels
	// PodNamespace and PodUID come from inspect labels (io.kubernetes.pod.*).
	PodNamespace, PodUID string
	Name                 string // container name
	Image                string
	// State is Running, Exited, Created or Unknown (CONTAINER_RUNNING, ... in inspect).
	State string
	// Attempt is the container's restart count within its pod: the
	// kubelet's attempt number for this container name.
	Attempt int
	// ExitCode is set for an exited container whose inspect JSON was read.
	ExitCode *int32
	// Reason and Message are the runtime's ("OOMKilled", "Error", "Completed").
	Reason, Message            string
	Created, Started, Finished time.Time
	Source                     Source // the table row, or the inspect file when there is no row
	Inspect                    Source // the inspect file; Path "" when not gathered
	// Inspected is true when the container's inspect JSON was read.
	Inspected bool
	// CreatedFromTable is true when Created is the crictl table's relative
	// time ("2 hours ago"), to the minute at best.
	CreatedFromTable bool
}

// RuntimeView marks a pod known only from the container runtime of a node
// (crictl in a sosreport), not from the API: its phase, conditions and
// kubectl columns are not known. Node is the sosreport's host name.
type RuntimeView struct {
	Node    string
	Sandbox RuntimeSandbox
	// Containers are every container record of the pod the runtime still
	// holds, all attempts, oldest attempt first per name.
	Containers []RuntimeContainer
}
