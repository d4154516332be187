package report

import (
	"fmt"
	"maps"
	"net/netip"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Redact returns a copy of r in which every string from the gather has its
// IPv4 and IPv6 addresses, host names (node names, their short names, other
// FQDNs), the cluster's domains, name and ID, the input's path and name,
// e-mail addresses and secrets (bearer and OpenShift sha256~ tokens, JWTs,
// password=... and similar values, URL passwords, long hex and base64
// strings) replaced by placeholders: host-N, ip-N, domain-N, cluster-N,
// cluster-id-N, input-N, email-N, token-N, secret-N. The same value gets the
// same placeholder everywhere in the report, so all writers show the same
// names.
//
// The cluster's own values are learned from the report before anything is
// replaced: node names and the Hostname addresses of nodes; the base domain
// (Gather.BaseDomain, the DNS config's spec.baseDomain) and the domain above
// it; the API host's domain (Gather.APIServerURL); the infrastructure name
// and the cluster name it starts with (Gather.InfrastructureName without its
// random suffix); the cluster ID (Gather.ClusterID); the input path
// (Gather.Path) and its base name.
//
// The second result maps each original value (key) to its placeholder
// (value), as --redact-map writes it: {"10.0.0.5": "ip-1"}. Fields that
// the tool writes itself (rule ids, titles, docs links, kubectl's column words,
// kinds and classes) are tagged redact:"keep" and copied as they are.
// Placeholders left by must-gather-clean (x-ipv4-0000000001-x,
// domain0000000001) and image digests (sha256:...) are kept. r is not changed.
//
// Domains are learned from the node names (what follows the first label) and
// from the cluster's own FQDNs in the report (api.<domain>, api-int.<domain>,
// *.apps.<domain>); well-known public domains (kubernetes.io, openshift.io,
// quay.io, redhat.com, ...) are kept.
func Redact(r *Report) (*Report, map[string]string) {
	rd := newRedactor()
	rd.learn(r)
	out := rd.copy(reflect.ValueOf(r).Elem()).Addr().Interface().(*Report)
	return out, rd.mapping
}

// RedactDiff returns a copy of d redacted as Redact redacts a report, with
// one set of placeholders for both gathers: the cluster's own names are
// learned from names (each side's Snapshot.Names, in order OLD, NEW) and
// from d, so a value has the same placeholder in OLD and NEW, and the
// second result, the mapping original → placeholder, covers both. The two
// input paths become input-1 and input-2. d is not changed.
func RedactDiff(d *Diff, names ...*Report) (*Diff, map[string]string) {
	rd := newRedactor()
	var hosts []string
	for _, r := range names {
		if r != nil {
			hosts = append(hosts, reportHostNames(r)...)
		}
	}
	for _, n := range d.Nodes {
		hosts = append(hosts, n.Name)
	}
	for _, list := range [][]PodChange{d.Pods.NewlyUnhealthy, d.Pods.Recovered, d.Pods.Replaced, d.Pods.Gone} {
		for _, p := range list {
			hosts = append(hosts, p.Node)
		}
	}
	var findings []Finding
	for _, f := range d.Findings {
		for _, x := range []*Finding{f.Old, f.New} {
			if x != nil {
				findings = append(findings, *x)
			}
		}
	}
	hosts = append(hosts, reportHostNames(&Report{Findings: findings})...)
	rd.learnHosts(hosts)
	for _, r := range names {
		if r != nil {
			rd.learnCluster(r.Gather)
			rd.learnFQDNs(reflect.ValueOf(r).Elem())
		}
	}
	for _, side := range []DiffSide{d.Old, d.New} {
		g := Gather{ClusterID: side.ClusterID}
		if !slices.ContainsFunc(rd.inputs, func(in redactInput) bool { return in.path == side.Path }) {
			g.Path = side.Path
		}
		rd.learnCluster(g)
	}
	rd.learnFQDNs(reflect.ValueOf(d).Elem())
	out := rd.copy(reflect.ValueOf(d).Elem()).Addr().Interface().(*Diff)
	return out, rd.mapping
}

// redactor holds the placeholders given so far. It is used for one report
// or one diff.
type redactor struct {
	mapping map[string]string // original → placeholder
	byKey   map[string]string // kind + canonical value → placeholder
	counts  map[string]int
	// literals maps each node name, node short name and cluster domain, in
	// lower case and with "_" for "." and "-" (as in environment variable
	// names), to its placeholder; domains marks the cluster domains among them.
	literals   map[string]string
	domains    map[string]bool
	maxLiteral int
	// inputs are the inputs learned: one for a report, two for a diff.
	inputs []redactInput
	// folders maps each folder above a gather root (the folder inside an
	// archive, must-gather.local.<n>) to its placeholder (folder-N); it is
	// replaced where it stands as a whole path segment.
	folders map[string]string
}

// redactInput is one input of the run. path is the input path as given
// (and trimmed, without a trailing separator), replaced wherever it occurs;
// name its base name, replaced where a whole string is it (a problem's
// path); all stand for placeholder.
type redactInput struct {
	path, trimmed, name, placeholder string
}

func newRedactor() *redactor {
	return &redactor{mapping: map[string]string{}, byKey: map[string]string{}, counts: map[string]int{},
		literals: map[string]string{}, domains: map[string]bool{}, folders: map[string]string{}}
}

// placeholder returns the placeholder of value of the given kind, making one
// when value is new. key is the canonical form that decides sameness.
func (rd *redactor) placeholder(kind, key, value string) string {
	k := kind + "\x00" + key
	p, ok := rd.byKey[k]
	if !ok {
		rd.counts[kind]++
		p = fmt.Sprintf("%s-%d", kind, rd.counts[kind])
		rd.byKey[k] = p
	}
	if _, seen := rd.mapping[value]; !seen {
		rd.mapping[value] = p
	}
	return p
}

// addLiteral makes name (and its underscore form) stand for placeholder p.
func (rd *redactor) addLiteral(name, p string) {
	for _, v := range []string{name, strings.NewReplacer(".", "_", "-", "_").Replace(name)} {
		if _, ok := rd.literals[v]; !ok {
			rd.literals[v] = p
			rd.maxLiteral = max(rd.maxLiteral, len(v))
		}
	}
	if _, seen := rd.mapping[name]; !seen {
		rd.mapping[name] = p
	}
}

// learn finds the node names and cluster domains before anything is replaced,
// so placeholders are numbered in node order wherever a name first appears.
func (rd *redactor) learn(r *Report) {
	rd.learnHosts(reportHostNames(r))
	rd.learnCluster(r.Gather)
	rd.learnFQDNs(reflect.ValueOf(r).Elem())
}

// reportHostNames lists the node and host names a report names as such:
// nodes, their Hostname and DNS addresses, the pods' nodes, the layouts'
// nodes and the nodes named by findings.
func reportHostNames(r *Report) []string {
	var names []string
	for _, n := range r.Nodes {
		names = append(names, n.Name)
	}
	for _, p := range r.Pods {
		names = append(names, p.Node)
	}
	for _, l := range r.Gather.Layouts {
		names = append(names, l.Node)
	}
	names = append(names, r.Gather.Health.NodesWithoutLogs...)
	for _, f := range r.Findings {
		for _, o := range append(append([]Object(nil), f.Objects...), f.Explains...) {
			if o.Kind == "Node" {
				names = append(names, o.Name)
			}
			names = append(names, o.Node)
		}
	}
	for _, n := range r.Nodes {
		for _, a := range n.Addresses {
			if typ, addr, ok := strings.Cut(a, " "); ok && (typ == "Hostname" || typ == "InternalDNS" || typ == "ExternalDNS") {
				names = append(names, addr)
			}
		}
	}
	return names
}

// learnHosts gives each host name its placeholder, and its short name and
// domain theirs, in the order given.
func (rd *redactor) learnHosts(names []string) {
	var shorts []string
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" || isKeptToken(n) || !hostLike.MatchString(n) {
			continue
		}
		if _, seen := rd.literals[n]; seen {
			continue
		}
		host := rd.placeholder("host", n, n)
		rd.addLiteral(n, host)
		if short, domain, ok := strings.Cut(n, "."); ok {
			if len(short) >= 3 && !allDigits(short) {
				shorts = append(shorts, short, host)
			}
			rd.addDomain(domain, 2, true)
		}
	}
	// Short names after full names, so a full name that equals another
	// node's short name keeps its own placeholder.
	for i := 0; i < len(shorts); i += 2 {
		if _, taken := rd.literals[shorts[i]]; !taken {
			rd.addLiteral(shorts[i], shorts[i+1])
		}
	}
}

