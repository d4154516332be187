package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// redactReport has two nodes of cluster domain ocp.acme.corp; the texts of
// its one finding's evidence are the strings under test.
func redactReport(texts ...string) *Report {
	f := Finding{RuleID: "r-1", Severity: SeverityHigh, Title: "Title 10.9.9.9", Docs: []string{"https://10.0.0.1/docs"},
		Objects: []Object{{Kind: "Pod", Namespace: "shop", Name: "web-1", Node: "worker-1.ocp.acme.corp"}}}
	for _, t := range texts {
		f.Evidence = append(f.Evidence, Evidence{Path: "namespaces/shop/core/events.yaml", Line: 1, Kind: "event", Text: t})
	}
	return &Report{
		SchemaVersion: SchemaVersion,
		Gather:        Gather{Path: "/cases/master-0.ocp.acme.corp/mg", ClusterVersion: "4.18.12"},
		Nodes:         []Node{{Name: "master-0.ocp.acme.corp", Ready: "True"}, {Name: "worker-1.ocp.acme.corp", Ready: "True"}},
		Pods:          []Pod{{Namespace: "shop", Name: "web-1", Node: "worker-1.ocp.acme.corp", Ready: "0/1", Status: "CrashLoopBackOff", Restarts: "4 (2m ago)", Age: "3h"}},
		Findings:      []Finding{f},
	}
}

func TestRedactStrings(t *testing.T) {
	const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct{ in, want string }{
		{"node master-0.ocp.acme.corp NotReady", "node host-1 NotReady"},
		{"MASTER-0.OCP.ACME.CORP in capitals", "host-1 in capitals"},
		{"master-0 kubelet[123]: started", "host-1 kubelet[123]: started"},
		{"static pod etcd-master-0.ocp.acme.corp", "static pod etcd-host-1"},
		{"env NODE_master_0_ocp_acme_corp_IP", "env NODE_host-1_IP"},
		{"worker-10 and worker-1x are other names", "worker-10 and worker-1x are other names"},
		{"https://api.ocp.acme.corp:6443/healthz", "https://api.domain-1:6443/healthz"},
		{"route console-openshift-console.apps.ocp.acme.corp", "route console-openshift-console.apps.domain-1"},
		{"dial tcp 10.0.0.5:6443, again 10.0.0.5", "dial tcp ip-1:6443, again ip-1"},
		{"cidr 10.128.0.0/14 via 192.168.1.1", "cidr ip-2/14 via ip-3"},
		{"listen 0.0.0.0:8080 and 127.0.0.1, mask 255.255.255.0", "listen 0.0.0.0:8080 and 127.0.0.1, mask 255.255.255.0"},
		{"version 1.2.3.4.5 is not an address", "version 1.2.3.4.5 is not an address"},
		{"v6 fd00:10:128::5 and [fd00:10:128:0::5]:443", "v6 ip-4 and [ip-4]:443"},
		{"at 09:12:33, mac 52:54:00:ab:cd:ef, ::1", "at 09:12:33, mac 52:54:00:ab:cd:ef, ::1"},
		{"mail Admin@Acme.Corp or admin@acme.corp", "mail email-1 or email-1"},
		{"Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789", "Authorization: Bearer token-1"},
		{"invalid bearer token, retrying", "invalid bearer token, retrying"},
		{"login sha256~AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd done", "login token-2 done"},
		{"jwt eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl", "jwt token-3"},
		{"password=hunter2 user=bob", "password=secret-1 user=bob"},
		{`{"client_secret": "s3cr3tvalue99"}`, `{"client_secret": "secret-2"}`},
		{"token: abc", "token: abc"},
		{`secret "pull-secret" not found, password: ****`, `secret "pull-secret" not found, password: ****`},
		{"clone https://bob:pa55word@git.acme.corp/x", "clone https://bob:secret-3@host-3/x"},
		{"key 0123456789abcdef0123456789abcdef01", "key secret-4"},
		{"blob dGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3RpbmcgT0s5", "blob secret-5"},
		{"image quay.io/openshift/okd@" + digest, "image quay.io/openshift/okd@" + digest},
		{"container cri-o://" + digest[7:], "container cri-o://" + digest[7:]},
		{"already clean: x-ipv4-0000000001-x, api.domain0000000001, x-ipv6-0000000002-x", "already clean: x-ipv4-0000000001-x, api.domain0000000001, x-ipv6-0000000002-x"},
		{"image openshift/must-gather 4.18.0-202511121203.p0.g1c2d3e4.assembly.stream.el9", "image openshift/must-gather 4.18.0-202511121203.p0.g1c2d3e4.assembly.stream.el9"},
		{"pod_workers.go:1294] kubelet.service crio-abc.scope", "pod_workers.go:1294] kubelet.service crio-abc.scope"},
		{"label node-role.kubernetes.io/master, group machine.openshift.io", "label node-role.kubernetes.io/master, group machine.openshift.io"},
		{"pull registry.internal.acme.corp:5000/app:1", "pull host-4:5000/app:1"},
		{"svc kube-dns.openshift-dns.svc.cluster.local", "svc kube-dns.openshift-dns.svc.cluster.local"},
		{"cut short: pod etcd-master-0.ocp.ac…", "cut short: pod etcd-host-1…"},
	}
	var texts []string
	for _, tt := range tests {
		texts = append(texts, tt.in)
	}
	red, _ := Redact(redactReport(texts...))
	for i, tt := range tests {
		if got := red.Findings[0].Evidence[i].Text; got != tt.want {
			t.Errorf("Redact(%q)\n got  %q\n want %q", tt.in, got, tt.want)
		}
	}
}

