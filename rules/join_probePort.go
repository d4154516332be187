package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// probeRef is one probe of a container with the port it checks.
type probeRef struct {
	kind  string // liveness, readiness, startup
	field string // spec path of its port: "spec.containers[web].livenessProbe.httpGet.port"
	port  intstr.IntOrString
}

// containerProbes lists the probes of spec that check a port (httpGet,
// tcpSocket, grpc), of kind only when kind is not "".
func containerProbes(spec *corev1.Container, list, kind string) []probeRef {
	var out []probeRef
	for _, pr := range []struct {
		kind  string
		probe *corev1.Probe
	}{{"liveness", spec.LivenessProbe}, {"readiness", spec.ReadinessProbe}, {"startup", spec.StartupProbe}} {
		if pr.probe == nil || kind != "" && !strings.EqualFold(kind, pr.kind) {
			continue
		}
		base := fmt.Sprintf("%s[%s].%sProbe", list, spec.Name, pr.kind)
		switch h := pr.probe.ProbeHandler; {
		case h.HTTPGet != nil:
			out = append(out, probeRef{pr.kind, base + ".httpGet.port", h.HTTPGet.Port})
		case h.TCPSocket != nil:
			out = append(out, probeRef{pr.kind, base + ".tcpSocket.port", h.TCPSocket.Port})
		case h.GRPC != nil:
			out = append(out, probeRef{pr.kind, base + ".grpc.port", intstr.FromInt32(h.GRPC.Port)})
		}
	}
	return out
}

// resolveProbePort resolves a probe's port as the kubelet does: a number is
// the port; a name is looked up among the container's ports, then read as a
// number. ok is false when it resolves to nothing.
func resolveProbePort(port intstr.IntOrString, spec *corev1.Container) (n int, ok bool) {
	if port.Type == intstr.Int {
		return port.IntValue(), true
	}
	for _, p := range spec.Ports {
		if p.Name == port.StrVal {
			return int(p.ContainerPort), true
		}
	}
	n, err := strconv.Atoi(port.StrVal)
	return n, err == nil && n > 0 && n < 65536
}

// portsText describes the ports a container declares: "8080/TCP (http), 9090/TCP".
func portsText(spec *corev1.Container) string {
	var out []string
	for _, p := range spec.Ports {
		proto := string(p.Protocol)
		if proto == "" {
			proto = "TCP"
		}
		s := fmt.Sprintf("%d/%s", p.ContainerPort, proto)
		if p.Name != "" {
			s += " named " + p.Name
		} else {
			s += " (unnamed)"
		}
		out = append(out, s)
	}
	return list(out, 6)
}

// podContainerSpec returns the spec of the pod's container name and the
// list it is in (spec.containers or spec.initContainers).
func podContainerSpec(p *corev1.Pod, name string) (*corev1.Container, string) {
	for i := range p.Spec.Containers {
		if p.Spec.Containers[i].Name == name {
			return &p.Spec.Containers[i], "spec.containers"
		}
	}
	for i := range p.Spec.InitContainers {
		if p.Spec.InitContainers[i].Name == name {
			return &p.Spec.InitContainers[i], "spec.initContainers"
		}
	}
	return nil, ""
}

// probeKinds joins the kinds of probes: "readiness and liveness".
func probeKinds(ps []probeRef) string {
	var kinds []string
	for _, p := range ps {
		kinds = append(kinds, p.kind)
	}
	return list(kinds, 3)
}

