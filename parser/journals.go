package parser

// Node journals found by their content, wherever a gather put them:
// ceph_logs/journal_<node>/journal_<node>.gz (storage gathers),
// nodes/<node>/<node>_logs_*.gz (virtualization gathers),
// host_service_logs/workers/, var/log/ copies, compressed or not. A member
// whose path the path rules do not place, but which could hold a journal, is
// opened and its first lines are tried as journalctl's short or
// short-precise form; a journal is then read like any node log and credited
// to the host its path names, else to the host of each line.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// journalSniffBytes is how much of a member is read to tell a journal.
const journalSniffBytes = 32 << 10

// journalDirs are folders where gathers keep node journals.
var journalDirs = []string{"ceph_logs/", "nodes/", "host_service_logs/", "sos_commands/logs/", "var/log/", "journals/", "node_logs/"}

// journalCandidate reports whether a member the path rules left unplaced may
// be a node journal worth opening: under one of journalDirs, or named like a
// journal or a log (".log", "journal", "kubelet", "crio"), and not a
// container log, an object file or an archive.
func journalCandidate(p string) bool {
	if strings.Contains(p, "namespaces/") && strings.Contains(p, "/pods/") {
		return false
	}
	base := strings.ToLower(path.Base(p))
	for _, ext := range []string{".gz", ".xz", ".zst", ".bz2"} {
		base = strings.TrimSuffix(base, ext)
	}
	for _, ext := range []string{".yaml", ".yml", ".json", ".html", ".tar", ".zip", ".tgz", ".pem", ".crt", ".png", ".svg", ".csv"} {
		if strings.HasSuffix(base, ext) {
			return false
		}
	}
	if strings.HasSuffix(base, ".log") || strings.Contains(base, "journal") || strings.Contains(base, "kubelet") || strings.Contains(base, "crio") {
		return true
	}
	for _, d := range journalDirs {
		if strings.HasPrefix(p, d) || strings.Contains(p, "/"+d) {
			return true
		}
	}
	return false
}

// journalHostFromPath returns the node a journal's path names:
// ceph_logs/journal_<node>/…, nodes/<node>/…; "" when the path names none.
func journalHostFromPath(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts[:len(parts)-1] {
		switch {
		case strings.HasPrefix(part, "journal_") && i > 0 && parts[i-1] == "ceph_logs":
			return validHost(strings.TrimPrefix(part, "journal_"))
		case part == "nodes" && i+2 < len(parts):
			return validHost(parts[i+1])
		}
	}
	return ""
}

// validHost returns h when it can be a host name (DNS characters, at most
// 253 bytes), else "".
func validHost(h string) string {
	if h == "" || len(h) > 253 {
		return ""
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			return ""
		}
	}
	return h
}

// sosHostname returns the host name a sosreport's hostname file holds (one
// line of DNS characters, validHost); the error says why the file holds
// none ("hostname file of 5 MiB is not a host name; ignored", "hostname
// file holds "a b", which is not a host name; ignored").
func sosHostname(data []byte) (string, error) {
	if len(data) > 4096 {
		size := fmt.Sprintf("%d KiB", len(data)>>10)
		if len(data) >= 1<<20 {
			size = fmt.Sprintf("%d MiB", len(data)>>20)
		}
		return "", fmt.Errorf("hostname file of %s is not a host name; ignored", size)
	}
	raw := strings.TrimSpace(string(data))
	if raw == "" {
		return "", errors.New("hostname file is empty; the host is unknown")
	}
	if h := validHost(raw); h != "" {
		return h, nil
	}
	if len(raw) > 64 {
		raw = raw[:64] + "…"
	}
	return "", fmt.Errorf("hostname file holds %q, which is not a host name; ignored", raw)
}

// LooksLikeJournal reports whether head (the first bytes of a file) is
// journalctl output in the short or short-precise form: after the "-- Logs
// begin at …", "-- Journal begins at …", "-- Boot … --" and "-- No entries --"
// lines, at least half of the first 50 lines parse as journal entries, and at
// least one does. A last line cut by the end of head is not judged.
func LooksLikeJournal(head []byte) bool {
	lines := bytes.Split(head, []byte("\n"))
	if len(head) >= journalSniffBytes && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	tried, parsed := 0, 0
	for _, line := range lines {
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 || bytes.HasPrefix(line, []byte("-- ")) {
			continue
		}
		if tried++; tried > 50 {
			break
		}
		if _, ok := nodelog.ParseJournal(line, timeZero); ok {
			parsed++
		}
	}
	return parsed > 0 && parsed*2 >= tried
}

