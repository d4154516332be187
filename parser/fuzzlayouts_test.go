package parser

// The members of one small gather of every layout the load reads, shaped
// as the real ones are (see ../shared/FORMATS.md; written for these tests,
// nothing copied): the seeds of FuzzLoadArchive and FuzzReadMember.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"testing"
)

// fuzzMember is one member of a layout's gather.
type fuzzMember struct{ path, body string }

// fuzzLayout is a small gather of one layout, its members in archive order.
type fuzzLayout struct {
	name    string
	members []fuzzMember
}

const (
	fuzzImg = "must-gather.local.5049263173451366137/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-b38e71bb/"
	fuzzSos = "sosreport-worker-0-04471230-2026-11-20-kqzvbnw/"

	fuzzPodJSON = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"catalog-1","namespace":"shop","uid":"6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b","creationTimestamp":"2026-11-20T08:00:00Z"},` +
		`"spec":{"nodeName":"worker-0","containers":[{"name":"catalog","image":"registry.example.com/shop/catalog:1.4"}]},` +
		`"status":{"phase":"Running","conditions":[{"type":"Ready","status":"False","reason":"ContainersNotReady"}],"containerStatuses":[{"name":"catalog","image":"registry.example.com/shop/catalog:1.4","ready":false,"restartCount":14,` +
		`"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 5m0s restarting failed container=catalog pod=catalog-1_shop"}},` +
		`"lastState":{"terminated":{"exitCode":1,"reason":"Error","startedAt":"2026-11-20T09:05:00Z","finishedAt":"2026-11-20T09:05:03Z"}}}]}}`
	fuzzPodList   = `{"apiVersion":"v1","kind":"List","items":[` + fuzzPodJSON + `]}`
	fuzzEventList = `{"apiVersion":"v1","kind":"EventList","items":[{"metadata":{"name":"catalog-1.187a6f","namespace":"shop"},"involvedObject":{"kind":"Pod","namespace":"shop","name":"catalog-1","uid":"6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b"},` +
		`"reason":"BackOff","message":"Back-off restarting failed container catalog in pod catalog-1_shop(6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b)","source":{"component":"kubelet","host":"worker-0"},"firstTimestamp":"2026-11-20T08:10:00Z","lastTimestamp":"2026-11-20T09:10:40Z","count":41,"type":"Warning"}]}`
	fuzzNodeJSON = `{"apiVersion":"v1","kind":"Node","metadata":{"name":"worker-0","labels":{"node-role.kubernetes.io/worker":""}},"spec":{},` +
		`"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-11-20T09:11:00Z","lastTransitionTime":"2026-11-01T00:00:00Z","reason":"KubeletReady"}],` +
		`"nodeInfo":{"kubeletVersion":"v1.31.6","containerRuntimeVersion":"cri-o://1.31.5-3.rhaos4.18.git5a1b2c3.el9","machineID":"8c1f","systemUUID":"4c4c4544","bootID":"b1"},"addresses":[{"type":"InternalIP","address":"192.168.111.23"}]}}`
	fuzzNodeList = `{"apiVersion":"v1","kind":"List","items":[` + fuzzNodeJSON + `]}`
	fuzzCRILog   = "2026-11-20T09:05:01.000000000+00:00 stdout F starting catalog 1.4\n2026-11-20T09:05:03.000000000+00:00 stderr F panic: dial tcp 172.30.0.10:5432: connect: connection refused\n"
	fuzzJournal  = "Nov 20 09:10:40 worker-0 kubenswrapper[2101]: E1120 09:10:40.123456    2101 pod_workers.go:1301] \"Error syncing pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"catalog\\\" with CrashLoopBackOff: \\\"back-off 5m0s restarting failed container=catalog pod=catalog-1_shop(6f1d2c3b)\\\"\" pod=\"shop/catalog-1\"\n" +
		"Nov 20 09:10:41 worker-0 crio[1902]: time=\"2026-11-20 09:10:41.1\" level=info msg=\"Removed container 74bf\"\n"
	fuzzInspect = `{"status":{"id":"74bf0c1d2e3f4a5b6c7d8e9f","metadata":{"attempt":14,"name":"catalog"},"state":"CONTAINER_EXITED","createdAt":"2026-11-20T09:05:00.000000001Z","startedAt":"2026-11-20T09:05:00.1Z","finishedAt":"2026-11-20T09:05:03Z","exitCode":1,"reason":"Error",` +
		`"labels":{"io.kubernetes.pod.name":"catalog-1","io.kubernetes.pod.namespace":"shop","io.kubernetes.pod.uid":"6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b"}}}`
)

// fuzzLayouts are the layouts, one small gather each.
var fuzzLayouts = []fuzzLayout{
	{"must-gather", []fuzzMember{
		{"must-gather.local.5049263173451366137/timestamp", "2026-11-20 10:12:33.1 +0100 CET m=+0.01\n"},
		{fuzzImg + "timestamp", "2026-11-20 09:12:33.412876203 +0000 UTC m=+0.079937509\n2026-11-20 09:14:05.907341126 +0000 UTC m=+92.574402432\n"},
		{fuzzImg + "version", "openshift/must-gather\n4.18.0-202511121203.p0.g1c2d3e4.assembly.stream.el9\n"},
		{fuzzImg + "cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml", "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  clusterID: 0b6c9a6e-1f7e-4c1a-9b1e-5d2f3a4b5c6d\nstatus:\n  history:\n  - state: Completed\n    version: 4.18.12\n"},
		{fuzzImg + "cluster-scoped-resources/core/nodes/worker-0.yaml", fuzzNodeJSON},
		{fuzzImg + "namespaces/shop/core/pods.yaml", podList("shop", "catalog-1", "6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b")},
		{fuzzImg + "namespaces/shop/core/events.yaml", fuzzEventList},
		{fuzzImg + "namespaces/shop/pods/catalog-1/catalog-1.yaml", fuzzPodJSON},
		{fuzzImg + "namespaces/shop/pods/catalog-1/catalog/catalog/logs/previous.log", fuzzCRILog},
		{fuzzImg + "host_service_logs/masters/kubelet_service.log", fuzzJournal},
		{fuzzImg + "nodes/worker-0/worker-0_logs_kubelet", fuzzJournal},
		{fuzzImg + "monitoring/prometheus/rules.json", `{"status":"success","data":{"groups":[{"rules":[{"type":"alerting","name":"KubePodCrashLooping","labels":{"severity":"warning"},"alerts":[{"state":"firing","labels":{"namespace":"shop","pod":"catalog-1"},"annotations":{"summary":"Pod is crash looping."}}]}]}]}}`},
		{fuzzImg + "etcd_info/endpoint_health.json", `[{"endpoint":"https://192.168.111.20:2379","health":true}]`},
	}},
	{"sosreport", []fuzzMember{
		{fuzzSos + "hostname", "worker-0\n"},
		{fuzzSos + "date", "Fri Nov 20 09:30:00 UTC 2026\n"},
		{fuzzSos + "sos_commands/kubernetes/kubectl_--kubeconfig_.etc.kubernetes.kubeconfig_get_-o_json_--namespace_shop_pods", fuzzPodList},
		{fuzzSos + "sos_commands/kubernetes/kubectl_--kubeconfig_.etc.kubernetes.kubeconfig_get_-o_json_--namespace_shop_events", fuzzEventList},
		{fuzzSos + "sos_commands/kubernetes/kubectl_--kubeconfig_.etc.kubernetes.kubeconfig_get_-o_json_nodes", fuzzNodeList},
		{fuzzSos + "sos_commands/kubernetes/kubectl_--kubeconfig_.etc.kubernetes.kubeconfig_version", "Client Version: v1.31.6\nKustomize Version: v5.4.2\nServer Version: v1.31.6\n"},
		{fuzzSos + "sos_commands/crio/crictl_pods", "POD ID              CREATED          STATE    NAME        NAMESPACE   ATTEMPT   RUNTIME\n3f2b8c91d04e7       2 hours ago      Ready    catalog-1   shop        0         (default)\n"},
		{fuzzSos + "sos_commands/crio/crictl_ps_-a", "CONTAINER       IMAGE                                    CREATED         STATE     NAME      ATTEMPT   POD ID          POD\n74bf0c1d2e3f4   registry.example.com/shop/catalog:1.4    25 minutes ago  Exited    catalog   14        3f2b8c91d04e7   catalog-1\n"},
		{fuzzSos + "sos_commands/crio/containers/crictl_inspect_74bf0c1d2e3f4a5b6c7d8e9f", fuzzInspect},
		{fuzzSos + "sos_commands/crio/pods/crictl_inspectp_3f2b8c91d04e7a6b5c4d3e2f", `{"status":{"id":"3f2b8c91d04e7a6b5c4d3e2f","metadata":{"name":"catalog-1","namespace":"shop","uid":"6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b"},"state":"SANDBOX_READY","createdAt":"2026-11-20T08:00:00Z"}}`},
		{fuzzSos + "sos_commands/logs/journalctl_--no-pager_--unit_kubelet", fuzzJournal},
		{fuzzSos + "sos_reports/manifest.json", `{"version":"4.7.2","start_time":"2026-11-20 10:29:41.512345","end_time":"2026-11-20 10:31:02.004511","policy":"Red Hat CoreOS"}`},
	}},
	{"insights archive", []fuzzMember{
		{"config/id", "0b6c9a6e-1f7e-4c1a-9b1e-5d2f3a4b5c6d"},
		{"config/version.json", `{"spec":{"clusterID":"0b6c9a6e-1f7e-4c1a-9b1e-5d2f3a4b5c6d"},"status":{"history":[{"state":"Completed","version":"4.18.12"}]}}`},
		{"config/pod/shop/catalog-1.json", fuzzPodJSON},
		{"config/pod/shop/logs/catalog-1/catalog_previous.log", fuzzCRILog},
		{"config/node/worker-0.json", fuzzNodeJSON},
		{"config/node/logs/worker-0.log", fuzzJournal},
		{"config/clusteroperator/dns.json", `{"apiVersion":"config.openshift.io/v1","kind":"ClusterOperator","metadata":{"name":"dns"},"status":{"conditions":[{"type":"Degraded","status":"True","reason":"DNSDegraded"}]}}`},
		{"config/pdbs/shop/catalog.json", `{"metadata":{"name":"catalog","namespace":"shop"},"spec":{"minAvailable":1}}`},
		{"events/shop.json", `{"items":[{"namespace":"shop","lastTimestamp":"2026-11-20T09:10:40Z","reason":"BackOff","message":"Back-off restarting failed container","type":"Warning"}]}`},
		{"insights-operator/gathers.json", `{"status_reports":[]}`},
	}},
	{"support bundle", []fuzzMember{
		{"support-bundle-2026-11-20T09_12_33/version.yaml", "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\n"},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/pods/shop.json", fuzzPodList},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/events/shop.json", fuzzEventList},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/nodes.json", fuzzNodeList},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/deployments/shop.json", `{"kind":"DeploymentList","items":[{"metadata":{"name":"catalog","namespace":"shop"}}]}`},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/pods/logs/shop/catalog-1/catalog-previous.log", "panic: dial tcp 172.30.0.10:5432: connect: connection refused\n"},
	}},
	{"pod captures", []fuzzMember{
		{"captures/pods/catalog-1.json", fuzzPodJSON},
		{"captures/events/shop.json", fuzzEventList},
		{"captures/nodes.json", fuzzNodeList},
	}},
	{"install log bundle, bootstrap", []fuzzMember{
		{"log-bundle-20261120085830/gather.log", "Gathering bootstrap systemd summary ...\nGathering bootstrap failed systemd unit status ...\n"},
		{"log-bundle-20261120085830/failed-units.txt", "bootkube.service loaded failed failed Bootstrap a Kubernetes cluster\n"},
		{"log-bundle-20261120085830/bootstrap/journals/bootkube.log", "Nov 20 08:36:40 bootstrap.ocp4.example.com bootkube.sh[2816]: Error: unable to connect to the server: dial tcp 192.168.111.5:6443: connect: connection refused\n"},
		{"log-bundle-20261120085830/bootstrap/journals/kubelet.log", fuzzJournal},
		{"log-bundle-20261120085830/bootstrap/containers/etcd-5d2c8e1f0a9b7c6d.log", fuzzCRILog},
		{"log-bundle-20261120085830/bootstrap/containers/etcd-5d2c8e1f0a9b7c6d.inspect", fuzzInspect},
		{"log-bundle-20261120085830/resources/pods.json", fuzzPodList},
		{"log-bundle-20261120085830/resources/nodes.json", ""},
		{"log-bundle-20261120085830/resources/masters.list", ""},
	}},
	{"install log bundle, control plane", []fuzzMember{
		{"log-bundle/control-plane/172.16.1.11/containers/x.inspect", fuzzInspect},
		{"log-bundle/control-plane/172.16.1.11/containers/x.log", fuzzCRILog},
		{"log-bundle/control-plane/172.16.1.11/containers/etcd-0123456789ab.log", fuzzCRILog},
		{"log-bundle/control-plane/172.16.1.11/journals/kubelet.log", fuzzJournal},
		{"log-bundle/control-plane/172.16.1.11/journals/machine-config-daemon-firstboot.log", "Nov 20 08:44:10 master-0 machine-config-daemon[1802]: waiting for the Kubernetes API\n"},
	}},
}

// fuzzTar returns the members as a tar, gzipped when gz.
func fuzzTar(t testing.TB, members []fuzzMember, gz bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var zw *gzip.Writer
	tw := tar.NewWriter(&buf)
	if gz {
		zw = gzip.NewWriter(&buf)
		tw = tar.NewWriter(zw)
	}
	for _, m := range members {
		if err := tw.WriteHeader(&tar.Header{Name: m.path, Mode: 0o644, Size: int64(len(m.body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(m.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}
