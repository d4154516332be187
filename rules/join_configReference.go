package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

var (
	missingObjRe = mustLitRegexp(`(configmaps?|secrets?) "([^"]{1,253})" not found`)
	missingKeyRe = mustLitRegexp(`couldn't find key ([^\s";,]{1,253}) in (ConfigMap|Secret) ([^/\s]{1,253})/([^\s";,]{1,253})`)
)

// joinConfigReference runs the configReference join for one pod and hit (doc and reads: joinRegistry).
func joinConfigReference(c *evalContext, p *model.Pod, h *hit) joinResult {
	texts := []string{h.Vars["Message"]}
	for _, e := range p.Events {
		if e.Object.Type != corev1.EventTypeNormal {
			texts = append(texts, e.Object.Message)
		}
	}
	ns := p.Object.Namespace
	for _, t := range texts {
		if m := missingKeyRe.FindStringSubmatch(t); m != nil {
			return c.missingKey(m[1], m[2], m[3], m[4])
		}
		if m := missingObjRe.FindStringSubmatch(t); m != nil {
			kind := model.ConfigMaps
			word := "ConfigMap"
			if strings.HasPrefix(m[1], "secret") {
				kind, word = model.Secrets, "Secret"
			}
			return c.missingObject(kind, word, ns, m[2])
		}
	}
	return joinResult{}
}

func (c *evalContext) missingObject(kind model.Kind, word, ns, name string) joinResult {
	var res joinResult
	o, cov := c.store.Get(kind, ns, name)
	switch cov {
	case model.Found:
		res.Evidence = append(res.Evidence, objectEvidence(o, "exists in the gather"))
		res.Cause = fmt.Sprintf("%s %s exists in the gather: it was created after the kubelet's last attempt, or the pod is pending a restart.", word, name)
		return res
	case model.NotGathered, model.Filtered:
		res.notGathered(objectsGap(kind, ns), fmt.Sprintf("the %ss of namespace %s, so whether %s exists, or exists under another name, could not be checked", word, ns, name))
		return res
	}
	all, _ := c.store.List(kind, ns)
	var names []string
	for _, other := range all {
		names = append(names, other.Name)
		if contains(other.Keys, name) {
			res.Decided = true
			res.Cause = fmt.Sprintf("%s %s does not exist, but %s %s in namespace %s has a data key named %s: the reference puts the key where the %s name belongs (name/key mix-up).", word, name, word, other.Name, ns, name, word)
			res.Fix = fmt.Sprintf("Reference name: %s with key: %s (configMapKeyRef/secretKeyRef), or use envFrom or a volume of %s %s.", other.Name, name, word, other.Name)
			res.Evidence = append(res.Evidence, objectEvidence(other, fmt.Sprintf("keys %s", list(other.Keys, 8))))
			return res
		}
	}
	if near := model.NearestName(name, names); near != "" {
		o, _ := c.store.Get(kind, ns, near)
		res.Decided = true
		res.Cause = fmt.Sprintf("%s %s does not exist in namespace %s; %s %s does (a misspelt or renamed reference?).", word, name, ns, word, near)
		res.Fix = fmt.Sprintf("Point the reference at %s %s, or create %s %s.", word, near, word, name)
		res.Evidence = append(res.Evidence, objectEvidence(o, "the nearest existing name"))
		return res
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("%s %s does not exist in namespace %s: the gathered list holds %s and no similar name or key.", word, name, ns, countOf(len(names), strings.ToLower(word), strings.ToLower(word)+"s"))
	res.Fix = fmt.Sprintf("Create %s %s in %s (or remove the reference, or mark it optional).", word, name, ns)
	return res
}

func (c *evalContext) missingKey(key, word, ns, name string) joinResult {
	kind := model.ConfigMaps
	if word == "Secret" {
		kind = model.Secrets
	}
	var res joinResult
	o, cov := c.store.Get(kind, ns, name)
	switch cov {
	case model.Found:
	case model.Absent:
		return c.missingObject(kind, word, ns, name)
	default:
		res.notGathered(objectsGap(kind, ns), fmt.Sprintf("%s %s/%s, so its keys could not be listed", word, ns, name))
		return res
	}
	res.Evidence = append(res.Evidence, objectEvidence(o, "keys "+list(o.Keys, 8)))
	if contains(o.Keys, key) {
		res.Cause = fmt.Sprintf("%s %s now has key %s: it was added after the kubelet's last attempt.", word, name, key)
		return res
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("%s %s exists but has no key %s; its keys are %s.", word, name, key, list(o.Keys, 8))
	res.Fix = fmt.Sprintf("Reference one of the keys of %s %s, or add key %s to it.", word, name, key)
	if near := model.NearestName(key, o.Keys); near != "" {
		res.Cause += fmt.Sprintf(" The reference probably means %s.", near)
		res.Fix = fmt.Sprintf("Change the key to %s (or add key %s to %s %s).", near, key, word, name)
	}
	return res
}