func TestRedactReport(t *testing.T) {
	in := redactReport("dial tcp 10.0.0.5:6443 on worker-1", "ssh core@master-0.ocp.acme.corp")
	var before bytes.Buffer
	if err := WriteJSON(&before, in); err != nil {
		t.Fatal(err)
	}
	red, mapping := Redact(in)
	var after, again bytes.Buffer
	WriteJSON(&after, in)
	if before.String() != after.String() {
		t.Errorf("Redact changed its input")
	}
	red2, _ := Redact(in)
	WriteJSON(&after, red)
	WriteJSON(&again, red2)
	if !strings.HasSuffix(after.String(), again.String()) {
		t.Errorf("two redactions of the same report differ")
	}
	wantMap := map[string]string{
		"master-0.ocp.acme.corp": "host-1", "master-0": "host-1",
		"worker-1.ocp.acme.corp": "host-2", "worker-1": "host-2",
		"ocp.acme.corp": "domain-1", "10.0.0.5": "ip-1", "core@master-0.ocp.acme.corp": "email-1",
		"/cases/master-0.ocp.acme.corp/mg": "input-1",
	}
	if diff := cmp.Diff(wantMap, mapping); diff != "" {
		t.Errorf("mapping (-want +got):\n%s", diff)
	}
	// Same value, same placeholder, in every field; the tool's own words kept.
	if red.Nodes[1].Name != "host-2" || red.Pods[0].Node != "host-2" || red.Findings[0].Objects[0].Node != "host-2" || red.Gather.Path != "input-1" {
		t.Errorf("node names not replaced the same way: %q %q %q %q", red.Nodes[1].Name, red.Pods[0].Node, red.Findings[0].Objects[0].Node, red.Gather.Path)
	}
	p := red.Pods[0]
	if p.Status != "CrashLoopBackOff" || p.Restarts != "4 (2m ago)" || red.Findings[0].Docs[0] != "https://10.0.0.1/docs" || red.Findings[0].Title != "Title 10.9.9.9" || red.Gather.ClusterVersion != "4.18.12" {
		t.Errorf("kept fields changed: %+v %v %q", p, red.Findings[0].Docs, red.Findings[0].Title)
	}
}

// TestRedactAllWriters renders the redacted test report in every format:
// no node name, IP address or domain of it is left.
func TestRedactAllWriters(t *testing.T) {
	r := loadReport(t)
	r.Findings[0].Evidence[0].Text += " from 10.1.2.3 on worker-0.prod.acme.corp"
	r.Nodes[0].Name = "worker-0.prod.acme.corp"
	red, _ := Redact(r)
	for name, w := range map[string]Writer{"md": MarkdownWriter(MarkdownOptions{}), "html": WriteHTML, "json": WriteJSON, "txt": TerminalWriter(TerminalOptions{})} {
		var b bytes.Buffer
		if err := w(&b, red); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"10.1.2.3", "worker-0", "worker-1", "acme.corp"} {
			if strings.Contains(b.String(), bad) {
				t.Errorf("%s holds %q after Redact", name, bad)
			}
		}
	}
}

func FuzzRedactString(f *testing.F) {
	for _, s := range []string{"10.0.0.1", "fd00::1", "a@b.co", "password=x", "master-0.ocp.acme.corp…", "Bearer 0123456789abcdef0123", "x.y.z.example.org", "NODE_master_0_IP"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rd := newRedactor()
		rd.learn(redactReport())
		a := rd.redactString(s)
		if b := rd.redactString(s); a != b {
			t.Fatalf("redactString(%q) gave %q then %q", s, a, b)
		}
		if strings.Contains(strings.ToLower(a), "master-0.ocp.acme.corp") {
			t.Fatalf("redactString(%q) = %q keeps a node name", s, a)
		}
	})
}

