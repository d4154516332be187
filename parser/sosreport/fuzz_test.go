package sosreport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// problemLoad is the load.Load of the fuzz targets: it keeps the problems
// by path; the Reader asks nothing else of the load.
type problemLoad struct {
	load.Load
	problems map[string][]string
}

func (l *problemLoad) Problem(path, why string) { l.problems[path] = append(l.problems[path], why) }

// fuzzSos is the folder of the sosreport the fuzz targets read, named as
// `sos report` names it.
const fuzzSos = "sosreport-worker-0-04471230-2026-11-20-kqzvbnw"

// fuzzDate is the sosreport's date file, in UTC.
var fuzzDate = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

// fixtureSos is the project's own sosreport fixture of an RHCOS master.
const fixtureSos = "../../fixtures/sos/rhcos-master-unregistered/sosreport-localhost-2026-11-20-qzkfmtw"

// fixtureMember returns the fixture sosreport's member rel, or fallback
// when the fixture is not there.
func fixtureMember(rel, fallback string) []byte {
	if b, err := os.ReadFile(filepath.Join(fixtureSos, rel)); err == nil && len(b) < 32<<10 {
		return b
	}
	return []byte(fallback)
}

// The seeds of every Kind, shaped as `sos report` on RHCOS and Ubuntu
// writes them.
var (
	seedPods = "POD ID              CREATED              STATE               NAME                          NAMESPACE          ATTEMPT             RUNTIME\n" +
		"3f2b8c91d04e7       41 minutes ago       Ready               etcd-worker-0                 openshift-etcd     0                   (default)\n" +
		"9a8b7c6d5e4f3       About an hour ago    NotReady            installer-3-worker-0          openshift-kube-apiserver   2           (default)\n"
	seedPs = "CONTAINER       IMAGE                        CREATED              STATE     NAME      ATTEMPT   POD ID          POD\n" +
		"4283fefc63f0c   quay.io/x@sha256:11          40 minutes ago       Running   etcd      0         3f2b8c91d04e7   etcd-worker-0\n" +
		"74bf0c1d2e3f4   quay.io/x@sha256:22          2 minutes ago        Exited    etcd      14        3f2b8c91d04e7   etcd-worker-0\n"
	seedInspect        = `{"status":{"id":"74bf0c1d2e3f4a5b6c7d8e9f","metadata":{"attempt":14,"name":"etcd"},"state":"CONTAINER_EXITED","createdAt":"2026-11-20T09:27:00.000000001Z","startedAt":"2026-11-20T09:27:00.1Z","finishedAt":"2026-11-20T09:27:03Z","exitCode":1,"reason":"Error","message":"etcdmain: listen tcp 10.0.0.5:2380: bind: address already in use","labels":{"io.kubernetes.pod.name":"etcd-worker-0","io.kubernetes.pod.namespace":"openshift-etcd","io.kubernetes.pod.uid":"0b6c9a6e-1f7e-4c1a-9b1e-5d2f3a4b5c6d"}}}`
	seedInspectp       = `{"status":{"id":"3f2b8c91d04e7a6b5c4d3e2f","metadata":{"attempt":0,"name":"etcd-worker-0","namespace":"openshift-etcd","uid":"0b6c9a6e-1f7e-4c1a-9b1e-5d2f3a4b5c6d"},"state":"SANDBOX_READY","createdAt":"2026-11-20T08:49:00Z"}}`
	seedKubectlVersion = `Client Version: version.Info{Major:"1", Minor:"23", GitVersion:"v1.23.3", GitCommit:"816c97ab", GitTreeState:"clean"}` + "\n" +
		`Server Version: version.Info{Major:"1", Minor:"23", GitVersion:"v1.23.3", GitCommit:"816c97ab", GitTreeState:"clean"}` + "\n"
	seedOcVersion = "Client Version: 4.18.12\nKustomize Version: v5.4.2\nServer Version: 4.18.12\nKubernetes Version: v1.31.6+4c1b8e9\n"
	seedKubelet   = "Kubernetes v1.31.6\n"
	seedManifest  = `{"version":"4.7.2","cmdline":"sos report --batch","start_time":"2026-11-20 10:29:41.512345","end_time":"2026-11-20 10:31:02.004511","compression":"xz","policy":"Red Hat CoreOS","components":{"report":{"plugins":{"crio":{"commands":[{"exec":"crictl ps -a","return_code":0,"truncated":false}]}}}}}`
)

