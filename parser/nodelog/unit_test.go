package nodelog

import (
	"testing"
	"time"
)

// The kubelet's lines carry a different syslog identifier in each
// distribution; each reads as the kubelet's, with its klog severity. The
// identifiers are those of public journal excerpts: Charmed Kubernetes
// (kubelet.daemon[pid], unit snap.kubelet.daemon), MicroK8s
// (microk8s.daemon-kubelite, microk8s.daemon-kubelet before 1.21), K3s
// (k3s[pid] on servers and agents).
func TestUnitOfDistributions(t *testing.T) {
	const klog = `E0211 19:20:01.000000    1234 kubelet.go:2347] "Container runtime network not ready"`
	for _, c := range []struct {
		ident string
		want  Unit
	}{
		{"kubenswrapper", UnitKubelet},
		{"hyperkube", UnitKubelet},
		{"kubelet", UnitKubelet},
		{"kubelet.daemon", UnitKubelet},
		{"microk8s.daemon-kubelite", UnitKubelet},
		{"microk8s.daemon-kubelet", UnitKubelet},
		{"k3s", UnitKubelet},
		{"crio", UnitCRIO},
		{"conmon", UnitCRIO},
		{"kernel", UnitKernel},
		// Not the kubelet: another snap daemon, the unit name, a prefix.
		{"kube-apiserver.daemon", UnitOther},
		{"snap.kubelet.daemon", UnitOther},
		{"kubelet.daemonx", UnitOther},
		{"k3s-server", UnitOther},
	} {
		line := "Feb 11 19:20:01 juju-x-5 " + c.ident + "[1234]: " + klog
		e, ok := Parse([]byte(line), time.Date(2022, 2, 11, 19, 24, 3, 0, time.UTC))
		if !ok {
			t.Fatalf("%s: not a journal line", c.ident)
		}
		if e.Unit != c.want || e.Host != "juju-x-5" {
			t.Errorf("%s: unit %q host %q, want %q", c.ident, e.Unit, e.Host, c.want)
		}
		if c.want == UnitKubelet && e.Severity != 'E' {
			t.Errorf("%s: severity %q, want E (klog read)", c.ident, e.Severity)
		}
	}
}
