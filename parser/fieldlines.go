package parser

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// maxFieldLines bounds the paths kept per object (at most maxSpecFieldLines
// of them outside status); maxFieldScan the lines scanned for one object.
const (
	maxSpecFieldLines = 96
	maxFieldLines     = 256 + maxSpecFieldLines
	maxFieldScan      = 20000
)

// statusFieldKeys are the keys worth a line under status (and its lists):
// a pod's phase, conditions and container states, a node's or a
// ClusterOperator's conditions, and a node's allocatable and capacity (with
// every resource under them, see fieldIndex.add).
var statusFieldKeys = map[string]bool{
	"status": true, "phase": true, "reason": true, "message": true, "conditions": true, "type": true,
	"containerStatuses": true, "initContainerStatuses": true, "name": true, "restartCount": true, "ready": true,
	"state": true, "lastState": true, "waiting": true, "running": true, "terminated": true, "exitCode": true, "signal": true,
	"allocatable": true, "capacity": true,
}

// statusSkipLists are the lists under status that take no line: a node's
// hundred images and its volumes, a ClusterOperator's related objects.
var statusSkipLists = map[string]bool{"images": true, "volumesAttached": true, "volumesInUse": true, "relatedObjects": true}

// specFieldKeys are the keys worth a line under spec, metadataFieldKeys
// under metadata: the parts of a pod's own manifest that joins cite (its
// probes' ports against the ports it declares, the nodeName it was bound by,
// its finalizers, deletion and annotations; the security context a container runs with,
// its mounts and working directory, the volumes behind them), and a node's
// taints and cordon. A path under spec is indexed only when every key on it
// is one of these, so a container's env takes no room.
var (
	specFieldKeys = map[string]bool{
		"containers": true, "initContainers": true, "name": true,
		"livenessProbe": true, "readinessProbe": true, "startupProbe": true, "httpGet": true, "tcpSocket": true, "grpc": true,
		"port": true, "ports": true, "containerPort": true, "nodeName": true,
		"securityContext": true, "runAsNonRoot": true, "runAsUser": true, "readOnlyRootFilesystem": true,
		"volumeMounts": true, "mountPath": true, "readOnly": true, "subPath": true, "workingDir": true, "terminationMessagePolicy": true,
		"volumes": true, "configMap": true, "secret": true, "secretName": true, "projected": true, "downwardAPI": true,
		"persistentVolumeClaim": true, "claimName": true, "emptyDir": true, "hostPath": true,
		"taints": true, "key": true, "value": true, "effect": true, "unschedulable": true,
	}
	metadataFieldKeys = map[string]bool{"finalizers": true, "deletionTimestamp": true, "deletionGracePeriodSeconds": true, "annotations": true}
	// annotationFieldKeys are the annotations worth a line (a pod may hold
	// dozens; these are the ones joins read): the Multus networks a pod
	// asks for.
	annotationFieldKeys = map[string]bool{"k8s.v1.cni.cncf.io/networks": true}
)

// specPath reports whether the path of stack is one of spec and metadata
// that scanFieldLines indexes.
func specPath[T any](stack []T, key func(T) string) bool {
	if len(stack) < 2 {
		return false
	}
	switch key(stack[0]) {
	case "metadata":
		// The annotations a join cites are indexed by their key:
		// "metadata.annotations.k8s.v1.cni.cncf.io/networks".
		return len(stack) == 2 && metadataFieldKeys[key(stack[1])] || len(stack) == 3 && key(stack[1]) == "annotations" && annotationFieldKeys[key(stack[2])]
	case "spec":
		for _, f := range stack[1:] {
			if k := key(f); !strings.HasPrefix(k, "[") && !specFieldKeys[k] {
				return false
			}
		}
		return true
	}
	return false
}

