package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// The spec facts several joins read: the container a hit names, the user it
// runs as, and the volume mounted where a path lies, each with the field path
// that evidence cites (see model.FieldLines).

// containerNamed returns the container (app, sidecar or init) of p named
// name, and false when the pod has none.
func containerNamed(p *model.Pod, name string) (containerRef, bool) {
	for _, cs := range containers(p, nil) {
		if cs.Name == name {
			return cs, true
		}
	}
	return containerRef{}, false
}

// specPath is the field path of the container's spec: "spec.containers[app]".
func (r containerRef) specPath() string {
	return r.list + "[" + r.Name + "]"
}

// statusPath is the field path of the container's status, as
// model.FieldLines names it: "status.containerStatuses[app]",
// "status.initContainerStatuses[setup]".
func (r containerRef) statusPath() string {
	if r.list == "spec.initContainers" {
		return "status.initContainerStatuses[" + r.Name + "]"
	}
	return "status.containerStatuses[" + r.Name + "]"
}

// runAsUser is the UID the container is set to run as: its own
// securityContext.runAsUser, else the pod's; nil when neither sets one (the
// image's USER applies). field is the path of the field that sets it.
func runAsUser(p *model.Pod, cs containerRef) (uid *int64, field string) {
	if cs.Spec != nil && cs.Spec.SecurityContext != nil && cs.Spec.SecurityContext.RunAsUser != nil {
		return cs.Spec.SecurityContext.RunAsUser, cs.specPath() + ".securityContext.runAsUser"
	}
	if sc := p.Object.Spec.SecurityContext; sc != nil && sc.RunAsUser != nil {
		return sc.RunAsUser, "spec.securityContext.runAsUser"
	}
	return nil, ""
}

// runAsNonRoot is the container's runAsNonRoot (its own, else the pod's),
// nil when neither sets it, with the path of the field that sets it.
func runAsNonRoot(p *model.Pod, cs containerRef) (set *bool, field string) {
	if cs.Spec != nil && cs.Spec.SecurityContext != nil && cs.Spec.SecurityContext.RunAsNonRoot != nil {
		return cs.Spec.SecurityContext.RunAsNonRoot, cs.specPath() + ".securityContext.runAsNonRoot"
	}
	if sc := p.Object.Spec.SecurityContext; sc != nil && sc.RunAsNonRoot != nil {
		return sc.RunAsNonRoot, "spec.securityContext.runAsNonRoot"
	}
	return nil, ""
}

// pathMount is the volume mounted where a path lies.
type pathMount struct {
	mount  corev1.VolumeMount
	volume *corev1.Volume // nil when the pod declares no volume of the mount's name
	// kind names the volume's source: "ConfigMap settings", "emptyDir", ...
	kind string
	// readOnly says why nothing can be written there ("" when it can):
	// the mount's readOnly: true, or a volume type the kubelet always
	// mounts read-only.
	readOnly string
	// field is the path of the mount in the container's spec.
	field string
}

// mountOf returns the volume mount of container cs under which file path p
// lies (the deepest mountPath that is p or one of its parents), or nil.
func mountOf(pod *model.Pod, cs containerRef, p string) *pathMount {
	if cs.Spec == nil || !strings.HasPrefix(p, "/") {
		return nil
	}
	p = path.Clean(p)
	var best *corev1.VolumeMount
	for i := range cs.Spec.VolumeMounts {
		m := &cs.Spec.VolumeMounts[i]
		mp := path.Clean(m.MountPath)
		if (p == mp || strings.HasPrefix(p, strings.TrimSuffix(mp, "/")+"/")) && (best == nil || len(mp) > len(path.Clean(best.MountPath))) {
			best = m
		}
	}
	if best == nil {
		return nil
	}
	pm := &pathMount{mount: *best, kind: "volume", field: cs.specPath() + ".volumeMounts[" + best.Name + "]"}
	for i := range pod.Object.Spec.Volumes {
		if v := &pod.Object.Spec.Volumes[i]; v.Name == best.Name {
			pm.volume = v
		}
	}
	always := ""
	if v := pm.volume; v != nil {
		switch {
		case v.ConfigMap != nil:
			pm.kind, always = "ConfigMap "+v.ConfigMap.Name, "ConfigMap"
		case v.Secret != nil:
			pm.kind, always = "Secret "+v.Secret.SecretName, "Secret"
		case v.Projected != nil:
			pm.kind, always = "projected", "projected"
		case v.DownwardAPI != nil:
			pm.kind, always = "downwardAPI", "downwardAPI"
		case v.EmptyDir != nil:
			pm.kind = "emptyDir"
		case v.PersistentVolumeClaim != nil:
			pm.kind = "PersistentVolumeClaim " + v.PersistentVolumeClaim.ClaimName
			if v.PersistentVolumeClaim.ReadOnly {
				pm.readOnly = "its persistentVolumeClaim source sets readOnly: true"
			}
		case v.HostPath != nil:
			pm.kind = "hostPath " + v.HostPath.Path
		}
	}
	switch {
	case best.ReadOnly:
		pm.readOnly = "readOnly: true"
	case always != "":
		pm.readOnly = fmt.Sprintf("%s volumes are always mounted read-only", always)
	}
	return pm
}

// text describes where a path lies: "/root (volume settings, ConfigMap
// console-settings, readOnly: true)".
func (m *pathMount) text() string {
	s := fmt.Sprintf("%s (volume %s, %s", m.mount.MountPath, m.mount.Name, m.kind)
	if m.readOnly != "" {
		s += ", " + m.readOnly
	}
	return s + ")"
}
