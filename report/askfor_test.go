package report

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/rules"
)

// askSampleGaps is one gap of every kind and every shape gapCommand
// distinguishes (namespaced, all namespaces, cluster-scoped, Secrets,
// previous run or not).
func askSampleGaps() []model.Gap {
	var out []model.Gap
	for _, k := range model.GapKinds {
		switch k {
		case model.GapObjects:
			out = append(out,
				model.Gap{What: k, Kind: model.ConfigMaps, Namespace: "shop"},
				model.Gap{What: k, Kind: model.Secrets, Namespace: "shop"},
				model.Gap{What: k, Kind: model.DaemonSets},
				model.Gap{What: k, Kind: model.Nodes},
				model.Gap{What: k, Kind: model.WhereaboutsIPPools},
				model.Gap{What: k, Kind: model.MachineConfigPools})
		case model.GapNamespace:
			out = append(out, model.Gap{What: k, Namespace: "shop"})
		case model.GapNodeJournal:
			out = append(out, model.Gap{What: k, Node: "worker-1", Unit: "kubelet"})
		case model.GapContainerLog:
			out = append(out, model.Gap{What: k, Namespace: "shop", Pod: "web-1", Container: "app", Previous: true},
				model.Gap{What: k, Namespace: "shop", Pod: "web-1", Container: "app"})
		case model.GapPodLogs:
			out = append(out, model.Gap{What: k, Namespace: "shop", Pod: "web-1"})
		case model.GapNetworkLogs:
			out = append(out, model.Gap{What: k})
		default:
			panic("askSampleGaps: no sample of gap kind " + string(k))
		}
	}
	return out
}

// askFlavours is every askFlavour gapCommand distinguishes.
func askFlavours() []askFlavour {
	var out []askFlavour
	for _, openshift := range []bool{true, false} {
		for _, sos := range []bool{true, false} {
			for _, down := range []bool{true, false} {
				out = append(out, askFlavour{openshift: openshift, sosUpload: sos, notReady: func(string) bool { return down }})
			}
		}
	}
	return out
}

// allAskCommands is every command gapCommand makes of the sample gaps in
// every flavour, and the gap kinds that made at least one.
func allAskCommands(t *testing.T) ([]askCommand, map[model.GapKind]bool) {
	t.Helper()
	var out []askCommand
	kinds := map[model.GapKind]bool{}
	for _, fl := range askFlavours() {
		for _, g := range askSampleGaps() {
			c, ok := gapCommand(g, fl)
			if !ok {
				if g.What == model.GapNetworkLogs && !fl.openshift {
					continue // gather_network_logs is OpenShift's
				}
				t.Errorf("gap %+v (openshift %v): no command", g, fl.openshift)
				continue
			}
			kinds[g.What] = true
			out = append(out, c)
		}
	}
	return out, kinds
}

// TestAskCommands checks every command the asks can produce against
// askTools: its command and subcommands are in the table and every flag it
// passes is one the table lists for them, with the page that documents
// it; oc on OpenShift's documentation, kubectl on kubernetes.io. Every flag
// of the table is used, so the table says what the asks do.
func TestAskCommands(t *testing.T) {
	cmds, kinds := allAskCommands(t)
	for _, k := range model.GapKinds {
		if !kinds[k] {
			t.Errorf("gap kind %s: no command in any flavour", k)
		}
	}
	used := map[string]bool{}
	for _, c := range cmds {
		tool, ok := askToolOf(c.argv)
		if !ok {
			t.Errorf("%s: command not in askTools", shellLine(c.argv))
			continue
		}
		key := strings.Join(tool.argv, " ")
		used[key] = true
		for i, a := range c.argv[len(tool.argv):] {
			if !strings.HasPrefix(a, "-") {
				continue
			}
			if i > 0 && c.argv[len(tool.argv)+i-1] == "--" {
				break // the arguments of must-gather's own command
			}
			if !contains(tool.flags, a) {
				t.Errorf("%s: flag %s is not in askTools for %q", shellLine(c.argv), a, key)
			}
			used[key+" "+a] = true
		}
	}
	for _, tool := range askTools {
		key := strings.Join(tool.argv, " ")
		if !used[key] {
			t.Errorf("askTools lists %q, which no ask uses", key)
		}
		for _, f := range tool.flags {
			if !used[key+" "+f] {
				t.Errorf("askTools lists flag %s of %q, which no ask uses", f, key)
			}
		}
		host := ""
		switch tool.argv[0] {
		case "oc":
			host = `^https://docs\.(openshift\.com|redhat\.com)/`
		case "kubectl":
			host = `^https://kubernetes\.io/docs/reference/kubectl/`
		default:
			host = `^https://`
		}
		if !regexp.MustCompile(host).MatchString(tool.docs) {
			t.Errorf("askTools %q: docs %q is not a page of its documentation (%s)", key, tool.docs, host)
		}
	}
}