// scanFieldLines indexes the status fields (and the specFieldKeys paths of
// spec and metadata) of the YAML object that starts at line start (1-based) of data, where lines holds the offset of every line's
// start. The object ends at the first later line indented no deeper than its
// first line's key column, or at the end of data. It never reads more than
// maxFieldScan lines. A JSON file (isJSON) is read by scanJSONFieldLines.
func scanFieldLines(data []byte, lines []int, start int) model.FieldLines {
	if start < 1 || start > len(lines) {
		return nil
	}
	if isJSON(data) {
		return scanJSONFieldLines(data, lines, start)
	}
	type frame struct {
		indent  int
		key     string
		element bool
	}
	x := newFieldIndex()
	var stack []frame
	counts := map[string]int{}
	objDash := -1 // column of the dash that starts a list-item object
	key := func(f frame) string { return f.key }
	var keys []string
	for n := start; n <= len(lines) && n < start+maxFieldScan; n++ {
		end := len(data)
		if n < len(lines) {
			end = lines[n]
		}
		line := bytes.TrimRight(data[lines[n-1]:end], "\r\n")
		text := bytes.TrimLeft(line, " ")
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		lead := len(line) - len(text)
		item := text[0] == '-' && (len(text) == 1 || text[1] == ' ')
		if n == start {
			if item {
				objDash = lead
			}
			item = false
		} else if objDash >= 0 && lead <= objDash {
			break // the next object of the list
		}
		if item {
			text = bytes.TrimLeft(text[1:], " ")
		}
		indent := len(line) - len(text)
		k, _, ok := bytes.Cut(text, []byte(":"))
		if !ok || len(k) == 0 || bytes.ContainsAny(k, " \"'{[") {
			continue
		}
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.indent > lead || (top.indent == lead && (top.element || !item)) || (!item && top.indent >= indent) {
				stack = stack[:len(stack)-1]
				continue
			}
			break
		}
		if item {
			parent := pathOf(stack, key)
			counts[parent]++
			stack = append(stack, frame{indent: lead, key: "[" + strconv.Itoa(counts[parent]) + "]", element: true})
		}
		stack = append(stack, frame{indent: indent, key: string(k)})
		keys = keys[:0]
		for _, f := range stack {
			keys = append(keys, f.key)
		}
		x.add(keys, n, item, func() string { return strings.Trim(strings.TrimSpace(string(text[len(k)+1:])), `"'`) })
		if string(k) == "message" && keys[0] == "status" {
			value := text[len(k)+1:]
			off := lines[n-1] + (len(line) - len(value))
			for i, at := range messageLineStarts(data, lines, n, off) {
				x.raw[pathOf(keys, func(s string) string { return s })+"#"+strconv.Itoa(i)] = at
			}
		}
	}
	return x.lines()
}

// maxMessageLines bounds the lines of one multi-line message whose file
// line is recorded (a termination message holds at most 80 lines or 4 KiB).
const maxMessageLines = 100

// messageLineStarts returns, for a status message whose value starts at
// offset off of data (after "message:" on line n), the file line where each
// line of the message begins: the lines of a literal block scalar ("|"),
// or in a double-quoted scalar the line where the text after each "\n"
// escape resumes (YAML folds long values over several file lines); nil for
// other styles and for a one-line message.
func messageLineStarts(data []byte, lines []int, n, off int) []int {
	i := off
	for i < len(data) && data[i] == ' ' {
		i++
	}
	if i >= len(data) {
		return nil
	}
	switch data[i] {
	case '|':
		// Every file line of the block, while more indented than the key.
		keyIndent := 0
		for keyIndent < len(data)-lines[n-1] && data[lines[n-1]+keyIndent] == ' ' {
			keyIndent++
		}
		var out []int
		for m := n + 1; m <= len(lines) && len(out) < maxMessageLines; m++ {
			end := len(data)
			if m < len(lines) {
				end = lines[m]
			}
			l := bytes.TrimRight(data[lines[m-1]:end], "\r\n")
			if t := bytes.TrimLeft(l, " "); len(t) > 0 && len(l)-len(t) <= keyIndent {
				break
			}
			out = append(out, m)
		}
		return out
	case '"':
	default:
		return nil
	}
	out := []int{n}
	line := n
	for i++; i < len(data) && len(out) < maxMessageLines && line < n+maxFieldScan; i++ {
		switch data[i] {
		case '"':
			if len(out) == 1 {
				return nil
			}
			return out
		case '\n':
			line++
		case '\\':
			if i+1 >= len(data) {
				return nil
			}
			i++
			switch data[i] {
			case '\n':
				line++ // an escaped line break: the value goes on without a space
			case 'n':
				// A message line ends: the next begins after any line
				// break and indentation that follow.
				j := i + 1
			breaks:
				for j < len(data) {
					switch {
					case data[j] == '\n':
						j++
					case data[j] == '\\' && j+1 < len(data) && data[j+1] == '\n':
						j += 2
					default:
						break breaks // the message line begins here
					}
					line++
					for j < len(data) && data[j] == ' ' {
						j++ // the indentation of the new file line
					}
				}
				i = j - 1
				out = append(out, line)
			}
		}
	}
	return nil
}