// FuzzRead classifies a member path and reads arbitrary bytes as that
// member, then settles the sosreport and makes its pods: no panic, a member
// claimed lies in its sosreport's folder, every pod it makes is of the
// sosreport's host with consistent kubectl columns, and the times the
// manifest gives are in order.
func FuzzRead(f *testing.F) {
	for _, s := range []struct{ rel, data string }{
		{"sos_commands/crio/crictl_pods", string(fixtureMember("sos_commands/crio/crictl_pods", seedPods))},
		{"sos_commands/crio/crictl_ps_-a", string(fixtureMember("sos_commands/crio/crictl_ps_-a", seedPs))},
		{"sos_commands/crio/crictl_ps", seedPs},
		{"sos_commands/crio/containers/crictl_inspect_74bf0c1d2e3f4a5b6c7d8e9f", seedInspect},
		{"sos_commands/crio/pods/crictl_inspectp_3f2b8c91d04e7a6b5c4d3e2f", seedInspectp},
		{"sos_commands/kubernetes/kubectl_--kubeconfig_.root.cdk.cdk_addons_kubectl_config_version", seedKubectlVersion},
		{"sos_commands/openshift/oc_--kubeconfig_.etc.kubernetes.static-pod-resources.kube-apiserver-certs.secrets.node-kubeconfigs.localhost.kubeconfig_version", seedOcVersion},
		{"sos_commands/kubernetes/kubelet_--version", seedKubelet},
		{"sos_reports/manifest.json", string(fixtureMember("sos_reports/manifest.json", seedManifest))},
		{"sos_commands/logs/journalctl_--no-pager", "Nov 20 09:29:01 worker-0 kubenswrapper[2101]: I1120 09:29:01.000000 2101 kubelet.go:1] x\n"},
	} {
		f.Add(fuzzSos+"/"+s.rel, []byte(s.data))
		f.Add(s.rel, []byte(s.data)) // the sosreport given as the input itself
	}
	f.Add("x/sos_commands/crio/crictl_inspect_zz", []byte("{"))
	f.Add("sos_reports/manifest.json/sos_commands/crio/crictl_pods", []byte(seedPods))
	have := []*model.Pod{{Object: corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "installer-3-worker-0", Namespace: "openshift-kube-apiserver"}}}}
	f.Fuzz(func(t *testing.T, p string, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		m := Classify(p)
		if m.Kind == Other {
			if m != (Member{}) {
				t.Fatalf("Classify(%q) = %+v: Other with fields", p, m)
			}
			return
		}
		if !strings.HasPrefix(p, m.Root) || m.Root != "" && !strings.HasSuffix(m.Root, "/") {
			t.Fatalf("Classify(%q): root %q does not lead the path", p, m.Root)
		}
		if rest := p[len(m.Root):]; !strings.HasPrefix(rest, "sos_commands/") && !strings.HasPrefix(rest, "sos_reports/") {
			t.Fatalf("Classify(%q): %q is not a sosreport's member", p, rest)
		}
		l := &problemLoad{problems: map[string][]string{}}
		r := NewReader(l)
		dir := strings.TrimSuffix(m.Root, "/")
		if dir == "" {
			dir = "."
		}
		r.Count(m.Kind)
		readErr := r.Read(p, dir, m, data)
		if used := r.Used(); len(used) != 1 || used[0].Files != 1 {
			t.Fatalf("Used after one %v member = %+v", m.Kind, used)
		}
		times := map[string][]time.Time{dir: {fuzzDate}}
		version := r.Settle(times)
		if version != "" && (m.Kind != Version || !strings.HasPrefix(version, "v")) {
			t.Fatalf("Settle: Kubernetes version %q from a %v member", version, m.Kind)
		}
		if ts := times[dir]; len(ts) == 2 && ts[1].Before(ts[0]) || len(ts) > 2 || len(ts) == 0 {
			t.Fatalf("gather times %v", ts)
		}
		if m.Kind == Manifest && readErr == nil && len(times[dir]) == 2 && times[dir][0].Sub(fuzzDate).Abs() > 15*time.Minute+24*time.Hour {
			t.Fatalf("manifest start %s far from the date file's %s", times[dir][0], fuzzDate)
		}
		checkPods(t, r.Pods(have, map[string]string{dir: "worker-0"}), []string{p}, have)
	})
}