// sniffJournal reads m as a node journal when its first bytes are one, and
// returns nil without reading further when they are not.
func (b *builder) sniffJournal(m Member) error {
	rc, err := m.Open()
	if err != nil {
		return nil // not known to be a journal: not a problem of the gather
	}
	defer rc.Close()
	r, done, _, err := decompress(b.ctx, m.Path, rc, b.budget, b.scratch)
	if err != nil {
		return nil
	}
	defer done()
	br := bufio.NewReaderSize(r, journalSniffBytes)
	head, _ := br.Peek(journalSniffBytes)
	if !LooksLikeJournal(head) {
		return nil
	}
	key := memberKeyOf(m.Path)
	if _, dup := b.seen[key]; dup {
		return nil
	}
	b.seen[key] = struct{}{}
	b.countSniffed(m.Path)
	lr := &limitedReader{r: br, left: MaxLogBytes}
	c := classified{Kind: kindServiceLog, Root: rootOf(m.Path), Node: journalHostFromPath(m.Path)}
	return b.logReadError(m.Path, b.readNodeLog(m.Path, c, lr), lr)
}

// timeZero is the reference time of sniffing: years do not matter there.
var timeZero time.Time

// journalNodes returns a Node standing for each host whose journal lines or
// runtime pods the gather holds but of which it has no Node object (matched
// by short host name), with JournalOnly set and the first journal line or
// runtime table naming the host as its Source, sorted by name.
func (b *builder) journalNodes(g *model.Gather) []*model.Node {
	have := map[string]bool{}
	for _, n := range g.Nodes {
		have[model.HostKey(n.Object.Name)] = true
	}
	hosts := map[string]*model.Node{}
	add := func(name string, src model.Source) {
		if name == "" {
			return
		}
		key := model.HostKey(name)
		if have[key] {
			return
		}
		if old := hosts[key]; old != nil {
			// Prefer the longest name (localhost.localdomain over localhost).
			if len(name) > len(old.Object.Name) {
				old.Object.Name = name
			}
			if old.Source.Path == "" {
				old.Source = src
			}
			return
		}
		n := &model.Node{Source: src, JournalOnly: true}
		n.Object.Name = name
		hosts[key] = n
	}
	for _, host := range sortedKeys(g.NodeLog) {
		var src model.Source
		if groups := g.NodeLog[host]; len(groups) > 0 {
			src = groups[0].Source
		}
		add(host, src)
	}
	for _, host := range g.KubeletLogNodes {
		add(host, b.hostSource[host])
	}
	for _, p := range g.Pods {
		if p.Runtime != nil {
			add(p.Runtime.Node, p.Source)
		}
	}
	out := make([]*model.Node, 0, len(hosts))
	for _, n := range hosts {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Object.Name < out[j].Object.Name })
	return out
}

// journalSpans remembers, per gather root, host and unit, the time spans of
// the kept lines of each journal read so far. A sosreport holds the same
// lines several times (the whole journal, this boot's, the last boot's, and
// unit journals such as crio's), and a line repeated by another copy must not
// count twice. Journals are in time order, so a span per file and unit is
// enough. Times are compared without their year: lines read before the
// gather time was known have none yet.
type journalSpans struct {
	done map[string][]timeSpan
}

type timeSpan struct{ first, last time.Time }

// fileSpans collects the spans of one journal while it is read.
type fileSpans struct {
	all *journalSpans
	cur map[string]*timeSpan
}

func (j *journalSpans) file() *fileSpans {
	if j.done == nil {
		j.done = map[string][]timeSpan{}
	}
	return &fileSpans{all: j, cur: map[string]*timeSpan{}}
}

// repeated reports whether an earlier journal of the same root, host and unit
// already covered the time of e, and otherwise extends this file's span.
func (f *fileSpans) repeated(root string, e *nodelog.Entry) bool {
	if e.Time.IsZero() {
		return false
	}
	t := e.Time.AddDate(1-e.Time.Year(), 0, 0)
	key := root + "\x00" + model.HostKey(e.Host) + "\x00" + string(e.Unit)
	for _, s := range f.all.done[key] {
		if !t.Before(s.first) && !t.After(s.last) {
			return true
		}
	}
	s := f.cur[key]
	if s == nil {
		f.cur[key] = &timeSpan{first: t, last: t}
		return false
	}
	if t.Before(s.first) {
		s.first = t
	}
	if t.After(s.last) {
		s.last = t
	}
	return false
}

