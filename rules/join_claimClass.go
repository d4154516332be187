package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// Annotations that mark a StorageClass as the default one.
const (
	defaultClassAnnotation     = "storageclass.kubernetes.io/is-default-class"
	betaDefaultClassAnnotation = "storageclass.beta.kubernetes.io/is-default-class"
)

// isDefaultClass reports whether the StorageClass is marked default.
func isDefaultClass(sc *storagev1.StorageClass) bool {
	return sc.Annotations[defaultClassAnnotation] == "true" || sc.Annotations[betaDefaultClassAnnotation] == "true"
}

// claimEvents returns the warning events of a claim, oldest first.
func (c *evalContext) claimEvents(ns, claim string) []*model.Event {
	var out []*model.Event
	for _, e := range c.gather.EventsOf("PersistentVolumeClaim", ns, claim) {
		if e.Object.Type != corev1.EventTypeNormal {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].When().Before(out[j].When()) })
	return out
}

func claimEventEvidence(claim string, e *model.Event) Evidence {
	return Evidence{Source: eventSource(e), Kind: EvidenceEvent, Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(),
		Text: fmt.Sprintf("%s %s on PersistentVolumeClaim %s: %s", eventType(e), e.Object.Reason, claim, strings.TrimSpace(e.Object.Message))}
}

var (
	missingClassRe   = mustLitRegexp(`storageclass(?:\.storage\.k8s\.io)? "([^"]{1,253})" not found`)
	provisionClassRe = mustLitRegexp(`failed to provision volume with StorageClass "([^"]{1,253})"`)
)

// provisioningFailed decides a claim whose provisioner reports
// ProvisioningFailed: its own words are the cause.
func (c *evalContext) provisioningFailed(res joinResult, claim, class string, pvcObj *model.Object, pvc *corev1.PersistentVolumeClaim, failed *model.Event) joinResult {
	provisioner := ""
	if pvc != nil {
		provisioner = pvc.Annotations["volume.kubernetes.io/storage-provisioner"]
	}
	if class != "" {
		if o, _ := c.store.Get(model.StorageClasses, "", class); o != nil {
			if sc := model.Typed[storagev1.StorageClass](o); sc != nil {
				provisioner = sc.Provisioner
				res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("provisioner %s%s", sc.Provisioner, pick(isDefaultClass(sc), ", marked default", ""))))
			}
		}
	}
	res.Evidence = append([]Evidence{claimEventEvidence(claim, failed)}, res.Evidence...)
	if pvc != nil {
		res.Evidence = append(res.Evidence, objectEvidence(pvcObj, fmt.Sprintf("storageClassName: %s, phase %s", orDash(class), pvc.Status.Phase)))
	}
	res.Decided = true
	msg, _, _ := strings.Cut(strings.TrimSpace(failed.Object.Message), "\n")
	with := ""
	if class != "" {
		with = " has StorageClass " + class + ", and"
	}
	res.Cause = fmt.Sprintf("PersistentVolumeClaim %s%s %s fails to provision its volume (ProvisioningFailed, %s): \"%s\". The claim stays Pending until the provisioner can create the volume.",
		claim, with, pick(provisioner != "", "its provisioner "+provisioner, "its provisioner"), countOf(max(int(failed.Count()), 1), "time", "times"), clip(msg, 400))
	res.Fix = fmt.Sprintf("Fix what the provisioner%s reports (credentials and permissions of its controller, quota or parameters of the StorageClass%s), then let it retry; read its controller's log for the claim.", pick(provisioner != "", " "+provisioner, ""), pick(class != "", " "+class, ""))
	return res
}

