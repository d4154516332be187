package parser

import (
	"bytes"
	"sync"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
)

// podDedup recognises a per-pod file (pods/<pod>/<pod>.yaml) whose pod the
// namespace's pods.yaml already holds, before the file is decoded: real
// gathers hold every pod twice, and choosePods keeps the list's copy of a
// UID anyway. A skipped file only lends its latest condition time to the
// gather-time fallback (settleTime), the one other reader of per-pod files.
type podDedup struct {
	mu       sync.Mutex
	lists    map[nsKey][]chan struct{} // pods.yaml decodes submitted, closed when done
	uids     map[nsKey]map[string]bool // UIDs of complete list items
	partial  map[nsKey]map[string]bool // "ns/name" of list items cut short
	latest   time.Time                 // latest lastTransitionTime of the skipped files
	skipped  int
	disabled bool // tests: decode every per-pod file
}

// submit hands j to the decode workers, noting a pods.yaml in flight and,
// for a per-pod file, which pods.yaml decodes to wait for (only those
// submitted before it, which the workers take first: no deadlock).
func (b *builder) submit(j decodeJob) {
	d := &b.dedup
	k := nsKey{j.c.Root, j.c.Namespace}
	d.mu.Lock()
	switch j.c.Kind {
	case kindPodList:
		if d.lists == nil {
			d.lists = map[nsKey][]chan struct{}{}
		}
		j.done = make(chan struct{})
		d.lists[k] = append(d.lists[k], j.done)
	case kindPod, kindContainerLog:
		j.after = append([]chan struct{}(nil), d.lists[k]...)
	}
	d.mu.Unlock()
	b.jobs <- j
}

// awaitPodLists waits for the decodes of the pods.yaml files of k's
// namespace submitted so far: a container log read after them knows
// whether its container is quiet (quietContainer) instead of keeping its
// lines until the pod is decoded. The workers take those decodes before
// anything submitted later: no deadlock.
func (b *builder) awaitPodLists(k nsKey) {
	d := &b.dedup
	d.mu.Lock()
	lists := d.lists[k]
	d.mu.Unlock()
	for _, ch := range lists {
		<-ch
	}
}

// runJob decodes j, unless it is a per-pod file that duplicates a complete
// item of its namespace's pods.yaml.
func (b *builder) runJob(j decodeJob) error {
	if j.log != nil {
		return b.inflateLog(j)
	}
	if j.done != nil {
		defer close(j.done)
	}
	if recycledKinds[j.c.Kind] {
		defer b.bufs.Put(j.data)
	}
	if j.c.Kind == kindPod && len(j.after) > 0 && !b.dedup.disabled {
		for _, ch := range j.after {
			<-ch
		}
		if b.dedup.skip(nsKey{j.c.Root, j.c.Namespace}, j.data) {
			return nil
		}
	}
	return b.decodeHeavy(j.path, j.c, j.data)
}

// recycledKinds are the heavy kinds whose decoding keeps no slice of the
// file's bytes (every string is a copy, FieldLines holds numbers), so that
// runJob hands the buffer back to bufpool once decoded. The other kinds
// (install bundles, alerts, etcd, Insights captures) are rare and left to the
// collector. TestRecycledBuffersAreNotKept checks the model after overwriting
// every recycled buffer.
var recycledKinds = map[fileKind]bool{kindPodList: true, kindPod: true, kindEventList: true,
	kindNode: true, kindNodeList: true, kindClusterOperators: true, kindObjectList: true, kindObject: true}

// noteList records the items of a decoded pods.yaml.
func (d *podDedup) noteList(k nsKey, pods []*model.Pod) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.uids == nil {
		d.uids, d.partial = map[nsKey]map[string]bool{}, map[nsKey]map[string]bool{}
	}
	for _, p := range pods {
		if p.Partial {
			if d.partial[k] == nil {
				d.partial[k] = map[string]bool{}
			}
			d.partial[k][p.Key()] = true
		} else if p.Object.UID != "" {
			if d.uids[k] == nil {
				d.uids[k] = map[string]bool{}
			}
			d.uids[k][string(p.Object.UID)] = true
		}
	}
}

// skip reports whether the per-pod file data holds a pod whose UID a
// complete item of the namespace's list has, with no item of its name cut
// short (choosePods would then prefer the file).
func (d *podDedup) skip(k nsKey, data []byte) bool {
	ns, name, uid, ok := podIdentity(data)
	if !ok || uid == "" || name == "" {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.uids[k][uid] || d.partial[k][ns+"/"+name] {
		return false
	}
	if t := latestTransition(data); t.After(d.latest) {
		d.latest = t
	}
	d.skipped++
	return true
}

// podIdentity reads metadata.namespace, name and uid of a Pod document in
// oc's block YAML: two-space keys under a `metadata:` line at column 0, with
// plain or simply quoted values, and one metadata key in the whole document.
// ok is false for anything else (the file is then decoded).
func podIdentity(data []byte) (ns, name, uid string, ok bool) {
	inMeta, seenMeta := false, false
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte{'\n'})
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if line[0] != ' ' {
			inMeta = false
			if bytes.HasPrefix(line, []byte("metadata")) {
				if seenMeta {
					return "", "", "", false
				}
				inMeta, seenMeta = true, true
			}
			continue
		}
		if !inMeta || len(line) < 3 || line[1] != ' ' || line[2] == ' ' {
			continue
		}
		key, val, found := bytes.Cut(line[2:], []byte(": "))
		if !found {
			continue
		}
		var dst *string
		switch string(key) {
		case "name":
			dst = &name
		case "namespace":
			dst = &ns
		case "uid":
			dst = &uid
		default:
			continue
		}
		v, good := simpleScalar(val)
		if !good || *dst != "" {
			return "", "", "", false
		}
		*dst = v
	}
	return ns, name, uid, seenMeta
}

// simpleScalar reads a plain or quoted value made of name characters only.
func simpleScalar(v []byte) (string, bool) {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		v = v[1 : len(v)-1]
	}
	if len(v) == 0 {
		return "", false
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return "", false
		}
	}
	return string(v), true
}

// latestTransition returns the latest `lastTransitionTime:` (RFC 3339) in data.
func latestTransition(data []byte) time.Time {
	var latest time.Time
	key := []byte("lastTransitionTime: ")
	for {
		i := bytes.Index(data, key)
		if i < 0 {
			return latest
		}
		data = data[i+len(key):]
		v, _, _ := bytes.Cut(data, []byte{'\n'})
		v = bytes.Trim(bytes.TrimSpace(v), `"'`)
		if t, err := time.Parse(time.RFC3339, string(v)); err == nil && t.After(latest) {
			latest = t.UTC()
		}
	}
}
