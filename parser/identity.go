package parser

import (
	"strings"

	"github.com/mgtriage/mgtriage/parser/openshift"
	corev1 "k8s.io/api/core/v1"
)

// subjectProblem says why a decoded object cannot be a subject of the model
// ("" when it can): a pod, a node or a ClusterOperator needs metadata.name,
// and a pod and an event of a must-gather's events.yaml metadata.namespace
// (the namespaced kinds); an object whose kind is set must be of the kind
// its file holds. The model keeps no event's name (the fast decoder skips
// it), so an event needs instead a reason, a message or an involved object:
// what it says. An object without them is not made up from what is left
// (a pod "/" with a finding of its own): the caller makes the returned
// text a gather problem, with the file and the item's line, instead.
// Objects of other types are not checked here (the object store checks
// its own, objectOf). An event of the other lists (kubectl's form or an
// Insights archive's trimmed form) may take its namespace from the file's
// name (decodeAnyEvents).
func subjectProblem(obj any) string {
	switch o := obj.(type) {
	case *corev1.Pod:
		return identityProblem("Pod", "a pod", o.Kind, o.Name, o.Namespace, true)
	case *corev1.Event:
		if why := identityProblem("Event", "an event", o.Kind, "-", o.Namespace, true); why != "" {
			return why
		}
		return eventSaysNothing(o)
	case *anyEvent:
		// The namespace may come from the file's name (decodeAnyEvents).
		if why := identityProblem("Event", "an event", o.Kind, "-", "", false); why != "" {
			return why
		}
		return eventSaysNothing(&o.Event)
	case *corev1.Node:
		return identityProblem("Node", "a node", o.Kind, o.Name, "", false)
	case *openshift.ClusterOperator:
		return identityProblem("ClusterOperator", "a ClusterOperator", "", o.Name, "", false)
	}
	return ""
}

// eventSaysNothing is subjectProblem for an event with no reason, no
// message and no involved object.
func eventSaysNothing(e *corev1.Event) string {
	if e.Reason == "" && e.Message == "" && e.InvolvedObject.Name == "" && e.InvolvedObject.Kind == "" {
		return "an Event without reason, message or involvedObject: not read as an event"
	}
	return ""
}

// identityProblem is subjectProblem for an object of the kind want (what
// names it in the problem), with the kind, name and namespace it holds;
// namespaced says that it needs a namespace.
func identityProblem(want, what, kind, name, ns string, namespaced bool) string {
	if kind != "" && kind != want {
		return article(cleanKind(kind)) + ", not " + article(want) + ": not read as " + what
	}
	var missing []string
	if name == "" {
		missing = append(missing, "metadata.name")
	}
	if namespaced && ns == "" {
		missing = append(missing, "metadata.namespace")
	}
	if len(missing) == 0 {
		return ""
	}
	return article(want) + " without " + strings.Join(missing, " and ") + ": not read as " + what
}

// article is "a kind" or "an kind", by the kind's first letter.
func article(kind string) string {
	if kind != "" && strings.ContainsRune("AEIOUaeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// cleanKind bounds a kind read from the gather for a problem's text.
func cleanKind(k string) string {
	const max = 64
	k = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, k)
	if len(k) > max {
		k = strings.ToValidUTF8(k[:max], "") + "…"
	}
	return k
}