// joinClaimClass runs the claimClass join for one pod and hit (doc and reads:
// joinRegistry).
func joinClaimClass(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	ns := p.Object.Namespace
	var classes []*storagev1.StorageClass
	var classObjs []*model.Object
	classCov := model.NotGathered
	classesRead := false
	readClasses := func() {
		if !classesRead {
			classObjs, classes, classCov = model.ListTyped[storagev1.StorageClass](c.store, model.StorageClasses, "")
			classesRead = true
		}
	}
	owner := "the claim"
	if o := h.Vars["Owner"]; strings.HasPrefix(o, "StatefulSet/") {
		owner = "the claim template of " + o + " (and the claim)"
	}
	for _, v := range p.Object.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		claim := v.PersistentVolumeClaim.ClaimName
		pvcObj, cov := c.store.Get(model.PersistentVolumeClaims, ns, claim)
		pvc := model.Typed[corev1.PersistentVolumeClaim](pvcObj)
		if pvc != nil && pvc.Status.Phase == corev1.ClaimBound {
			continue
		}
		events := c.claimEvents(ns, claim)
		// The claim's class: its spec, else what the claim's events say.
		class, classKnown := "", false
		if pvc != nil {
			if pvc.Spec.StorageClassName != nil {
				class = *pvc.Spec.StorageClassName
			}
			classKnown = true
		}
		var failed *model.Event
		missingFromEvent := false
		for _, e := range events {
			switch {
			case e.Object.Reason == "ProvisioningFailed":
				failed = e
			case !classKnown && strings.Contains(e.Object.Message, "no storage class is set"):
				classKnown = true
			}
		}
		if failed != nil {
			if m := missingClassRe.FindStringSubmatch(failed.Object.Message); m != nil {
				// The class the claim names does not exist.
				class, classKnown, missingFromEvent = m[1], true, true
			} else {
				if m := provisionClassRe.FindStringSubmatch(failed.Object.Message); m != nil && class == "" {
					class = m[1]
				}
				return c.provisioningFailed(res, claim, class, pvcObj, pvc, failed)
			}
		}
		if !classKnown {
			if cov == model.NotGathered {
				res.notGathered(objectsGap(model.PersistentVolumeClaims, ns), fmt.Sprintf("PersistentVolumeClaim %s/%s, so its StorageClass could not be read", ns, claim))
			}
			continue
		}
		explicitNone := pvc != nil && pvc.Spec.StorageClassName != nil && *pvc.Spec.StorageClassName == ""
		readClasses()
		if classCov == model.NotGathered && !missingFromEvent && !explicitNone {
			res.notGathered(objectsGap(model.StorageClasses, ""), "StorageClasses, so the class of PersistentVolumeClaim "+claim+" could not be checked")
			continue
		}
		var names, defaults []string
		found := false
		for i, sc := range classes {
			names = append(names, sc.Name)
			if isDefaultClass(sc) {
				defaults = append(defaults, sc.Name)
			}
			if class != "" && sc.Name == class {
				found = true
				res.Evidence = append(res.Evidence, objectEvidence(classObjs[i], "provisioner "+sc.Provisioner))
			}
		}
		switch {
		case explicitNone:
			// storageClassName: "" asks for no class at all: no default
			// is filled in, only a PersistentVolume without a class binds.
			res.Decided = true
			res.Evidence = append(res.Evidence, objectEvidence(pvcObj, "empty storageClassName, phase "+string(pvc.Status.Phase)))
			res.Cause = fmt.Sprintf("PersistentVolumeClaim %s sets an empty storageClassName (explicitly no class), so no StorageClass, not even a default one, provisions it: it binds only to a pre-created PersistentVolume without a class that matches its size and access modes, and none does.", claim)
			res.Fix = fmt.Sprintf("Create a matching PersistentVolume without a class, or set storageClassName to a class%s in %s (delete and recreate the claim).", pick(len(names) > 0, " ("+list(names, 4)+")", ""), owner)
			return res
		case class == "" && len(defaults) == 0:
			res.Decided = true
			if pvc != nil {
				res.Evidence = append(res.Evidence, objectEvidence(pvcObj, "no storageClassName, phase "+string(pvc.Status.Phase)))
			}
			for i, sc := range classes {
				res.Evidence = append(res.Evidence, objectEvidence(classObjs[i], fmt.Sprintf("provisioner %s, not marked default (no %s: \"true\")", sc.Provisioner, defaultClassAnnotation)))
			}
			for _, e := range events {
				res.Evidence = append(res.Evidence, claimEventEvidence(claim, e))
			}
			have := "the cluster has no StorageClass at all"
			if len(names) > 0 {
				have = fmt.Sprintf("the cluster's StorageClasses (%s) are none marked default", list(names, 6))
			}
			res.Cause = fmt.Sprintf("PersistentVolumeClaim %s sets no storageClassName and there is no default StorageClass (annotation %s: \"true\"): %s. So the claim gets no class, no provisioner is ever asked for a volume, and it waits for a matching PersistentVolume that nobody creates.",
				claim, defaultClassAnnotation, have)
			if len(names) > 0 {
				res.Fix = fmt.Sprintf("Set storageClassName (for example %s) in %s, or mark one class default: `oc patch storageclass %s -p '{\"metadata\":{\"annotations\":{\"%s\":\"true\"}}}'`; from Kubernetes 1.26 a claim with no storageClassName is given the new default class, while older releases keep it unset (delete and recreate the claim there).", names[0], owner, names[0], defaultClassAnnotation)
			} else {
				res.Fix = fmt.Sprintf("Install a provisioner with a StorageClass marked default (annotation %s: \"true\"), or set storageClassName to an existing class in %s, or create PersistentVolumes for the claims; from Kubernetes 1.26 a claim with no storageClassName is given the new default class, while older releases keep it unset (delete and recreate the claim there).", defaultClassAnnotation, owner)
			}
			return res
		case class != "" && !found && (missingFromEvent || classCov == model.Absent || classCov == model.Found):
			res.Decided = true
			if pvc != nil {
				res.Evidence = append(res.Evidence, objectEvidence(pvcObj, "storageClassName: "+class))
			}
			have := "the cluster's classes: " + orNone(names)
			if classCov == model.NotGathered || classCov == model.Filtered {
				have = "the persistentvolume-controller reports it not found"
			}
			res.Cause = fmt.Sprintf("PersistentVolumeClaim %s names StorageClass %s, which does not exist (%s), so nothing provisions it.", claim, class, have)
			res.Fix = fmt.Sprintf("Create StorageClass %s, or set an existing class in %s (a claim's class cannot be changed: delete and recreate it).", class, owner)
			return res
		}
	}
	return res
}