// TestRedactKnowsTheCluster: the cluster's own values, as the report's
// gather and node fields carry them, go in every string; code identifiers
// that look like dotted names stay.
func TestRedactKnowsTheCluster(t *testing.T) {
	r := redactReport(
		"Get https://api.prod-east.bank-corp.example:6443/api: dial tcp 10.0.0.9:6443",
		"route console.apps.prod-east.bank-corp.example answered",
		"machine prod-east-x7k2p-worker-a-abcde joined, cluster prod-east",
		"clusterID 0F3C9A2E-1111-2222-3333-444455556666 reported",
		"hostname node-a7 up",
		"read /srv/cases/04123/prod-east.tar.gz: unexpected EOF",
		"ERROR operator.init.controller-runtime.manager.controller.dns_controller Could not wait",
		"at io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:1)",
	)
	r.Gather.Path = "/srv/cases/04123/prod-east.tar.gz"
	r.Gather.Input = &InputFile{Name: "prod-east.tar.gz", Kind: "archive", Size: 10, SHA256: strings.Repeat("0", 64)}
	r.Gather.BaseDomain = "prod-east.bank-corp.example"
	r.Gather.APIServerURL = "https://api.prod-east.bank-corp.example:6443"
	r.Gather.InfrastructureName = "prod-east-x7k2p"
	r.Gather.ClusterID = "0f3c9a2e-1111-2222-3333-444455556666"
	r.Nodes = append(r.Nodes, Node{Name: "n1", Addresses: []string{"InternalIP 10.0.0.9", "Hostname node-a7"}})
	r.Problems = []Problem{{Path: "prod-east.tar.gz", Error: "input ends early"}}
	red, mapping := Redact(r)
	var all bytes.Buffer
	for _, w := range []Writer{MarkdownWriter(MarkdownOptions{}), WriteHTML, WriteJSON, TerminalWriter(TerminalOptions{})} {
		if err := w(&all, red); err != nil {
			t.Fatal(err)
		}
	}
	low := strings.ToLower(all.String())
	for _, v := range []string{"bank-corp.example", "prod-east", "x7k2p", "0f3c9a2e", "10.0.0.9", "node-a7", "/srv/cases"} {
		if strings.Contains(low, v) {
			t.Errorf("%q survives redaction", v)
		}
	}
	for _, keep := range []string{"operator.init.controller-runtime.manager.controller.dns_controller", "io.netty.channel.nio.NioEventLoop.run"} {
		if !strings.Contains(all.String(), keep) {
			t.Errorf("code identifier %q was replaced", keep)
		}
	}
	if red.Gather.Input.SHA256 != strings.Repeat("0", 64) {
		t.Errorf("the attachment's checksum was replaced: %q", red.Gather.Input.SHA256)
	}
	// The map's keys are the originals, its values the placeholders.
	if p := mapping["prod-east.bank-corp.example"]; !strings.HasPrefix(p, "domain-") {
		t.Errorf("mapping[base domain] = %q, want a domain placeholder", p)
	}
	if p := mapping[r.Gather.ClusterID]; !strings.HasPrefix(p, "cluster-id-") {
		t.Errorf("mapping[cluster ID] = %q", p)
	}
}

// A cluster whose domain lies under a vendor's public domain (a lab cluster
// under redhat.com) is still redacted when its own objects or its api-int
// host name it, while the vendor's public hosts (docs, registries) stay.
func TestRedactOwnDomainUnderPublicSuffix(t *testing.T) {
	for name, set := range map[string]func(r *Report){
		"API URL":   func(r *Report) { r.Gather.APIServerURL = "https://api.lab7.qe.rdu2.redhat.com:6443" },
		"api-int":   func(r *Report) {},
		"node name": func(r *Report) { r.Nodes = append(r.Nodes, Node{Name: "master-0.lab7.qe.rdu2.redhat.com"}) },
	} {
		t.Run(name, func(t *testing.T) {
			r := redactReport(
				"GET https://api-int.lab7.qe.rdu2.redhat.com:6443/apis/quota.openshift.io/v1 throttled",
				"pulled registry.redhat.io/ubi9/ubi:latest; see https://docs.openshift.com/container-platform/latest/",
			)
			set(r)
			red, _ := Redact(r)
			var all bytes.Buffer
			if err := WriteJSON(&all, red); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(all.String(), "lab7") {
				t.Errorf("the cluster's domain survives:\n%s", all.String())
			}
			for _, keep := range []string{"registry.redhat.io/ubi9", "docs.openshift.com"} {
				if !strings.Contains(all.String(), keep) {
					t.Errorf("public host %q was replaced", keep)
				}
			}
		})
	}
}
