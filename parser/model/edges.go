package model

import (
	"sort"
)

// Edges between the Gather's subjects, built once by Gather.Freeze: pod ↔
// store object, pod → Node, node events, node log and kubelet journals by
// host (HostKey), and events by involved object. Readers ask these methods;
// none builds its own index or a "uid/namespace/name" key.

// gatherEdges holds the Gather's edge indexes, made by Freeze.
type gatherEdges struct {
	frozen bool
	// nodeByName is the Node object of each name.
	nodeByName map[string]*Node
	// nodeEvents are the events about a Node, by HostKey of its name.
	nodeEvents map[string][]*Event
	// nodeLog are the node-level log groups by HostKey of their host, the
	// hosts' groups in the order of the sorted host names.
	nodeLog map[string][]*LogGroup
	// kubeletLogs holds the HostKey of every host with a kubelet journal.
	kubeletLogs map[string]bool
	// eventsByObject are the events about objects other than pods, by
	// their involved object (a pod's are its Pod.Events). Pods' events are
	// most of a gather's, and this index lives as long as the model.
	eventsByObject map[objectRef][]*Event
}

// Freeze builds the edges between the gather's subjects, once the reading is
// done and Objects (nil for none: an empty store takes its place) is frozen.
// It links each pod to its store object, each pod to its Node, and indexes
// node events, node log groups and kubelet journals by host and events by
// object. The parser calls it once; from then on the Gather and everything
// it reaches are read-only and shared, safe for concurrent reads. A second
// call does nothing.
func (g *Gather) Freeze() {
	if g.edges.frozen {
		return
	}
	e := &g.edges
	e.frozen = true
	if g.Objects == nil {
		g.Objects = New()
		g.Objects.Freeze()
	}
	e.nodeByName = make(map[string]*Node, len(g.Nodes))
	for _, n := range g.Nodes {
		if e.nodeByName[n.Object.Name] == nil {
			e.nodeByName[n.Object.Name] = n
		}
	}
	for _, p := range g.Pods {
		p.node = e.nodeByName[p.Object.Spec.NodeName]
		if o, _ := g.Objects.Get(Pods, p.Object.Namespace, p.Object.Name); o != nil && o.UID == string(p.Object.UID) {
			o.pod = p // of pods that share UID, namespace and name, the last one
		}
	}
	e.nodeEvents = map[string][]*Event{}
	e.eventsByObject = map[objectRef][]*Event{}
	for _, ev := range g.Events {
		io := ev.Object.InvolvedObject
		switch io.Kind {
		case "Pod":
			continue
		case "Node":
			k := HostKey(io.Name)
			e.nodeEvents[k] = append(e.nodeEvents[k], ev)
		}
		k := objectRef{io.Kind, io.Namespace, io.Name}
		e.eventsByObject[k] = append(e.eventsByObject[k], ev)
	}
	e.nodeLog = map[string][]*LogGroup{}
	hosts := make([]string, 0, len(g.NodeLog))
	for h := range g.NodeLog {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for _, h := range hosts {
		k := HostKey(h)
		e.nodeLog[k] = append(e.nodeLog[k], g.NodeLog[h]...)
	}
	e.kubeletLogs = map[string]bool{}
	for _, h := range g.KubeletLogNodes {
		e.kubeletLogs[HostKey(h)] = true
	}
}

// NodeNamed returns the Node object named name (spec.nodeName of a pod), or nil.
func (g *Gather) NodeNamed(name string) *Node { return g.edges.nodeByName[name] }

// NodeEvents returns the events whose involved object is the Node host
// (matched by HostKey), in the order of Events.
func (g *Gather) NodeEvents(host string) []*Event { return g.edges.nodeEvents[HostKey(host)] }

// NodeLogOf returns the node-level log groups of host (matched by HostKey).
func (g *Gather) NodeLogOf(host string) []*LogGroup { return g.edges.nodeLog[HostKey(host)] }

// HasKubeletLog reports whether the gather holds a kubelet journal of host
// (matched by HostKey).
func (g *Gather) HasKubeletLog(host string) bool { return g.edges.kubeletLogs[HostKey(host)] }

// objectRef names an involved object by the strings its events already
// hold: an index key that makes no new string.
type objectRef struct{ kind, namespace, name string }

// EventsOf returns the events whose involved object is kind/namespace/name
// (kind as events write it: "ReplicaSet"), in the order of Events. A pod's
// events are its Pod.Events: EventsOf answers nil for kind "Pod".
func (g *Gather) EventsOf(kind, namespace, name string) []*Event {
	return g.edges.eventsByObject[objectRef{kind, namespace, name}]
}

// Pod returns the model's pod that store object o is (same namespace, name
// and UID), or nil: for objects of other kinds, and for a store pod whose
// copy the model did not keep. Set by Gather.Freeze.
func (o *Object) Pod() *Pod { return o.pod }

// Node returns the Node object the pod is bound to (spec.nodeName), or nil
// when none was gathered. Set by Gather.Freeze.
func (p *Pod) Node() *Node { return p.node }

// PodFor returns the model's pod with the namespace, name and UID of p (a
// typed store object or one a join decoded), or nil.
func (s *Store) PodFor(namespace, name, uid string) *Pod {
	if o, _ := s.Get(Pods, namespace, name); o != nil && o.UID == uid {
		return o.pod
	}
	return nil
}

// HostMatch reports whether host names a and b name the same host: both are
// named and their HostKeys are equal (a Node named by its FQDN and a journal
// naming the short host, or the reverse). An empty name matches nothing: a
// pod not yet scheduled is on no node.
func HostMatch(a, b string) bool { return a != "" && b != "" && HostKey(a) == HostKey(b) }

// ID is "uid/namespace/name": the pod's key within one gather, different for
// two pods of one name (a pod and the one that replaced it).
func (p *Pod) ID() string { return string(p.Object.UID) + "/" + p.Key() }