// fieldIndex collects the field lines of one object, whatever its file's
// form (block YAML: scanFieldLines, JSON: scanJSONFieldLines): the paths
// worth a line (statusFieldKeys, specPath), at most maxFieldLines of them,
// and the name or type of each list element, which names the element's
// paths in lines.
type fieldIndex struct {
	raw            map[string]int
	names          map[string]string // "status.conditions[3]" → "PodScheduled"
	nStatus, nSpec int
}

func newFieldIndex() *fieldIndex {
	return &fieldIndex{raw: map[string]int{}, names: map[string]string{}}
}

func (x *fieldIndex) keep(path string, n int, spec bool) {
	if _, ok := x.raw[path]; ok {
		x.raw[path] = n
		return
	}
	if spec && x.nSpec < maxSpecFieldLines {
		x.nSpec++
		x.raw[path] = n
	} else if !spec && x.nStatus < maxFieldLines-maxSpecFieldLines {
		x.nStatus++
		x.raw[path] = n
	}
}

// add records the key that ends keys (the path from the object's top, list
// elements as "[i]", 1-based) at line n. item says the key is the first of
// a list element (keys[len(keys)-2] is the element), whose line is then the
// element's too. value returns the key's scalar value, read only for a name
// or type that names an element.
func (x *fieldIndex) add(keys []string, n int, item bool, value func() string) {
	id := func(s string) string { return s }
	name := keys[len(keys)-1]
	path := pathOf(keys, id)
	spec := !strings.HasPrefix(path, "status")
	el := strings.TrimSuffix(path, "."+name)
	if !spec && len(keys) > 1 && statusSkipLists[keys[1]] {
		return
	}
	if item && (!spec || specPath(keys[:len(keys)-1], id)) {
		x.keep(el, n, spec) // the element itself
	}
	if spec && !specPath(keys, id) {
		return
	}
	// Every resource a node's allocatable or capacity names has a line.
	resource := len(keys) == 3 && keys[0] == "status" && (keys[1] == "allocatable" || keys[1] == "capacity")
	if !spec && !statusFieldKeys[name] && !resource {
		return
	}
	x.keep(path, n, spec)
	if (name == "name" || name == "type") && strings.HasSuffix(el, "]") {
		x.names[el] = value()
	}
}

// lines returns the paths kept with every element of a path that has a
// name named, the deepest first, so that naming one leaves the text of the
// elements above it as it was: "status.containerStatuses[2].volumeMounts[1].name"
// becomes "status.containerStatuses[app].volumeMounts[config].name". When
// two elements have one name, the path names the first.
func (x *fieldIndex) lines() model.FieldLines {
	out := model.FieldLines{}
	els := make([]string, 0, len(x.names))
	for el := range x.names {
		els = append(els, el)
	}
	sort.Slice(els, func(i, j int) bool {
		if len(els[i]) != len(els[j]) {
			return len(els[i]) > len(els[j])
		}
		return els[i] < els[j]
	})
	for p, n := range x.raw {
		for _, el := range els {
			if i := strings.LastIndexByte(el, '['); i >= 0 && strings.HasPrefix(p, el) && (len(p) == len(el) || p[len(el)] == '.') {
				p = el[:i] + "[" + x.names[el] + "]" + p[len(el):]
			}
		}
		// Two elements of one name (a ClusterOperator's relatedObjects)
		// name one path: the first in the file keeps it, whatever the
		// order of the map.
		if m, ok := out[p]; !ok || n < m {
			out[p] = n
		}
	}
	return out
}