// close adds the spans of the file to what later journals are checked against.
func (f *fileSpans) close() {
	for k, s := range f.cur {
		f.all.done[k] = append(f.all.done[k], *s)
	}
}

// kubeletVersionLine reads the version a kubelet logs when it starts
// (`"Kubelet version" kubeletVersion="v1.27.8+4fab27b"`).
func kubeletVersionLine(msg []byte) (string, bool) {
	const key = `kubeletVersion="`
	i := bytes.Index(msg, []byte(key))
	if i < 0 || !bytes.Contains(msg[:i], []byte("Kubelet version")) {
		return "", false
	}
	rest := msg[i+len(key):]
	end := bytes.IndexByte(rest, '"')
	if end < 2 || end > 100 || rest[0] != 'v' {
		return "", false
	}
	return string(rest[:end]), true
}

// journalNames collects, while one journal file is read, the hosts and
// syslog identifiers its lines name (model.JournalFile). A file names few
// of either, and most lines the same as the line before: the sets are
// short lists compared byte for byte, the last match tried first, so that
// a line costs a comparison or two and no allocation.
type journalNames struct {
	path          string
	node          string // the host the path names
	lines         int
	hosts, idents nameSet
	units         [4]bool // nodelog's kubelet, crio, kernel, other
}

// nameSet is a set of at most model.MaxJournalFileNames names, in the
// order seen; cut says a name was left out.
type nameSet struct {
	names [][]byte
	last  int
	cut   bool
}

// add adds b; same reports that b is the name added last (nothing to do).
func (s *nameSet) add(b []byte) (same bool) {
	if s.last < len(s.names) && string(s.names[s.last]) == string(b) {
		return true
	}
	for i, n := range s.names {
		if string(n) == string(b) {
			s.last = i
			return false
		}
	}
	if len(s.names) >= model.MaxJournalFileNames {
		s.cut = true
		return false
	}
	s.last = len(s.names)
	s.names = append(s.names, bytes.Clone(b))
	return false
}

func (s *nameSet) sorted() []string {
	out := make([]string, len(s.names))
	for i, n := range s.names {
		out[i] = string(n)
	}
	sort.Strings(out)
	return out
}

// journalUnits are the units journalNames.units stands for, in its order.
var journalUnits = [4]nodelog.Unit{nodelog.UnitKubelet, nodelog.UnitCRIO, nodelog.UnitKernel, nodelog.UnitOther}

func newJournalNames(path string) *journalNames { return &journalNames{path: path} }

// saw records a line's host (node, the host the file's path names, when
// set, instead of the line's), identifier and unit.
func (j *journalNames) saw(node string, host, ident []byte, unit nodelog.Unit) {
	if node != "" {
		if len(j.hosts.names) == 0 {
			j.node = node
			j.hosts.add([]byte(node))
		}
	} else {
		j.hosts.add(host)
	}
	if j.idents.add(ident) {
		return // the unit follows from the identifier
	}
	for i, u := range journalUnits {
		if u == unit {
			j.units[i] = true
		}
	}
}

// file is what was collected, or a zero JournalFile (no Path) when no line
// of the file was a journal line.
func (j *journalNames) file() model.JournalFile {
	if len(j.idents.names) == 0 && !j.idents.cut {
		return model.JournalFile{}
	}
	f := model.JournalFile{Path: j.path, Lines: j.lines, Node: j.node, Hosts: j.hosts.sorted(), HostsCut: j.hosts.cut, Idents: j.idents.sorted(), IdentsCut: j.idents.cut}
	for i, u := range journalUnits {
		if j.units[i] {
			f.Units = append(f.Units, string(u))
		}
	}
	sort.Strings(f.Units)
	return f
}

// addJournalFile records a journal file read (none when f has no Path).
func (b *builder) addJournalFile(f model.JournalFile) {
	if f.Path == "" {
		return
	}
	b.mu.Lock()
	b.journalFiles = append(b.journalFiles, f)
	b.mu.Unlock()
}