// joinProbePort runs the probePort join for one pod and hit (doc and reads:
// joinRegistry). As a signature's decider it reads the probe kind
// (ProbeKind) and the port the line names: the refused port number (Port)
// or the port name the kubelet could not resolve (PortName).
func joinProbePort(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	spec, listName := podContainerSpec(&p.Object, h.Container)
	if spec == nil {
		return res
	}
	probes := containerProbes(spec, listName, h.Vars["ProbeKind"])
	portsPath := fmt.Sprintf("%s[%s].ports", listName, spec.Name)
	declared := func() Evidence {
		text := fmt.Sprintf("%s %s declares no ports", strings.TrimSuffix(strings.TrimPrefix(listName, "spec."), "s"), spec.Name)
		if len(spec.Ports) > 0 {
			text = fmt.Sprintf("%s %s declares ports %s", strings.TrimSuffix(strings.TrimPrefix(listName, "spec."), "s"), spec.Name, portsText(spec))
		}
		return c.fieldEvidence(p, text, portsPath, listName+"["+spec.Name+"]")
	}
	where := "the pod manifest"
	if o := h.Vars["Owner"]; o != "" {
		where = o
	}
	if name := h.Vars["PortName"]; name != "" {
		var using []probeRef
		for _, pr := range probes {
			if pr.port.Type == intstr.String && pr.port.StrVal == name {
				using = append(using, pr)
			}
		}
		if len(using) == 0 {
			return res // the line is of another version of the spec
		}
		if _, ok := resolveProbePort(using[0].port, spec); ok {
			res.RuledOut = true // the container declares that name now
			res.Evidence = append(res.Evidence, declared())
			return res
		}
		// Every probe of the container that uses the name, whichever the
		// line was about: they fail together.
		using = nil
		for _, pr := range containerProbes(spec, listName, "") {
			if pr.port.Type == intstr.String && pr.port.StrVal == name {
				using = append(using, pr)
				res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s probe port: %s", pr.kind, name), pr.field))
			}
		}
		res.Evidence = append(res.Evidence, declared())
		res.Decided = true
		has := "declares no ports at all"
		if len(spec.Ports) > 0 {
			has = "declares no port of that name (ports[].name); its ports are " + portsText(spec)
		}
		effect := ""
		for _, pr := range using {
			switch pr.kind {
			case "readiness":
				effect += " Readiness stays False, so the pod is never Ready and receives no Service traffic."
			case "liveness":
				effect += " A liveness probe that errors never restarts the container either."
			case "startup":
				effect += " The startup probe never succeeds, so the container is never started and is finally killed."
			}
		}
		res.Cause = fmt.Sprintf("The %s %s of container %s use port: %s, a port name, and the container %s: the kubelet cannot resolve the name, so the probe errors (unknown result) instead of checking anything.%s",
			probeKinds(using), pick(len(using) == 1, "probe", "probes"), spec.Name, name, has, effect)
		if len(spec.Ports) == 1 {
			res.Fix = fmt.Sprintf("Name the port: `ports: [{containerPort: %d, name: %s}]` for container %s in %s, or use the number %d in the probes.", spec.Ports[0].ContainerPort, name, spec.Name, where, spec.Ports[0].ContainerPort)
		} else {
			res.Fix = fmt.Sprintf("Add name: %s to the containerPort the probes should check (container %s in %s), or use that port's number in the probes.", name, spec.Name, where)
		}
		return res
	}
	port, err := strconv.Atoi(h.Vars["Port"])
	if err != nil {
		return res
	}
	var refused []probeRef
	for _, pr := range probes {
		if n, ok := resolveProbePort(pr.port, spec); ok && n == port {
			refused = append(refused, pr)
		}
	}
	if len(refused) == 0 {
		return res // the line names a port no probe of the container checks now
	}
	if len(spec.Ports) == 0 {
		res.Missing = append(res.Missing, fmt.Sprintf("container %s declares no ports, so port %d could not be compared with the ports it serves", spec.Name, port))
		return res
	}
	for _, dp := range spec.Ports {
		if int(dp.ContainerPort) == port {
			res.RuledOut = true // the probe checks a declared port: not a wrong port
			res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s probe port: %s = %d/%s", refused[0].kind, refused[0].port.String(), dp.ContainerPort, orDash(string(dp.Protocol))), refused[0].field), declared())
			return res
		}
	}
	for _, pr := range refused {
		res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s probe port: %s", pr.kind, pr.port.String()), pr.field))
	}
	res.Evidence = append(res.Evidence, declared())
	res.Decided = true
	res.Cause = fmt.Sprintf("The %s %s of container %s %s port %d, and the container declares no containerPort %d: its ports are %s. The probe checks a port the container does not declare, most likely not one the application listens on, so every check is refused however healthy the application is.",
		probeKinds(refused), pick(len(refused) == 1, "probe", "probes"), spec.Name, pick(len(refused) == 1, "checks", "check"), port, port, portsText(spec))
	target := fmt.Sprint(spec.Ports[0].ContainerPort)
	if spec.Ports[0].Name != "" {
		target = spec.Ports[0].Name
	}
	res.Fix = fmt.Sprintf("Point the %s %s of container %s in %s at the port it serves (for example `port: %s`), or make the application listen on %d.", probeKinds(refused), pick(len(refused) == 1, "probe", "probes"), spec.Name, where, target, port)
	return res
}