// learnFQDNs learns the cluster's domains from its API and route host names
// in any string of v that redaction would change.
func (rd *redactor) learnFQDNs(v reflect.Value) {
	walkStrings(v, func(s string) {
		if !strings.Contains(s, "api") && !strings.Contains(s, "apps.") {
			return
		}
		for _, m := range clusterFQDN.FindAllStringSubmatch(s, -1) {
			// api-int.<domain> exists only inside a cluster; api.<domain>
			// and *.apps.<domain> may be a public service's.
			rd.addDomain(m[1], 3, strings.HasPrefix(strings.ToLower(m[0]), "api-int."))
		}
	})
}

// learnCluster records the cluster's own names from the report's gather
// fields: base domain and the domain above it, the API host's domain, the
// infrastructure and cluster names, the cluster ID and the input path.
func (rd *redactor) learnCluster(g Gather) {
	if base := strings.ToLower(strings.Trim(strings.TrimSpace(g.BaseDomain), ".")); base != "" {
		rd.addDomain(base, 2, true)
		if _, parent, ok := strings.Cut(base, "."); ok {
			rd.addDomain(parent, 2, true)
		}
	}
	if host := urlHost(g.APIServerURL); host != "" {
		for _, prefix := range []string{"api.", "api-int."} {
			if d, ok := strings.CutPrefix(host, prefix); ok {
				rd.addDomain(d, 2, true)
			}
		}
	}
	if infra := strings.ToLower(strings.TrimSpace(g.InfrastructureName)); len(infra) >= 4 && hostLike.MatchString(infra) {
		p := rd.placeholder("cluster", infra, infra)
		rd.addLiteral(infra, p)
		// The installer appends "-" and 5 random characters to the cluster name.
		if i := strings.LastIndexByte(infra, '-'); i > 0 && len(infra)-i-1 == 5 {
			if name := infra[:i]; distinctiveName(name) {
				rd.addLiteral(name, rd.placeholder("cluster", name, name))
			}
		}
	}
	if id := strings.ToLower(strings.TrimSpace(g.ClusterID)); len(id) >= 8 && hostLike.MatchString(id) {
		rd.addLiteral(id, rd.placeholder("cluster-id", id, g.ClusterID))
	}
	if p := strings.TrimSpace(g.Path); p != "" {
		in := redactInput{placeholder: rd.placeholder("input", p, p), path: p, trimmed: strings.TrimRight(p, `/\`)}
		if in.trimmed == "" {
			in.trimmed = p
		}
		in.name = in.trimmed
		if i := strings.LastIndexAny(in.name, `/\`); i >= 0 {
			in.name = in.name[i+1:]
		}
		rd.inputs = append(rd.inputs, in)
	} else if g.Input != nil && g.Input.Name != "" {
		rd.inputs = append(rd.inputs, redactInput{placeholder: rd.placeholder("input", g.Input.Name, g.Input.Name), name: g.Input.Name})
	}
	// The folders of each gather root but a must-gather's image folder and
	// a namespace folder's namespace: the archive's own folder
	// (must-gather.local.<n>, inspect.local.<n>, a sosreport's folder with
	// its host name, a case number) shown in the roots, layouts, gather
	// health and coverage.
	for _, root := range g.Roots {
		rd.learnFolders(root, true)
	}
	for _, l := range g.Layouts {
		rd.learnFolders(l.Root, (l.Kind == model.LayoutMustGather && l.Image != "") || l.Kind == model.LayoutNamespace)
	}
}

// learnFolders gives the folders of root its placeholders (folder-N); the
// last one only when keepLast is false. A "namespaces" folder (above a
// namespace folder) is the layout's own, not a name, and is kept.
func (rd *redactor) learnFolders(root string, keepLast bool) {
	segs := strings.FieldsFunc(root, func(r rune) bool { return r == '/' || r == '\\' })
	if keepLast && len(segs) > 0 {
		segs = segs[:len(segs)-1]
	}
	for _, seg := range segs {
		if _, ok := rd.folders[seg]; !ok && seg != "." && seg != ".." && seg != "namespaces" {
			rd.folders[seg] = rd.placeholder("folder", seg, seg)
		}
	}
}

// distinctiveName reports whether a cluster name is unlike an ordinary word,
// so that replacing it wherever it stands as a word cannot hit code or
// prose: at least 4 characters and a digit or a hyphen in it, or at least 8.
func distinctiveName(s string) bool {
	if len(s) < 4 || !hostLike.MatchString(s) {
		return false
	}
	return len(s) >= 8 || strings.ContainsAny(s, "-0123456789")
}

// urlHost is the lower-case host of an http(s) URL, or "".
func urlHost(u string) string {
	u = strings.ToLower(strings.TrimSpace(u))
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	host, _, _ := strings.Cut(rest, "/")
	if i := strings.LastIndexByte(host, ':'); i > 0 && !strings.Contains(host, "]") {
		host = host[:i]
	}
	return host
}

// addDomain records a domain of the cluster when it has at least minLabels
// labels and is not a well-known public one.
func (rd *redactor) addDomain(d string, minLabels int, own bool) {
	d = strings.ToLower(strings.Trim(d, "."))
	public := publicDomain(d)
	if own {
		// The cluster's own objects name it (node names, the DNS config, the
		// API URL): a cluster under a vendor's domain (a lab cluster under
		// redhat.com) is still private; only a public domain itself is kept.
		public = slices.Contains(publicDomains, d)
	}
	if rd.domains[d] || strings.Count(d, ".")+1 < minLabels || public || isKeptToken(d) || !fqdnWhole.MatchString(d) {
		return
	}
	if _, isNode := rd.literals[d]; isNode {
		return
	}
	rd.domains[d] = true
	rd.addLiteral(d, rd.placeholder("domain", d, d))
}

var (
	// hostLike is a host name: DNS labels separated by dots.
	hostLike = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)
	// clusterFQDN finds the cluster's domain in its API and route host names.
	clusterFQDN = regexp.MustCompile(`(?i)(?:\bapi|\bapi-int|\.apps)\.((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24})\b`)
	fqdnWhole   = regexp.MustCompile(`^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*$`)
)

// Detectors, tried on every string; where matches overlap the earliest, then
// the longest, wins.
var (
	// Kept as they are: must-gather-clean placeholders and image digests.
	keptRe = regexp.MustCompile(`(?i)x-(?:ipv4|ipv6|mac)-\d{10}-x|\bdomain\d{10}\b|\bsha(?:256|512)[:@-][0-9a-f]{32,}`)
	// OpenShift access tokens and JWTs.
	tokenRe = regexp.MustCompile(`\bsha256~[A-Za-z0-9_-]{20,}|\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`)
	// A bearer token after its keyword (group 1).
	bearerRe = regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{16,}=*)`)
	// The value (group 2) of a secret-looking key.
	keyValueRe = regexp.MustCompile(`(?i)\b(password|passwd|pwd|pass|secret|client[_-]?secret|token|access[_-]?token|refresh[_-]?token|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret[_-]?access[_-]?key|private[_-]?key|auth)["']?\s*[:=]\s*["']?([^\s"'&,;)\]}]+)`)
	// The password (group 1) of a URL's user info.
	urlPasswordRe = regexp.MustCompile(`://[^/\s:@]+:([^/\s@]+)@`)
	emailRe       = regexp.MustCompile(`(?i)\b[a-z0-9._%+-]+@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}\b`)
	ipv4Re        = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}\b`)
	ipv6Re        = regexp.MustCompile(`(?i)(?:[0-9a-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9a-f]{0,4})`)
	fqdnRe        = regexp.MustCompile(`(?i)\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}\b`)
	hexRe         = regexp.MustCompile(`(?i)\b[0-9a-f]{32,}\b`)
	base64Re      = regexp.MustCompile(`[A-Za-z0-9+/]{40,}={0,2}`)
)

// span is a part of a string to replace by what repl returns, or to keep
// when repl is nil. repl runs only for the spans applied, so a match that
// loses to an overlapping one takes no placeholder.
type span struct {
	start, end int
	repl       func() string
}

// adder records a span.
type adder func(start, end int, repl func() string)

// lazy returns a repl that gives value its placeholder of kind.
func (rd *redactor) lazy(kind, key, value string) func() string {
	return func() string { return rd.placeholder(kind, key, value) }
}

func fixed(s string) func() string { return func() string { return s } }

// redactString replaces what the detectors find in s.
func (rd *redactor) redactString(s string) string {
	if s == "" {
		return s
	}
	var spans []span
	add := func(start, end int, repl func() string) {
		spans = append(spans, span{start, end, repl})
	}
	lower := asciiLower(s)
	for _, in := range rd.inputs {
		if s == in.name || s == in.path || s == in.trimmed {
			return in.placeholder
		}
	}
	for _, in := range rd.inputs {
		for _, p := range []string{in.path, in.trimmed} {
			// A path with a separator is replaced wherever it occurs; one
			// without (new, mg) only as a path's folder, so that the word
			// elsewhere stays.
			if !strings.ContainsAny(p, `/\`) {
				addSegment(s, p, fixed(in.placeholder), add)
				continue
			}
			for i := 0; p != "" && strings.Contains(s[i:], p); {
				j := i + strings.Index(s[i:], p)
				add(j, j+len(p), fixed(in.placeholder))
				i = j + len(p)
			}
		}
	}
	for name, p := range rd.folders {
		addSegment(s, name, fixed(p), add)
	}
	for _, m := range keptRe.FindAllStringIndex(s, -1) {
		add(m[0], m[1], nil)
	}
	if strings.Contains(s, "sha256~") || strings.Contains(s, "eyJ") {
		for _, m := range tokenRe.FindAllStringIndex(s, -1) {
			v := s[m[0]:m[1]]
			add(m[0], m[1], rd.lazy("token", v, v))
		}
	}
	if strings.Contains(lower, "bearer") {
		for _, m := range bearerRe.FindAllStringSubmatchIndex(s, -1) {
			v := s[m[2]:m[3]]
			add(m[2], m[3], rd.lazy("token", v, v))
		}
	}
	if containsAny(lower, "pass", "pwd", "secret", "token", "key", "auth") {
		for _, m := range keyValueRe.FindAllStringSubmatchIndex(s, -1) {
			if v := s[m[4]:m[5]]; secretValue(strings.ToLower(s[m[2]:m[3]]), v) {
				add(m[4], m[5], rd.lazy("secret", v, v))
			}
		}
	}
	if strings.Contains(s, "@") {
		for _, m := range urlPasswordRe.FindAllStringSubmatchIndex(s, -1) {
			v := s[m[2]:m[3]]
			add(m[2], m[3], rd.lazy("secret", v, v))
		}
		for _, m := range emailRe.FindAllStringIndex(s, -1) {
			if m[0] > 0 && s[m[0]-1] == ':' {
				continue // user:password@host: the password and the host are found on their own
			}
			v := s[m[0]:m[1]]
			add(m[0], m[1], rd.lazy("email", strings.ToLower(v), v))
		}
	}
	rd.addIPs(s, add)
	rd.addHosts(s, add)
	if hasRun(s, isHexByte, 32) {
		for _, m := range hexRe.FindAllStringIndex(s, -1) {
			if v := s[m[0]:m[1]]; len(v) != 64 && !allDigits(v) {
				add(m[0], m[1], rd.lazy("secret", strings.ToLower(v), v))
			}
		}
	}
	if hasRun(s, isBase64Byte, 40) {
		for _, m := range base64Re.FindAllStringIndex(s, -1) {
			if v := s[m[0]:m[1]]; mixedCaseAndDigits(v) && !strings.Contains(v, "//") {
				add(m[0], m[1], rd.lazy("secret", v, v))
			}
		}
	}
	if len(spans) == 0 {
		return s
	}
	return applySpans(s, spans)
}

// addSegment finds name in s where it stands as a folder of a path: after
// the start or a byte that is no part of a name (a separator, a space, a
// quote) and before a path separator, or at the end after a separator, or
// as the whole of s. A word of prose that is the same ("new") stays.
func addSegment(s, name string, repl func() string, add adder) {
	if name == "" {
		return
	}
	sep := func(c byte) bool { return c == '/' || c == '\\' }
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], name)
		if k < 0 {
			return
		}
		j := i + k
		end := j + len(name)
		before := j == 0 || !isNameByte(s[j-1])
		after := end < len(s) && sep(s[end]) || end == len(s) && (j == 0 || sep(s[j-1]))
		if before && after {
			add(j, end, repl)
			i = end
			continue
		}
		i = j + 1
	}
}

// applySpans replaces the spans that do not overlap an earlier or longer one.
func applySpans(s string, spans []span) string {
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end > spans[j].end
	})
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for _, sp := range spans {
		if sp.start < pos {
			continue
		}
		b.WriteString(s[pos:sp.start])
		if sp.repl == nil {
			b.WriteString(s[sp.start:sp.end])
		} else {
			b.WriteString(sp.repl())
		}
		pos = sp.end
	}
	b.WriteString(s[pos:])
	return b.String()
}

// addIPs finds IPv4 and IPv6 addresses; loopback, unspecified and
// broadcast/netmask-looking addresses are kept.
func (rd *redactor) addIPs(s string, add adder) {
	if hasRun(s, isDigitOrDot, 7) {
		rd.addIPv4(s, add)
	}
	if strings.Count(s, ":") >= 2 {
		rd.addIPv6(s, add)
	}
}

func (rd *redactor) addIPv4(s string, add adder) {
	for _, m := range ipv4Re.FindAllStringIndex(s, -1) {
		// Not part of a longer dotted number (a version like 1.2.3.4.5).
		if (m[0] > 0 && (s[m[0]-1] == '.' || isDigit(s[m[0]-1]))) || (m[1]+1 < len(s) && s[m[1]] == '.' && isDigit(s[m[1]+1])) {
			continue
		}
		v := s[m[0]:m[1]]
		a, err := netip.ParseAddr(v)
		if err != nil || a.IsLoopback() || a.IsUnspecified() || strings.HasPrefix(v, "255.") {
			continue
		}
		add(m[0], m[1], rd.lazy("ip", a.String(), v))
	}
}

func (rd *redactor) addIPv6(s string, add adder) {
	for _, m := range ipv6Re.FindAllStringIndex(s, -1) {
		start, end := m[0], m[1]
		if (start > 0 && isWordByte(s[start-1])) || (end < len(s) && (isWordByte(s[end]) || s[end] == ':')) {
			continue
		}
		v := s[start:end]
		a, err := netip.ParseAddr(v)
		if err != nil || !a.Is6() || a.IsLoopback() || a.IsUnspecified() || strings.Count(v, ":") < 2 {
			continue
		}
		add(start, end, rd.lazy("ip", a.String(), v))
	}
}

// addHosts finds node names, their short names and the cluster domains
// (also inside a longer name, e.g. a static pod etcd-<node> or an
// environment variable NODE_<node>_IP, and cut short before "…"), then
// other FQDNs of at least three labels, which are replaced whole unless they
// are well-known public names or their last label is a file extension.
func (rd *redactor) addHosts(s string, add adder) {
	lower := asciiLower(s)
	if len(rd.literals) > 0 {
		rd.addLiterals(lower, add)
	}
	if !strings.Contains(s, ".") {
		return
	}
	for _, m := range fqdnRe.FindAllStringIndex(s, -1) {
		start, end := m[0], m[1]
		if start > 0 && (isAlnum(s[start-1]) || s[start-1] == '-' || s[start-1] == '.') {
			continue
		}
		// Part of a longer dotted word whose last part is no top-level
		// domain (a version like 4.18.0-1.p0.assembly.stream.el9, a file).
		if end+1 < len(s) && s[end] == '.' && isAlnum(s[end+1]) {
			continue
		}
		if first, _, _ := strings.Cut(s[start:end], "."); allDigits(first) {
			continue
		}
		if strings.HasPrefix(s[end:], "…") {
			if repl, ok := rd.cutHostName(lower, start, end); ok {
				add(start, end, repl)
				continue
			}
		}
		if repl, ok := rd.hostName(lower[start:end]); ok {
			add(start, end, repl)
		}
	}
}

// addLiterals finds the literals in lower, each starting and ending at an
// alphanumeric boundary, the longest at each start.
func (rd *redactor) addLiterals(lower string, add adder) {
	for i := 0; i < len(lower); i++ {
		if !isAlnum(lower[i]) || (i > 0 && isAlnum(lower[i-1])) {
			continue
		}
		best := 0
		for j := i + 1; j <= len(lower) && j-i <= rd.maxLiteral; j++ {
			if !isNameByte(lower[j-1]) {
				break
			}
			if (j == len(lower) || !isAlnum(lower[j])) && isAlnum(lower[j-1]) {
				if _, ok := rd.literals[lower[i:j]]; ok {
					best = j
				}
			}
		}
		if best > 0 {
			add(i, best, fixed(rd.literals[lower[i:best]]))
			continue
		}
		if p, n := rd.cutLiteral(lower, i); n > 0 {
			add(i, i+n, fixed(p))
		}
	}
}

// cutLiteral handles a name cut short by truncation: when lower[i:] is a
// run of name characters followed by "…" and that run is the start (at
// least 6 characters) of a literal, it returns the literal's placeholder
// and the length of the run.
func (rd *redactor) cutLiteral(lower string, i int) (string, int) {
	j := i
	for j < len(lower) && isNameByte(lower[j]) {
		j++
	}
	if j-i < 6 || !strings.HasPrefix(lower[j:], "…") {
		return "", 0
	}
	run, best := lower[i:j], ""
	for lit := range rd.literals {
		if len(lit) > len(run) && strings.HasPrefix(lit, run) && (best == "" || lit < best) {
			best = lit
		}
	}
	if best == "" {
		return "", 0
	}
	return rd.literals[best], len(run)
}

// hostName returns the redacted form of an FQDN found in text, or ok=false
// to keep it. A name ending in a node name or cluster domain keeps its other
// labels (short node names among them replaced).
func (rd *redactor) hostName(name string) (func() string, bool) {
	for i := 0; i < len(name); i++ {
		if i > 0 && name[i-1] != '.' && name[i-1] != '-' {
			continue
		}
		p, ok := rd.literals[name[i:]]
		if !ok || (i > 0 && rd.domains[name[i:]] && name[i-1] != '.') {
			continue
		}
		return fixed(rd.redactLabels(name[:i]) + p), true
	}
	labels := strings.Split(name, ".")
	if len(labels) < 3 || publicDomain(name) || !hostTLD(labels[len(labels)-1]) || isKeptToken(name) {
		return nil, false
	}
	return rd.lazy("host", name, name), true
}

// cutHostName handles an FQDN lower[start:end] cut short before "…": when it
// ends with the start of a node name or cluster domain, that part is
// replaced and the labels before it kept.
func (rd *redactor) cutHostName(lower string, start, end int) (func() string, bool) {
	for i := start; i < end; i++ {
		if i > start && lower[i-1] != '.' && lower[i-1] != '-' {
			continue
		}
		if p, n := rd.cutLiteral(lower, i); n > 0 && i+n == end {
			return fixed(rd.redactLabels(lower[start:i]) + p), true
		}
	}
	return nil, false
}

// redactLabels replaces node short names among the labels of prefix (which
// ends with "." or "-").
func (rd *redactor) redactLabels(prefix string) string {
	parts := strings.Split(prefix, ".")
	for i, p := range parts {
		if h, ok := rd.literals[p]; ok && p != "" && !rd.domains[p] {
			parts[i] = h
		}
	}
	return strings.Join(parts, ".")
}

// secretValue reports whether v, the value of key, is worth redacting: any
// password, other keys only when the value is long enough to be a credential.
func secretValue(key, v string) bool {
	if strings.Trim(v, "*xX") == "" || keepValues[strings.ToLower(v)] || isKeptToken(v) {
		return false
	}
	switch key {
	case "password", "passwd", "pwd", "pass":
		return true
	}
	return len(v) >= 8
}

var keepValues = map[string]bool{"redacted": true, "<redacted>": true, "[redacted]": true, "null": true, "none": true, "true": true, "false": true, "<nil>": true, "nil": true, "empty": true}

// isKeptToken reports a must-gather-clean placeholder.
func isKeptToken(s string) bool {
	if s == "localhost" || s == "localhost.localdomain" {
		return true // the name a host has before it gets its own: it identifies nothing, and findings rest on it
	}
	return keptRe.MatchString(s) && len(keptRe.FindString(s)) == len(s)
}

// publicDomains are well-known names whose mention says nothing about the
// customer: API groups, registries, documentation sites.
var publicDomains = []string{
	"kubernetes.io", "k8s.io", "x-k8s.io", "openshift.io", "openshift.com", "redhat.com", "redhat.io",
	"coreos.com", "cncf.io", "quay.io", "docker.io", "docker.com", "gcr.io", "ghcr.io", "registry.k8s.io",
	"github.com", "githubusercontent.com", "golang.org", "go.dev", "google.com", "googleapis.com",
	"rook.io", "kubevirt.io", "metal3.io", "noobaa.io", "prometheus.io", "grafana.com", "elastic.co",
	"fedoraproject.org", "centos.org", "example.com", "example.org", "example.net", "cluster.local",
	"svc", "amazonaws.com", "azure.com", "microsoft.com", "istio.io", "knative.dev", "tekton.dev",
	"operatorframework.io", "open-cluster-management.io", "cert-manager.io", "velero.io", "min.io",
	"ovn.org", "openvswitch.org", "openshift.org", "nvidia.com", "intel.com", "ibm.com", "vmware.com", "schemas.xmlsoap.org",
}

func publicDomain(name string) bool {
	for _, d := range publicDomains {
		if name == d || strings.HasSuffix(name, "."+d) {
			return true
		}
	}
	return false
}

// notTLD are last labels of names that are files, units or code, not hosts.
var notTLD = map[string]bool{
	"go": true, "log": true, "yaml": true, "yml": true, "json": true, "txt": true, "gz": true, "tar": true, "zst": true,
	"xz": true, "sh": true, "py": true, "java": true, "conf": true, "cfg": true, "ini": true, "toml": true, "service": true,
	"socket": true, "mount": true, "slice": true, "scope": true, "timer": true, "target": true, "path": true, "device": true,
	"crt": true, "pem": true, "key": true, "csr": true, "html": true, "md": true, "xml": true, "js": true, "so": true,
	"lock": true, "pid": true, "sock": true, "tmp": true, "bak": true, "old": true, "local": true, "svc": true,
	"default": true, "status": true, "spec": true, "metadata": true, "name": true,
}

// hostTLD reports whether the last label of a dotted name makes it a host
// name worth replacing when nothing else says so: a two-letter country code
// or one of the generic and private top-level names below. A dotted code
// identifier (a Go logger "operator.init.controller-runtime.manager", a Java
// package, "pod_workers.go") ends otherwise and is kept.
func hostTLD(label string) bool {
	if notTLD[label] {
		return false
	}
	if len(label) == 2 {
		return label[0] >= 'a' && label[0] <= 'z' && label[1] >= 'a' && label[1] <= 'z'
	}
	return genericTLD[label]
}

var genericTLD = map[string]bool{
	"com": true, "net": true, "org": true, "edu": true, "gov": true, "mil": true, "int": true, "info": true, "biz": true,
	"name": true, "pro": true, "io": true, "dev": true, "app": true, "cloud": true, "tech": true, "online": true, "site": true,
	"xyz": true, "arpa": true, "corp": true, "internal": true, "intranet": true, "intra": true, "lan": true, "home": true,
	"priv": true, "private": true, "localdomain": true, "test": true, "example": true, "global": true, "group": true,
	"company": true, "systems": true, "network": true, "services": true, "solutions": true, "digital": true, "bank": true,
	"insurance": true, "health": true, "aero": true, "coop": true, "museum": true, "mobi": true, "asia": true, "eu": true,
}

var timeType = reflect.TypeOf(time.Time{})

// hasRun reports whether s holds at least n bytes in a row for which ok is true.
func hasRun(s string, ok func(byte) bool, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if ok(s[i]) {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func isHexByte(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isBase64Byte(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }

func isDigitOrDot(c byte) bool { return isDigit(c) || c == '.' }

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func isAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) }

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '-' || c == '_' || c == '.'
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '.'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func mixedCaseAndDigits(s string) bool {
	var up, low, dig bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		up = up || c >= 'A' && c <= 'Z'
		low = low || c >= 'a' && c <= 'z'
		dig = dig || isDigit(c)
	}
	return up && low && dig
}

// copy returns a deep copy of v with its strings redacted, except in fields
// tagged redact:"keep", which are copied as they are.
func (rd *redactor) copy(v reflect.Value) reflect.Value {
	return rd.copyValue(v, false)
}

func (rd *redactor) copyValue(v reflect.Value, keep bool) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.String:
		if keep {
			out.SetString(v.String())
		} else {
			out.SetString(rd.redactString(v.String()))
		}
	case reflect.Struct:
		t := v.Type()
		if t == timeType {
			out.Set(v)
			break
		}
		for i := range t.NumField() {
			k := keep || t.Field(i).Tag.Get("redact") == "keep"
			out.Field(i).Set(rd.copyValue(v.Field(i), k))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(rd.copyValue(v.Elem(), keep))
			out.Set(p)
		}
	case reflect.Slice:
		if !v.IsNil() {
			s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			for i := range v.Len() {
				s.Index(i).Set(rd.copyValue(v.Index(i), keep))
			}
			out.Set(s)
		}
	case reflect.Map:
		if !v.IsNil() {
			m := reflect.MakeMapWithSize(v.Type(), v.Len())
			iter := v.MapRange()
			for iter.Next() {
				m.SetMapIndex(iter.Key(), rd.copyValue(iter.Value(), keep))
			}
			out.Set(m)
		}
	default:
		out.Set(v)
	}
	return out
}

// walkStrings calls fn with every string in v that redaction would change.
func walkStrings(v reflect.Value, fn func(string)) {
	walk(v, false, fn)
}

func walk(v reflect.Value, keep bool, fn func(string)) {
	switch v.Kind() {
	case reflect.String:
		if !keep {
			fn(v.String())
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				walk(v.Field(i), keep || t.Field(i).Tag.Get("redact") == "keep", fn)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			walk(v.Elem(), keep, fn)
		}
	case reflect.Slice:
		for i := range v.Len() {
			walk(v.Index(i), keep, fn)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			walk(iter.Value(), keep, fn)
		}
	}
}

// asciiLower lowers A-Z only, so byte offsets in the result are those of s
// (strings.ToLower changes the length of invalid UTF-8 and some letters).
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Redactor redacts more values with the placeholders of one report's
// redaction, learning new ones as it goes: a server that answers questions
// about a redacted report (analyze serve --redact) redacts every answer
// with it, so one name has one placeholder in the report and in every
// answer. Safe for concurrent use.
type Redactor struct {
	mu sync.Mutex
	rd *redactor
}

// NewRedactor redacts r as Redact does and returns the Redactor that goes
// on with the same placeholders, and r redacted.
func NewRedactor(r *Report) (*Redactor, *Report) {
	rd := newRedactor()
	rd.learn(r)
	out := rd.copy(reflect.ValueOf(r).Elem()).Addr().Interface().(*Report)
	return &Redactor{rd: rd}, out
}

// Value returns a deep copy of *v (v a non-nil pointer to a struct) with
// its strings redacted, except in fields tagged redact:"keep".
func Value[T any](x *Redactor, v *T) *T {
	if x == nil || v == nil {
		return v
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.rd.copy(reflect.ValueOf(v).Elem()).Addr().Interface().(*T)
}

// String redacts one string (a quoted line, an object's YAML).
func (x *Redactor) String(s string) string {
	if x == nil {
		return s
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.rd.redactString(s)
}

// Mapping returns a copy of the original → placeholder table so far.
func (x *Redactor) Mapping() map[string]string {
	if x == nil {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return maps.Clone(x.rd.mapping)
}
