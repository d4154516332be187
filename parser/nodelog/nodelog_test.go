package nodelog

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var ref = time.Date(2026, 11, 20, 9, 12, 33, 0, time.UTC)

func TestParseJournal(t *testing.T) {
	tests := []struct {
		name             string
		line             string
		ref              time.Time
		time             time.Time
		host, ident, msg string
		pid              int
		ok               bool
	}{
		{"kubelet", `Nov 20 09:01:02.123456 worker-0.example.com kubenswrapper[2154]: I1120 09:01:02.123400    2154 prober.go:107] "Probe failed"`, ref,
			time.Date(2026, 11, 20, 9, 1, 2, 123456000, time.UTC), "worker-0.example.com", "kubenswrapper", `I1120 09:01:02.123400    2154 prober.go:107] "Probe failed"`, 2154, true},
		{"space-padded day, kernel without pid", `Nov  3 07:00:00.5 node-a kernel: Memory cgroup out of memory: Killed process 42 (java)`, ref,
			time.Date(2026, 11, 3, 7, 0, 0, 500000000, time.UTC), "node-a", "kernel", "Memory cgroup out of memory: Killed process 42 (java)", 0, true},
		{"December line in a January gather is last year", `Dec 31 23:59:59.999999 n crio[7]: x`, time.Date(2027, 1, 1, 0, 5, 0, 0, time.UTC),
			time.Date(2026, 12, 31, 23, 59, 59, 999999000, time.UTC), "n", "crio", "x", 7, true},
		{"no fraction", `Nov 20 09:01:02 h systemd[1]: Started x.`, ref, time.Date(2026, 11, 20, 9, 1, 2, 0, time.UTC), "h", "systemd", "Started x.", 1, true},
		{"banner", `-- Logs begin at Thu 2026-11-06 10:00:00 UTC, end at Thu 2026-11-20 09:12:31 UTC. --`, ref, time.Time{}, "", "", "", 0, false},
		{"wrapped continuation", `],Args:[],WorkingDir:,Ports:[]ContainerPort{}`, ref, time.Time{}, "", "", "", 0, false},
		{"bad clock", `Nov 20 9:01:02.1 h x[1]: y`, ref, time.Time{}, "", "", "", 0, false},
		{"bad month", `Foo 20 09:01:02.1 h x[1]: y`, ref, time.Time{}, "", "", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, ok := ParseJournal([]byte(tt.line), tt.ref)
			if ok != tt.ok {
				t.Fatalf("ok = %v", ok)
			}
			if !ok {
				return
			}
			got := []any{j.Time, string(j.Host), string(j.Ident), string(j.Message), j.PID}
			want := []any{tt.time, tt.host, tt.ident, tt.msg, tt.pid}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseFields(t *testing.T) {
	tests := []struct {
		in   string
		want []Field
	}{
		{`probeType="Readiness" pod="shop/web-1" podUID=3fcf1692-5fe0-493c-8ef1-1a31c844da00 containerName="web" probeResult=failure output=""`,
			[]Field{{"probeType", "Readiness"}, {"pod", "shop/web-1"}, {"podUID", "3fcf1692-5fe0-493c-8ef1-1a31c844da00"}, {"containerName", "web"}, {"probeResult", "failure"}, {"output", ""}}},
		{`err="failed to \"StartContainer\" for \"cart\" with ErrImagePull: \"rpc error: manifest unknown\"" pod="shop/cart-1"`,
			[]Field{{"err", `failed to "StartContainer" for "cart" with ErrImagePull: "rpc error: manifest unknown"`}, {"pod", "shop/cart-1"}}},
		{`pods=["shop/cache-1" "shop/cache-2"] count=2`, []Field{{"pods", `["shop/cache-1" "shop/cache-2"]`}, {"count", "2"}}},
		{`event=&{ID:0aaa Type:ContainerStarted Data:d806} pod="a/b"`, []Field{{"event", "&{ID:0aaa Type:ContainerStarted Data:d806}"}, {"pod", "a/b"}}},
		{`time="2026-11-20 09:02:05.095819447Z" level=error msg="Error pulling image x" id=12`,
			[]Field{{"time", "2026-11-20 09:02:05.095819447Z"}, {"level", "error"}, {"msg", "Error pulling image x"}, {"id", "12"}}},
		{`err="unterminated \"quote`, []Field{{"err", `unterminated "quote`}}},
		{`just words = here k=v`, []Field{{"k", "v"}}},
		{``, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ParseFields(tt.in)); diff != "" {
			t.Errorf("ParseFields(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// The lines below are written for this test in the shapes found in real
// gathers (OpenShift 4.8–4.18 kubelet and CRI-O journals).
func TestParseAndClassify(t *testing.T) {
	const host = "Nov 20 09:01:02.123456 worker-0 "
	tests := []struct {
		name string
		line string
		want Entry
	}{
		{"readiness probe failure", host + `kubenswrapper[2154]: I1120 09:01:02.123400    2154 prober.go:107] "Probe failed" probeType="Readiness" pod="shop/recommender-5d6f7c8b9-pl3mn" podUID="5b0c1a52-7f1e-4c55-9a57-0b7a3c1f0e11" containerName="recommender" probeResult="failure" output="HTTP probe failed with statuscode: 503"`,
			Entry{Unit: UnitKubelet, Severity: 'I', Source: "prober.go:107", Message: "Probe failed", Class: ClassProbe, Pod: "shop/recommender-5d6f7c8b9-pl3mn", PodUID: "5b0c1a52-7f1e-4c55-9a57-0b7a3c1f0e11", Container: "recommender", Probe: "Readiness", Detail: "HTTP probe failed with statuscode: 503"}},
		{"image pull via Error syncing pod", host + `kubenswrapper[2154]: E1120 09:01:02.123400    2154 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"cart\" with ErrImagePull: \"rpc error: code = Unknown desc = reading manifest v2.3.1 in registry.example.com/shop/cart: manifest unknown\"" pod="shop/cart-5f7b9c6d8-x2x9q" podUID="51032f55-f902-4003-8075-c0e99312d5da"`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "pod_workers.go:1301", Message: "Error syncing pod, skipping", Class: ClassImagePull, Pod: "shop/cart-5f7b9c6d8-x2x9q", PodUID: "51032f55-f902-4003-8075-c0e99312d5da", Container: "cart",
				Detail: `failed to "StartContainer" for "cart" with ErrImagePull: "rpc error: code = Unknown desc = reading manifest v2.3.1 in registry.example.com/shop/cart: manifest unknown"`}},
		{"image pull with image field", host + `kubenswrapper[2154]: E1120 09:01:02.123400    2154 log.go:32] "PullImage from image service failed" err="rpc error: code = Unknown desc = unauthorized" image="quay.io/acme/payments:1.4"`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "log.go:32", Message: "PullImage from image service failed", Class: ClassImagePull, Image: "quay.io/acme/payments:1.4", Detail: "rpc error: code = Unknown desc = unauthorized"}},
		{"PLEG", host + `hyperkube[1945]: E0914 14:12:40.617837    1945 kubelet.go:2014] "Skipping pod synchronization" err="PLEG is not healthy: pleg has yet to be successful"`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "kubelet.go:2014", Message: "Skipping pod synchronization", Class: ClassPLEG, Detail: "PLEG is not healthy: pleg has yet to be successful"}},
		{"network not ready", host + `hyperkube[1988]: E0914 14:12:44.460025    1988 kubelet.go:2355] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/."`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "kubelet.go:2355", Message: "Container runtime network not ready", Class: ClassNetworkNotReady, Detail: "Container runtime network not ready"}},
		{"sandbox failure, pod from err", host + `hyperkube[1985]: E0914 14:24:37.190950    1985 pod_workers.go:765] "Error syncing pod, skipping" err="failed to \"CreatePodSandbox\" for \"installer-6-master-1_openshift-kube-controller-manager(e9cbfedf-30f5-4dce-b972-b77d0cf4267e)\" with CreatePodSandboxError: \"Failed to create sandbox for pod\""`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "pod_workers.go:765", Message: "Error syncing pod, skipping", Class: ClassSandbox, Pod: "openshift-kube-controller-manager/installer-6-master-1", PodUID: "e9cbfedf-30f5-4dce-b972-b77d0cf4267e",
				Detail: `failed to "CreatePodSandbox" for "installer-6-master-1_openshift-kube-controller-manager(e9cbfedf-30f5-4dce-b972-b77d0cf4267e)" with CreatePodSandboxError: "Failed to create sandbox for pod"`}},
		{"crash loop back-off", host + `kubenswrapper[2154]: E1120 09:01:02.123400    2154 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"catalog\" with CrashLoopBackOff: \"back-off 5m0s restarting failed container=catalog pod=catalog-84b6d9c7f-k8m2p_shop(685a1b99-0e77-47ca-89aa-91e3770e265b)\"" pod="shop/catalog-84b6d9c7f-k8m2p" podUID="685a1b99-0e77-47ca-89aa-91e3770e265b"`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "pod_workers.go:1301", Message: "Error syncing pod, skipping", Class: ClassCrashLoop, Pod: "shop/catalog-84b6d9c7f-k8m2p", PodUID: "685a1b99-0e77-47ca-89aa-91e3770e265b", Container: "catalog",
				Detail: `failed to "StartContainer" for "catalog" with CrashLoopBackOff: "back-off 5m0s restarting failed container=catalog pod=catalog-84b6d9c7f-k8m2p_shop(685a1b99-0e77-47ca-89aa-91e3770e265b)"`}},
		{"unstructured mount failure with quoted pod and UID", host + `hyperkube[1988]: E0914 14:13:01.000001    1988 nestedpendingoperations.go:301] Operation for "{volumeName:kubernetes.io/secret/x-serving-cert}" failed. Error: "MountVolume.SetUp failed for volume \"serving-cert\" (UniqueName: \"kubernetes.io/secret/x\") pod \"web-1\" (UID: \"0b9f3c2a-1111-2222-3333-444455556666\") : secret \"serving-cert\" not found"`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "nestedpendingoperations.go:301", Class: ClassVolume, PodUID: "0b9f3c2a-1111-2222-3333-444455556666",
				Detail:  `Operation for "{volumeName:kubernetes.io/secret/x-serving-cert}" failed. Error: "MountVolume.SetUp failed for volume \"serving-cert\" (UniqueName: \"kubernetes.io/secret/x\") pod \"web-1\" (UID: \"0b9f3c2a-1111-2222-3333-444455556666\") : secret \"serving-cert\" not found"`,
				Message: `Operation for "{volumeName:kubernetes.io/secret/x-serving-cert}" failed. Error: "MountVolume.SetUp failed for volume \"serving-cert\" (UniqueName: \"kubernetes.io/secret/x\") pod \"web-1\" (UID: \"0b9f3c2a-1111-2222-3333-444455556666\") : secret \"serving-cert\" not found"`}},
		{"eviction manager", host + `kubenswrapper[2154]: I1120 09:09:05.000000    2154 eviction_manager.go:616] "Eviction manager: pods evicted, waiting for pod to be cleaned up" pods=["shop/cache-5d4c3b2a1-ev1ct"]`,
			Entry{Unit: UnitKubelet, Severity: 'I', Source: "eviction_manager.go:616", Message: "Eviction manager: pods evicted, waiting for pod to be cleaned up", Class: ClassEviction, Pod: "shop/cache-5d4c3b2a1-ev1ct", Detail: "Eviction manager: pods evicted, waiting for pod to be cleaned up"}},
		{"lease failure", host + `kubenswrapper[2154]: E1120 09:01:02.123400    2154 controller.go:145] "Failed to ensure lease exists, will retry" err="Get \"https://api-int.example.com:6443/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/worker-0\": dial tcp 10.0.0.5:6443: connect: connection refused" interval="7s"`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "controller.go:145", Message: "Failed to ensure lease exists, will retry", Class: ClassAPI,
				Detail: `Get "https://api-int.example.com:6443/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/worker-0": dial tcp 10.0.0.5:6443: connect: connection refused`}},
		{"CRI-O logfmt pull error", host + `crio[1907]: time="2026-11-20 09:02:05.095819447Z" level=error msg="Error pulling image registry.internal.acme.corp:5000/billing:2.0: tls: failed to verify certificate: x509: certificate signed by unknown authority" id=abc name=/runtime.v1.ImageService/PullImage`,
			Entry{Unit: UnitCRIO, Severity: 'E', Class: ClassImagePull, Message: "Error pulling image registry.internal.acme.corp:5000/billing:2.0: tls: failed to verify certificate: x509: certificate signed by unknown authority",
				Detail: "Error pulling image registry.internal.acme.corp:5000/billing:2.0: tls: failed to verify certificate: x509: certificate signed by unknown authority"}},
		{"kernel OOM kill with cgroup", host + `kernel: oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=crio-1a2b.scope,mems_allowed=0,oom_memcg=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod73fa0887_061b_4708_ae66_619a928a2ca3.slice/crio-1a2b.scope,task_memcg=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod73fa0887_061b_4708_ae66_619a928a2ca3.slice/crio-1a2b.scope,task=java,pid=12345,uid=1000680000`,
			Entry{Unit: UnitKernel, Class: ClassOOMKill, PodUID: "73fa0887-061b-4708-ae66-619a928a2ca3", Detail: "killed process 12345 (java)"}},
		{"kernel OOM summary", host + `kernel: Memory cgroup out of memory: Killed process 12345 (java) total-vm:4194304kB, anon-rss:524288kB, file-rss:0kB`,
			Entry{Unit: UnitKernel, Class: ClassOOMKill, Message: "Memory cgroup out of memory: Killed process 12345 (java) total-vm:4194304kB, anon-rss:524288kB, file-rss:0kB", Detail: "killed process 12345 (java)"}},
		{"bootstrap CSR not created, API unreachable", host + `kubenswrapper[2154]: E1120 09:01:02.123400    2154 certificate_manager.go:562] kubernetes.io/kube-apiserver-client-kubelet: Failed while requesting a signed certificate from the control plane: cannot create certificate signing request: Post "https://api-int.ocp4.example.com:6443/apis/certificates.k8s.io/v1/certificatesigningrequests": dial tcp 192.0.2.10:6443: connect: connection refused`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "certificate_manager.go:562", Class: ClassCertificate,
				Message: `kubernetes.io/kube-apiserver-client-kubelet: Failed while requesting a signed certificate from the control plane: cannot create certificate signing request: Post "https://api-int.ocp4.example.com:6443/apis/certificates.k8s.io/v1/certificatesigningrequests": dial tcp 192.0.2.10:6443: connect: connection refused`,
				Detail:  `kubernetes.io/kube-apiserver-client-kubelet: Failed while requesting a signed certificate from the control plane: cannot create certificate signing request: Post "https://api-int.ocp4.example.com:6443/apis/certificates.k8s.io/v1/certificatesigningrequests": dial tcp 192.0.2.10:6443: connect: connection refused`}},
		{"bootstrap client certificate expired", host + `hyperkube[1834]: E0309 09:41:52.322771    1834 bootstrap.go:265] part of the existing bootstrap client certificate is expired: 2026-02-28 08:27:44 +0000 UTC`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "bootstrap.go:265", Class: ClassCertificate,
				Message: `part of the existing bootstrap client certificate is expired: 2026-02-28 08:27:44 +0000 UTC`,
				Detail:  `part of the existing bootstrap client certificate is expired: 2026-02-28 08:27:44 +0000 UTC`}},
		{"client certificate renewal never signed", host + `kubelet[1207]: E0301 19:20:40.141008    1207 certificate_manager.go:437] kubernetes.io/kube-apiserver-client-kubelet: certificate request was not signed: timed out waiting for the condition`,
			Entry{Unit: UnitKubelet, Severity: 'E', Source: "certificate_manager.go:437", Class: ClassCertificate,
				Message: `kubernetes.io/kube-apiserver-client-kubelet: certificate request was not signed: timed out waiting for the condition`,
				Detail:  `kubernetes.io/kube-apiserver-client-kubelet: certificate request was not signed: timed out waiting for the condition`}},
		{"ordinary info line", host + `kubenswrapper[2154]: I1120 09:01:02.123400    2154 kubelet.go:2421] "SyncLoop (PLEG): event for pod" pod="shop/web-1" event={"ID":"x","Type":"ContainerStarted"}`,
			Entry{Unit: UnitKubelet, Severity: 'I', Source: "kubelet.go:2421", Message: "SyncLoop (PLEG): event for pod", Class: ClassOther, Pod: "shop/web-1"}},
	}
	ignore := cmpopts.IgnoreFields(Entry{}, "Time", "Host", "Fields")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Parse([]byte(tt.line), ref)
			if !ok {
				t.Fatal("not parsed")
			}
			if tt.want.Message == "" && tt.want.Unit == UnitKernel {
				tt.want.Message = got.Message
			}
			if diff := cmp.Diff(tt.want, got, ignore); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got.Host != "worker-0" {
				t.Errorf("host = %q", got.Host)
			}
		})
	}
}