// TestAskSosPlugins checks every plugin an ask names in sos report -o
// against the sos installed here (Debian's sosreport package, which .ci/run
// installs): the plugins `sos report -l` lists, and those of the package's
// plugin modules, since -l lists only the plugins of the host's own
// distribution (crio and kubernetes are Red Hat and Ubuntu plugins, not
// listed on Debian). Skipped when sos is not on PATH.
func TestAskSosPlugins(t *testing.T) {
	if _, err := exec.LookPath("sos"); err != nil {
		t.Skip("sos is not on PATH (apt-get install sosreport): the plugins of sos report -o are not checked")
	}
	listed := sosListed(t)
	modules := sosModules(t)
	if len(listed) == 0 && len(modules) == 0 {
		t.Fatal("neither sos report -l nor the sosreport package's modules name any plugin")
	}
	cmds, _ := allAskCommands(t)
	seen := 0
	for _, c := range cmds {
		if c.argv[0] != "sos" {
			continue
		}
		for i, a := range c.argv {
			if a != "-o" || i+1 >= len(c.argv) {
				continue
			}
			for _, p := range strings.Split(c.argv[i+1], ",") {
				seen++
				switch {
				case listed[p]:
				case modules[p]:
					t.Logf("sos plugin %s: a plugin of the package, not of this host's distribution (not in sos report -l)", p)
				default:
					t.Errorf("%s: sos has no plugin %q", shellLine(c.argv), p)
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no ask names a sos plugin")
	}
}

// sosListed runs `sos report -l --batch` (--batch: no prompt) and returns
// the plugin names it lists (enabled, disabled and inactive).
func sosListed(t *testing.T) map[string]bool {
	out, err := exec.Command("sos", "report", "-l", "--batch").CombinedOutput()
	if err != nil {
		t.Logf("sos report -l --batch: %v (%s)", err, bytes.TrimSpace(out))
	}
	names := map[string]bool{}
	line := regexp.MustCompile(`^ ([a-z0-9_]+) {2,}\S`)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			names[m[1]] = true
		}
	}
	return names
}

// sosModules returns the plugin_name of every plugin module of the
// installed sosreport package (dpkg -L), nil without dpkg.
func sosModules(t *testing.T) map[string]bool {
	out, err := exec.Command("dpkg", "-L", "sosreport").Output()
	if err != nil {
		t.Logf("dpkg -L sosreport: %v", err)
		return nil
	}
	names := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^\s+plugin_name\s*=\s*['"]([a-z0-9_]+)['"]`)
	for _, f := range strings.Split(string(out), "\n") {
		if !strings.Contains(f, "/sos/report/plugins/") || !strings.HasSuffix(f, ".py") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			names[m[1]] = true
		}
	}
	return names
}

// askReport is a report of the given distribution with one high finding
// lacking gaps of every kind, one low finding sharing one of them, and
// health lists naming a node, a pod and a namespace.
func askReport(distribution string) (*Report, []rules.Finding, model.Health) {
	r := &Report{Gather: Gather{Distribution: distribution, Layouts: []Layout{{Kind: model.LayoutMustGather}}}}
	r.Nodes = []Node{{Name: "worker-1", Ready: "True"}, {Name: "worker-2", Ready: "False"}}
	r.Findings = []Finding{
		{RuleID: "pod-sandbox", Severity: SeverityHigh, Category: "sandbox", Objects: []Object{{Kind: "Pod", Namespace: "shop", Name: "web-1"}}},
		{RuleID: "container-restarted", Severity: SeverityLow, Objects: []Object{{Kind: "Pod", Namespace: "shop", Name: "web-2"}}},
	}
	findings := []rules.Finding{
		{Gaps: askSampleGaps()},
		{Gaps: []model.Gap{{What: model.GapObjects, Kind: model.ConfigMaps, Namespace: "shop"}}},
	}
	h := model.Health{
		NodesWithoutLogs:      []string{"worker-2"},
		PodsWithoutLogs:       []string{"shop/web-3", "… and 4 more"},
		NamespacesWithoutPods: []string{"mg/namespaces/billing"},
	}
	return r, findings, h
}

// TestAskFor checks the asks of one report: one per command, the
// commands of the high finding first, the shared one first among them
// (it unblocks two), health checks last; blocks name the findings and checks.
func TestAskFor(t *testing.T) {
	r, findings, h := askReport("OpenShift")
	asks := askFor(r, findings, h)
	seen := map[string]bool{}
	for _, a := range asks {
		k := a.On + " " + a.Command
		if seen[k] {
			t.Errorf("ask %q twice", k)
		}
		seen[k] = true
		if a.Docs == "" || a.Why == "" || len(a.Blocks) == 0 {
			t.Errorf("ask %q: docs %q, why %q, blocks %v", a.Command, a.Docs, a.Why, a.Blocks)
		}
	}
	first := asks[0]
	if diff := cmp.Diff(Ask{
		Command: "oc get configmaps -n shop -o yaml",
		Why:     "the configmaps of namespace shop, for high finding pod-sandbox on shop/web-1 (and 1 more)",
		Blocks:  []string{"finding:pod-sandbox:shop/web-1", "finding:container-restarted:shop/web-2"},
		Docs:    "https://docs.redhat.com/en/documentation/openshift_container_platform/4.11/html/cli_tools/cli-developer-commands",
	}, first); diff != "" {
		t.Errorf("first ask (-want +got):\n%s", diff)
	}
	var got []string
	for _, a := range asks {
		got = append(got, strings.TrimSpace(a.Command+" "+a.On))
	}
	want := []string{
		"oc get configmaps -n shop -o yaml",
		"oc adm inspect ns/shop",
		"oc adm must-gather -- /usr/bin/gather_network_logs",
		"oc adm node-logs worker-1 -u kubelet",
		"oc describe secrets -n shop",
		"oc get daemonsets.apps -A -o yaml",
		"oc get ippools.whereabouts.cni.cncf.io -A -o yaml",
		"oc get machineconfigpools.machineconfiguration.openshift.io -o yaml",
		"oc get nodes -o yaml",
		"oc logs -n shop web-1 --all-containers",
		"oc logs -n shop web-1 -c app",
		"oc logs -n shop web-1 -c app --previous",
		"oc adm inspect ns/billing",
		"oc logs -n shop web-3 --all-containers",
		"sos report --batch -o logs,crio,container_log node worker-2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("asks (-want +got):\n%s", diff)
	}
	if last := asks[len(asks)-1]; !contains(last.Blocks, askHealthNodes) {
		t.Errorf("last ask %q blocks %v, want the health check %s", last.Command, last.Blocks, askHealthNodes)
	}
}

// TestAskKubernetes: a cluster that is not OpenShift is asked with kubectl,
// journalctl and sos, never oc; with sosreports in the upload a node's
// journal comes from sos report.
func TestAskKubernetes(t *testing.T) {
	for _, dist := range []string{"Kubernetes", ""} {
		r, findings, h := askReport(dist)
		asks := askFor(r, findings, h)
		if len(asks) == 0 {
			t.Fatalf("%q: no asks", dist)
		}
		for _, a := range asks {
			if strings.HasPrefix(a.Command, "oc ") || strings.Contains(a.Command, " oc ") {
				t.Errorf("%q: %q uses oc", dist, a.Command)
			}
		}
		var b bytes.Buffer
		r.Ask = asks
		if err := WriteMarkdown(&b, r, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		if sec := section(b.String(), "What to ask the customer for"); strings.Contains(sec, "`oc ") || !strings.Contains(sec, "`kubectl`") {
			t.Errorf("%q: Markdown section names oc, or not kubectl:\n%s", dist, sec)
		}
	}
	r, findings, h := askReport("Kubernetes")
	r.Gather.Layouts = append(r.Gather.Layouts, Layout{Kind: model.LayoutSosreport})
	var got []string
	for _, a := range askFor(r, findings, h) {
		if a.On != "" {
			got = append(got, a.Command+" "+a.On)
		}
	}
	if diff := cmp.Diff([]string{"sos report --batch -o logs,kubernetes,container_log node worker-1", "sos report --batch -o logs,kubernetes,container_log node worker-2"}, got); diff != "" {
		t.Errorf("node asks with sosreports in the upload (-want +got):\n%s", diff)
	}
}

// shellWords splits a command line the way a POSIX shell splits words
// made of plain characters, single-quoted strings and backslash-escaped
// characters (all shellQuote writes); ok is false on anything else, which
// a shell would read otherwise.
func shellWords(line string) ([]string, bool) {
	var out []string
	var cur strings.Builder
	in, has, esc := false, false, false
	for _, r := range line {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case in && r == '\'':
			in = false
		case in:
			cur.WriteRune(r)
		case r == '\'':
			in, has = true, true
		case r == '\\':
			esc, has = true, true
		case r == ' ':
			if has {
				out = append(out, cur.String())
			}
			cur.Reset()
			has = false
		case strings.ContainsRune(";&|<>()$`\"*?[]#~{}!\t\n", r):
			return nil, false
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if in || esc {
		return nil, false
	}
	if has {
		out = append(out, cur.String())
	}
	return out, true
}

// TestAskHostileNames: names from the gather with shell syntax in them stay
// one argument of the pasted command; names that would read as a flag or
// hide characters give no command; the Markdown keeps the command whole.
func TestAskHostileNames(t *testing.T) {
	for _, name := range []string{"a;rm -rf ~", "x`id`y", "$(reboot)", "it's", "a b", "a|b>c", "''", "-"} {
		g := model.Gap{What: model.GapContainerLog, Namespace: "shop", Pod: name, Container: "c" + name}
		c, ok := gapCommand(g, askFlavour{openshift: true, notReady: func(string) bool { return false }})
		if name == "-" {
			if ok {
				t.Errorf("name %q: got command %q, want none (it reads as a flag)", name, shellLine(c.argv))
			}
			continue
		}
		if !ok {
			t.Errorf("name %q: no command", name)
			continue
		}
		line := shellLine(c.argv)
		words, ok := shellWords(line)
		if !ok {
			t.Errorf("name %q: %q is not plain words and single quotes", name, line)
			continue
		}
		if diff := cmp.Diff(c.argv, words); diff != "" {
			t.Errorf("name %q: %q splits into other words (-argv +shell):\n%s", name, line, diff)
		}
		md := mdCode(line)
		fence := md[:strings.IndexFunc(md, func(r rune) bool { return r != '`' })]
		if strings.Count(md, fence) != 2 && !strings.HasPrefix(md, fence+" ") {
			t.Errorf("name %q: Markdown %q does not keep the command in one code span", name, md)
		}
	}
	for _, name := range []string{"", "-n", "a\nb", "a\u202eb", "a\x1bb", strings.Repeat("a", 254)} {
		for _, g := range []model.Gap{
			{What: model.GapNodeJournal, Node: name, Unit: "kubelet"},
			{What: model.GapObjects, Kind: model.ConfigMaps, Namespace: name + "x"},
			{What: model.GapNamespace, Namespace: name},
		} {
			if g.Namespace == "x" {
				continue // "" + "x" is a fine name
			}
			if c, ok := gapCommand(g, askFlavour{openshift: true, notReady: func(string) bool { return false }}); ok {
				t.Errorf("name %q: got %q, want no command", name, shellLine(c.argv))
			}
		}
	}
}

// TestAskMarkdownBound: the Markdown lists mdAskItems commands and counts
// the rest; an empty ask list writes no section.
func TestAskMarkdownBound(t *testing.T) {
	r := &Report{Gather: Gather{Distribution: "OpenShift"}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "What to ask") {
		t.Errorf("a report that asks for nothing has the section:\n%s", b.String())
	}
	for i := 0; i < 20; i++ {
		r.Ask = append(r.Ask, Ask{Command: "oc get nodes -o yaml", Why: "w", Blocks: []string{"b"}})
	}
	b.Reset()
	if err := WriteMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	sec := section(b.String(), "What to ask the customer for")
	if n := strings.Count(sec, "`oc get nodes -o yaml`"); n != mdAskItems {
		t.Errorf("%d commands listed, want %d", n, mdAskItems)
	}
	if !strings.Contains(sec, "5 more commands are in report.html and report.json.") {
		t.Errorf("the rest is not counted:\n%s", sec)
	}
}

func TestShellQuote(t *testing.T) {
	got := map[string]string{}
	for _, s := range []string{"worker-1.example.com", "ns/shop", "a;b", "it's", ""} {
		got[s] = shellQuote(s)
	}
	want := map[string]string{"worker-1.example.com": "worker-1.example.com", "ns/shop": "ns/shop", "a;b": "'a;b'", "it's": `'it'\''s'`, "": "''"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
