package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// joinScriptToolMissing runs the scriptToolMissing join for one pod and hit
// (doc and reads: joinRegistry).
func joinScriptToolMissing(c *evalContext, p *model.Pod, h *hit) joinResult {
	spec, field := containerSpec(p, h.Container)
	if spec == nil {
		return joinResult{}
	}
	var st *corev1.ContainerStatus
	status := ""
	for _, cs := range containers(p, nil) {
		if cs.Name == h.Container {
			st, status = cs.Status, cs.statusPath()
		}
	}
	if st == nil {
		return joinResult{}
	}
	t, exit := st.State.Terminated, status+".state.terminated.exitCode"
	if t == nil {
		t, exit = st.LastTerminationState.Terminated, status+".lastState.terminated.exitCode"
	}
	if t == nil {
		return joinResult{Missing: []string{fmt.Sprintf("a termination of container %s, so whether the missing program ended its run (exit 127) could not be checked", h.Container)}}
	}
	if t.ExitCode != 127 {
		// The shell went on after the missing program: the run ended
		// for another reason.
		return joinResult{RuledOut: true}
	}
	res := joinResult{Decided: true}
	res.Cause = fmt.Sprintf("Its last run ended with exit code 127 at %s, the shell's code for a program it could not find.", fmtTime(t.FinishedAt.Time))
	res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("container %s: terminated exitCode 127 at %s", h.Container, fmtTime(t.FinishedAt.Time)), exit))
	script := h.Vars["Script"]
	if !strings.HasPrefix(script, "/") {
		return res
	}
	for _, m := range spec.VolumeMounts {
		mp := strings.TrimSuffix(m.MountPath, "/")
		if script != mp && !strings.HasPrefix(script, mp+"/") {
			continue
		}
		src := volumeSource(p, m.Name)
		if src == "" {
			continue // an emptyDir or a claim: what wrote the script is not in the spec
		}
		res.Cause += fmt.Sprintf(" The script is not the image's own: %s mounts %s at %s%s, so it was written apart from the image and calls a program this image does not have.",
			field, src, m.MountPath, pick(m.SubPath != "", " (subPath "+m.SubPath+")", ""))
		res.Fix = fmt.Sprintf("Make the script in %s match the image (the image's own entrypoint shows what it has), or install the program it calls in the image.", src)
		res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s.volumeMounts: %s at %s from %s", field, m.Name, m.MountPath, src), field+".volumeMounts["+m.Name+"].mountPath", field+".volumeMounts["+m.Name+"]"))
		break
	}
	return res
}

// volumeSource names the ConfigMap or Secret a pod volume projects, or "".
func volumeSource(p *model.Pod, name string) string {
	for _, v := range p.Object.Spec.Volumes {
		if v.Name != name {
			continue
		}
		switch {
		case v.ConfigMap != nil:
			return "ConfigMap " + v.ConfigMap.Name
		case v.Secret != nil:
			return "Secret " + v.Secret.SecretName
		case v.Projected != nil:
			var out []string
			for _, s := range v.Projected.Sources {
				if s.ConfigMap != nil {
					out = append(out, "ConfigMap "+s.ConfigMap.Name)
				}
				if s.Secret != nil {
					out = append(out, "Secret "+s.Secret.Name)
				}
			}
			return strings.Join(out, ", ")
		case v.HostPath != nil:
			return "host path " + v.HostPath.Path
		}
	}
	return ""
}
