package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// privilege is what a container may do to the node's packet filter: the
// user it runs as and whether NET_ADMIN and NET_RAW are in its effective
// capability set, as the container runtime builds that set from the
// container's securityContext (and the pod's, for the user).
type privilege struct {
	// UID is the user, UIDKnown false when neither the container nor the
	// pod sets runAsUser (the image's USER applies); NonRoot is true when
	// the UID is not 0, or runAsNonRoot forbids root.
	UID      int64
	UIDKnown bool
	NonRoot  bool
	// UIDFrom says where the user comes from ("its own securityContext",
	// "the pod's spec.securityContext, which it inherits").
	UIDFrom    string
	Privileged bool
	// Caps holds, for NET_ADMIN and NET_RAW, "yes", "no" or "" (the runtime's
	// default set decides and the gather does not say which runtime);
	// Why says why one is missing ("dropped by drop: [ALL] and not added").
	Caps map[string]string
	Why  map[string]string
	// Add and Drop are the container's capability lists as written.
	Add, Drop []string
	// Ev cites the container's securityContext and the pod's user.
	Ev []Evidence
}

// netCaps are the capabilities iptables needs: NET_ADMIN to change the
// tables, NET_RAW for the raw socket it reads them through.
var netCaps = []string{"NET_ADMIN", "NET_RAW"}

// privilegeOf reads the privilege of container name in p. runtime is the
// gather's container runtime ("cri-o", "containerd", "docker", ""): CRI-O
// has left NET_RAW out of its default capabilities since 1.18, containerd
// and Docker keep it.
func (c *evalContext) privilegeOf(p *model.Pod, name, runtime string) (privilege, bool) {
	var spec *corev1.Container
	var list string
	for _, cs := range containers(p, nil) {
		if cs.Name == name && cs.Spec != nil {
			spec, list = cs.Spec, cs.list
		}
	}
	if spec == nil {
		return privilege{}, false
	}
	pr := privilege{Caps: map[string]string{}, Why: map[string]string{}}
	sc := spec.SecurityContext
	if sc == nil {
		sc = &corev1.SecurityContext{}
	}
	path := fmt.Sprintf("%s[%s].securityContext", list, name)
	if sc.RunAsUser != nil {
		pr.UID, pr.UIDKnown, pr.UIDFrom = *sc.RunAsUser, true, "its own securityContext"
	} else if psc := p.Object.Spec.SecurityContext; psc != nil && psc.RunAsUser != nil {
		pr.UID, pr.UIDKnown, pr.UIDFrom = *psc.RunAsUser, true, "the pod's spec.securityContext, which it inherits because it sets no runAsUser of its own"
		pr.Ev = append(pr.Ev, c.fieldEvidence(p, fmt.Sprintf("spec.securityContext.runAsUser: %d (pod level; %s %s sets none)", *psc.RunAsUser, list, name), "spec.securityContext.runAsUser", "spec.securityContext"))
	}
	pr.NonRoot = pr.UIDKnown && pr.UID != 0
	if !pr.UIDKnown {
		nonRoot := sc.RunAsNonRoot
		if nonRoot == nil && p.Object.Spec.SecurityContext != nil {
			nonRoot = p.Object.Spec.SecurityContext.RunAsNonRoot
		}
		pr.NonRoot = nonRoot != nil && *nonRoot
		if pr.NonRoot {
			pr.UIDFrom = "runAsNonRoot: true (the image's non-root USER)"
		}
	}
	pr.Privileged = sc.Privileged != nil && *sc.Privileged
	norm := func(cs []corev1.Capability) []string {
		var out []string
		for _, c := range cs {
			out = append(out, strings.TrimPrefix(strings.ToUpper(string(c)), "CAP_"))
		}
		return out
	}
	if sc.Capabilities != nil {
		pr.Add, pr.Drop = norm(sc.Capabilities.Add), norm(sc.Capabilities.Drop)
	}
	dropAll := slices.Contains(pr.Drop, "ALL")
	for _, capName := range netCaps {
		added := slices.Contains(pr.Add, capName) || slices.Contains(pr.Add, "ALL")
		dropped := slices.Contains(pr.Drop, capName)
		// The runtime starts from its default set (none with drop ALL),
		// adds the added ones, then removes the ones dropped by name: a
		// capability both added and dropped is dropped.
		switch {
		case pr.Privileged:
			pr.Caps[capName] = "yes"
		case dropped:
			pr.Caps[capName] = "no"
			if added {
				pr.Why[capName] = fmt.Sprintf("%s is added and dropped again (add: [%s], drop: [%s]); the drop wins", capName, strings.Join(pr.Add, ", "), strings.Join(pr.Drop, ", "))
			} else {
				pr.Why[capName] = fmt.Sprintf("drop: [%s] removes %s", strings.Join(pr.Drop, ", "), capName)
			}
		case added:
			pr.Caps[capName] = "yes"
		case dropAll:
			pr.Caps[capName] = "no"
			pr.Why[capName] = fmt.Sprintf("drop: [ALL] removes %s and add: [%s] does not bring it back", capName, strings.Join(pr.Add, ", "))
		case capName == "NET_ADMIN":
			pr.Caps[capName] = "no"
			pr.Why[capName] = "NET_ADMIN is not among a runtime's default capabilities and add: [" + strings.Join(pr.Add, ", ") + "] does not name it"
		case runtime == "cri-o":
			pr.Caps[capName] = "no"
			pr.Why[capName] = "CRI-O's default capabilities leave NET_RAW out and add: [" + strings.Join(pr.Add, ", ") + "] does not name it"
		case runtime == "containerd" || runtime == "docker":
			pr.Caps[capName] = "yes"
		}
	}
	text := fmt.Sprintf("%s %s: privileged %t, capabilities add [%s] drop [%s], runAsUser %s", list, name, pr.Privileged,
		strings.Join(pr.Add, ", "), strings.Join(pr.Drop, ", "), uidText(sc.RunAsUser))
	pr.Ev = append([]Evidence{c.fieldEvidence(p, text, path+".capabilities", path, list+"["+name+"]")}, pr.Ev...)
	return pr, true
}