// FuzzRuntimeView reads arbitrary bytes as the crio plugin's four files of
// one sosreport (crictl pods, crictl ps -a, one container's and one
// sandbox's inspect JSON), with its version output and manifest, and joins
// them into pods: no panic, and the pods are consistent (checkPods).
func FuzzRuntimeView(f *testing.F) {
	f.Add([]byte(fixtureMember("sos_commands/crio/crictl_pods", seedPods)), []byte(fixtureMember("sos_commands/crio/crictl_ps_-a", seedPs)),
		[]byte(seedInspect), []byte(seedInspectp), []byte(seedOcVersion), []byte(seedManifest))
	f.Add([]byte(seedPods), []byte(seedPs), []byte(seedInspect), []byte(seedInspectp), []byte(seedKubectlVersion), []byte(seedManifest))
	// A container whose sandbox row is gone, an inspect of no table row.
	f.Add([]byte(""), []byte(seedPs), []byte(strings.Replace(seedInspect, "74bf0c1d2e3f4", "0000000000000", 1)), []byte("{}"), []byte(seedKubelet), []byte("{}"))
	paths := []string{"crio/crictl_pods", "crio/crictl_ps_-a", "crio/containers/crictl_inspect_74bf0c1d2e3f4a5b6c7d8e9f",
		"crio/pods/crictl_inspectp_3f2b8c91d04e7a6b5c4d3e2f", "openshift/oc_version", "../sos_reports/manifest.json"}
	for i, rel := range paths {
		paths[i] = fuzzSos + "/sos_commands/" + rel
		if strings.HasPrefix(rel, "../") {
			paths[i] = fuzzSos + "/" + strings.TrimPrefix(rel, "../")
		}
	}
	f.Fuzz(func(t *testing.T, pods, ps, inspect, inspectp, version, manifest []byte) {
		l := &problemLoad{problems: map[string][]string{}}
		r := NewReader(l)
		for i, data := range [][]byte{pods, ps, inspect, inspectp, version, manifest} {
			if len(data) > 256<<10 {
				return
			}
			m := Classify(paths[i])
			if m.Kind == Other || m.Root != fuzzSos+"/" {
				t.Fatalf("Classify(%q) = %+v", paths[i], m)
			}
			_ = r.Read(paths[i], fuzzSos, m, data)
		}
		times := map[string][]time.Time{fuzzSos: {fuzzDate}}
		r.Settle(times)
		got := r.Pods(nil, map[string]string{fuzzSos: "worker-0"})
		checkPods(t, got, paths, nil)
		for p := range l.problems {
			if p != paths[0] && p != paths[1] {
				t.Errorf("a problem of %q, which the join does not read", p)
			}
		}
	})
}

// checkPods checks the pods a sosreport's runtime view makes: each of host
// worker-0, from one of the member paths, none twice nor one of have, every
// container status named with its runtime ID, columns that add up.
func checkPods(t *testing.T, pods []*model.Pod, paths []string, have []*model.Pod) {
	t.Helper()
	seen := map[string]bool{}
	for _, h := range have {
		seen[h.Key()] = true
	}
	for _, p := range pods {
		if seen[p.Key()] {
			t.Fatalf("pod %s made twice, or already in the gather", p.Key())
		}
		seen[p.Key()] = true
		if p.Object.Spec.NodeName != "worker-0" || p.Runtime == nil || p.Runtime.Node != "worker-0" {
			t.Fatalf("pod %s: node %q, runtime %v", p.Key(), p.Object.Spec.NodeName, p.Runtime != nil)
		}
		if p.Source.Path != "" && !containsPath(paths, p.Source.Path) {
			t.Fatalf("pod %s cites %q, not a member read", p.Key(), p.Source.Path)
		}
		for _, c := range p.Runtime.Containers {
			if c.Source.Path != "" && !containsPath(paths, c.Source.Path) {
				t.Fatalf("container %s cites %q, not a member read", c.Name, c.Source.Path)
			}
		}
		if len(p.Object.Spec.Containers) != len(p.Object.Status.ContainerStatuses) {
			t.Fatalf("pod %s: %d containers, %d statuses", p.Key(), len(p.Object.Spec.Containers), len(p.Object.Status.ContainerStatuses))
		}
		for _, st := range p.Object.Status.ContainerStatuses {
			if st.Name == "" || st.ContainerID == "cri-o://" || st.RestartCount < 0 {
				t.Fatalf("pod %s: status %+v", p.Key(), st)
			}
		}
		c := RuntimeColumns(p, fuzzDate)
		if c.TotalContainers != len(p.Object.Status.ContainerStatuses) || c.ReadyContainers > c.TotalContainers || c.RestartCount < 0 || c.Status == "" {
			t.Fatalf("pod %s: columns %+v", p.Key(), c)
		}
	}
}

func containsPath(paths []string, p string) bool {
	for _, q := range paths {
		if q == p {
			return true
		}
	}
	return false
}
