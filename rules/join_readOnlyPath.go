package rules

import (
	"fmt"

	"github.com/mgtriage/mgtriage/parser/model"
)

// joinReadOnlyPath runs the readOnlyPath join for one pod and hit (doc and
// reads: joinRegistry): the path a write was refused with "read-only file
// system" (the hit's Path value, a signature's capture) against the
// container's mounts and root filesystem.
func joinReadOnlyPath(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	denied := h.Vars["Path"]
	cs, ok := containerNamed(p, h.Container)
	if denied == "" || !ok || cs.Spec == nil {
		return res
	}
	if m := mountOf(p, cs, denied); m != nil {
		res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s %s mounts %s", cs.Kind, cs.Name, m.text()), m.field+".readOnly", m.field+".mountPath", m.field))
		if m.readOnly == "" {
			// A writable mount that refuses writes: the storage itself is
			// read-only (a file system remounted read-only after errors, a
			// read-only export), not the pod's spec.
			res.RuledOut = true
			return res
		}
		res.Decided = true
		res.Cause = fmt.Sprintf("%s lies under %s, mounted read-only (%s) in %s %s: nothing can be created or changed there, whichever user the container runs as.", denied, m.mount.MountPath, m.readOnly, cs.Kind, cs.Name)
		res.Fix = fmt.Sprintf("Mount volume %s elsewhere, or only the files it needs with subPath, so that %s stays writable; or point the program's writable directory (HOME, cache, data dir) at an emptyDir.", m.mount.Name, m.mount.MountPath)
		return res
	}
	if sc := cs.Spec.SecurityContext; sc != nil && sc.ReadOnlyRootFilesystem != nil && *sc.ReadOnlyRootFilesystem {
		field := cs.specPath() + ".securityContext.readOnlyRootFilesystem"
		res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s %s: securityContext.readOnlyRootFilesystem: true, no volume mounted at or above %s", cs.Kind, cs.Name, denied), field))
		res.Decided = true
		res.Cause = fmt.Sprintf("%s %s runs with a read-only root filesystem (securityContext.readOnlyRootFilesystem: true) and no volume is mounted at or above %s, so it cannot write there.", cap(cs.Kind), cs.Name, denied)
		res.Fix = fmt.Sprintf("Mount an emptyDir at %s (or the directory above it that the program writes to).", denied)
		return res
	}
	// Neither a read-only mount nor a read-only root filesystem: the refusal
	// comes from elsewhere (the node's storage).
	res.RuledOut = true
	return res
}