func TestParseKlogRejectsNonKlog(t *testing.T) {
	for _, s := range []string{"", "I", "Info: hello world and more text here", "E1120 09:01:02.1 no bracket at all here ok", "X1120 09:01:02.123400    2154 a.go:1] x"} {
		if k, ok := ParseKlog(s); ok {
			t.Errorf("ParseKlog(%q) = %+v", s, k)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`Nov 20 09:01:02.123456 worker-0 kubenswrapper[2154]: I1120 09:01:02.123400    2154 prober.go:107] "Probe failed" probeType="Readiness" pod="a/b" output="x"`))
	f.Add([]byte(`Nov 20 09:01:02.1 h crio[1]: time="x" level=error msg="Error pulling image \"a\": x509: bad"`))
	f.Add([]byte(`Nov  3 07:00:00 h kernel: oom-kill:task=java,pid=1,oom_memcg=/kubepods-pod01234567_89ab_cdef_0123_456789abcdef.slice`))
	f.Add([]byte(`Nov 20 09:01:02.123456 h kubenswrapper[1]: E1120 09:01:02.1 1 a.go:1] "x" err="unterminated`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, ok := Parse(line, ref)
		if !ok {
			return
		}
		if e.Severity != 0 && !strings.ContainsRune("IWEF", rune(e.Severity)) {
			t.Fatalf("severity %q", e.Severity)
		}
		if len(e.Fields) > MaxFields {
			t.Fatalf("%d fields", len(e.Fields))
		}
		if e.Class == "" {
			t.Fatal("no class")
		}
	})
}

func FuzzParseFields(f *testing.F) {
	f.Add(`a="b \"c\"" d=[e "f]"] g=&{h i} j`)
	f.Fuzz(func(t *testing.T, s string) {
		if fs := ParseFields(s); len(fs) > MaxFields {
			t.Fatalf("%d fields", len(fs))
		}
	})
}