// missingCaps lists the capabilities of netCaps the container surely lacks.
func (pr privilege) missingCaps() []string {
	var out []string
	for _, c := range netCaps {
		if pr.Caps[c] == "no" {
			out = append(out, c)
		}
	}
	return out
}

// capable reports whether the container surely runs as root with NET_ADMIN
// and NET_RAW effective.
func (pr privilege) capable() bool {
	return pr.UIDKnown && pr.UID == 0 && pr.Caps["NET_ADMIN"] == "yes" && pr.Caps["NET_RAW"] == "yes"
}

// joinIPTablesPrivilege runs the iptablesPrivilege join for one pod and hit
// (doc and reads: joinRegistry).
func joinIPTablesPrivilege(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	pr, ok := c.privilegeOf(p, h.Container, c.gather.ContainerRuntime)
	if !ok {
		return res
	}
	res.Evidence = pr.Ev
	kind := "Container"
	if h.Vars["ContainerKind"] != "" {
		kind = cap(h.Vars["ContainerKind"])
	}
	switch missing := pr.missingCaps(); {
	case pr.NonRoot:
		who := fmt.Sprintf("UID %d, from %s", pr.UID, pr.UIDFrom)
		if !pr.UIDKnown {
			who = pr.UIDFrom
		}
		res.Decided = true
		res.Cause = fmt.Sprintf("%s %s runs as a non-root user (%s): capabilities in its securityContext are not effective for a non-root process, so iptables cannot open the kernel's tables whatever the capability list says.", kind, h.Container, who)
		res.Fix = fmt.Sprintf("Run %s as root: set `runAsUser: 0` (and `runAsNonRoot: false`) in its own securityContext; keep a non-root user for the other containers by setting it on each of them rather than on the pod.", h.Container)
	case len(missing) > 0:
		var why []string
		for _, m := range missing {
			why = append(why, pr.Why[m])
		}
		as := "as root"
		if !pr.UIDKnown {
			as = "as the image's user"
		}
		res.Decided = true
		res.Cause = fmt.Sprintf("%s %s runs %s without %s in its effective capabilities: %s. iptables needs NET_ADMIN to change the tables and NET_RAW for the socket it reads them through, so the kernel refuses it and iptables reports \"you must be root\".", kind, h.Container, as, strings.Join(missing, " and "), strings.Join(why, "; "))
		res.Fix = fmt.Sprintf("Give %s %s: add it to securityContext.capabilities.add and make sure no drop entry names it (a drop list copied from the app container removes it again).", h.Container, strings.Join(missing, " and "))
	case pr.capable():
		res.RuledOut = true
	default:
		if !pr.UIDKnown {
			res.Missing = append(res.Missing, "the image's USER (the container sets no runAsUser), so whether it runs as root could not be read")
		} else {
			res.Missing = append(res.Missing, "the node's container runtime, so whether NET_RAW is among its default capabilities could not be read")
		}
	}
	return res
}

// joinIPTablesModule runs the iptablesModule join for one pod and hit (doc
// and reads: joinRegistry).
func joinIPTablesModule(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	explicit := len(h.Evidence) > 0 && (strings.Contains(h.Evidence[0].Text, "Table does not exist") || strings.Contains(h.Evidence[0].Text, "do you need to insmod"))
	pr, ok := c.privilegeOf(p, h.Container, c.gather.ContainerRuntime)
	if !ok {
		return res
	}
	res.Evidence = pr.Ev
	switch {
	case pr.capable():
		res.Decided = true
		res.Cause = fmt.Sprintf("%s runs as UID 0 with NET_ADMIN and NET_RAW effective, so it has the privileges iptables needs: the table is missing from the node's kernel, whose netfilter modules for it are not loaded.", h.Container)
	case explicit:
		res.Decided = true
		res.Cause = "iptables itself says the kernel has no such table, which a missing kernel module causes, not a missing privilege."
	case pr.NonRoot || len(pr.missingCaps()) > 0:
		res.RuledOut = true // the privileges explain the message (signature iptables-no-net-admin)
	}
	return res
}