func pathOf[T any](stack []T, key func(T) string) string {
	var b strings.Builder
	for i, f := range stack {
		k := key(f)
		if i > 0 && !strings.HasPrefix(k, "[") {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String()
}

// lineStarts returns the offset of the start of every line of data.
func lineStarts(data []byte) []int {
	return appendLineStarts(nil, data)
}

// appendLineStarts appends the offset of the start of every line of data to out.
func appendLineStarts(out []int, data []byte) []int {
	out = append(out, 0)
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			out = append(out, i+1)
		}
	}
	return out
}

// worthFieldLines reports whether a pod may be cited field by field: it is
// being deleted, or it is not Running with every container ready and never
// restarted, nor Succeeded.
func worthFieldLines(p *corev1.Pod) bool {
	if p.DeletionTimestamp != nil {
		return true
	}
	if p.Status.Phase == corev1.PodSucceeded {
		return false
	}
	if p.Status.Phase != corev1.PodRunning {
		return true
	}
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for _, st := range list {
			if st.RestartCount > 0 || (!st.Ready && st.State.Terminated == nil) {
				return true
			}
		}
	}
	return false
}

// podFieldLines returns the field lines of pod o, the object that starts at
// line (1-based) of data, a pod list or a pod's own file in block YAML or
// JSON (scanFieldLines), when the pod is worth them (worthFieldLines); nil
// otherwise or when its line is not known (0).
func podFieldLines(o *corev1.Pod, data []byte, lines *lineIndex, line int) model.FieldLines {
	if line < 1 || !worthFieldLines(o) {
		return nil
	}
	return scanFieldLines(data, lines.of(data), line)
}

// nodeFieldLines is podFieldLines for a node, the object at line of data:
// the lines of its conditions, allocatable and capacity resources, taints
// and cordon, which node evidence cites (a few dozen paths a node); nil
// when its line is not known.
func nodeFieldLines(data []byte, lines *lineIndex, line int) model.FieldLines {
	if line < 1 {
		return nil
	}
	return scanFieldLines(data, lines.of(data), line)
}

// keyLine returns the line of the top-level key of the list-item object that
// starts at line start ("- apiVersion: v1", or in a JSON file the object
// whose '{' is the first at or after that line's start), or 0 when the
// object has no such key in block style. It reads at most maxFieldScan lines.
func keyLine(data []byte, lines []int, start int, key string) int {
	if start < 1 || start > len(lines) {
		return 0
	}
	if isJSON(data) {
		return jsonKeyLine(data, lines, start, key)
	}
	first := data[lines[start-1]:]
	dash := len(first) - len(bytes.TrimLeft(first, " "))
	col := dash + 2
	want := []byte(key + ":")
	for n := start; n <= len(lines) && n < start+maxFieldScan; n++ {
		end := len(data)
		if n < len(lines) {
			end = lines[n]
		}
		line := data[lines[n-1]:end]
		text := bytes.TrimLeft(line, " ")
		lead := len(line) - len(text)
		if n > start && len(bytes.TrimSpace(text)) > 0 && lead <= dash {
			return 0 // the next item
		}
		if n == start {
			text = bytes.TrimLeft(bytes.TrimPrefix(text, []byte("-")), " ")
			lead = col
		}
		if lead == col && bytes.HasPrefix(text, want) {
			return n
		}
	}
	return 0
}

// lineIndex is lineStarts of one file, computed on first use into a slice
// from pool (the load's scratchPools.lineStarts; nil: a fresh one) that
// release hands back for the next file.
type lineIndex struct {
	pool   *sync.Pool // *[]int
	starts *[]int
}

// of returns the line starts of data; every call on one lineIndex must pass
// the same data.
func (x *lineIndex) of(data []byte) []int {
	if x.starts == nil {
		if x.pool != nil {
			x.starts, _ = x.pool.Get().(*[]int)
		}
		if x.starts == nil {
			x.starts = new([]int)
		}
		*x.starts = appendLineStarts((*x.starts)[:0], data)
	}
	return *x.starts
}

// release hands the slice back; the starts must not be used after it.
func (x *lineIndex) release() {
	if x.pool != nil && x.starts != nil && cap(*x.starts) <= 1<<22 {
		x.pool.Put(x.starts)
	}
	x.starts = nil
}
