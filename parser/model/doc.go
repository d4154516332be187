// Package model is what rules and reports read of a gather: the Gather and
// its subjects (pods with their kubectl columns and containers, events,
// nodes, node-log groups, container logs with their kept lines, operators,
// alerts, etcd health, install bundles, runtime views of node sosreports),
// what the reader made of the input (layouts, coverage, problems), and the
// object store (Store) that indexes every object of the gather with the
// coverage of every lookup. It also holds every edge between subjects, built
// once by Gather.Freeze and the store's Freeze (edges.go, joins.go), the
// facts derived from them (facts.go), and each concept that more than one
// layer needs, computed in one place: the owner of a pod and its controller
// chain, a subject's identity across gathers and the table of controller
// kinds (owner.go), the host key of a node or journal (HostKey, HostMatch),
// and what a run needs the reader to decode and keep (needs.go).
//
// The readers under package parser fill a Gather in their one pass and
// freeze its store; after that the model is read-only: rules, reports and
// every command only read it, and parts of it are shared (interned strings,
// the InvolvedObject of one object's events, the encoded kept lines), so a
// reader must never modify what it is given. Typed store objects keep only
// what rules read: ConfigMaps and Secrets their key names, Events their
// compact form (EventObject).
//
// The package knows no file format and no rule: it imports only the
// Kubernetes knowledge packages (podstatus, nodelog, openshift).
package model
