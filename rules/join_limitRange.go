package rules

import (
	"fmt"
	"strconv"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// limitRangeItem is one limit of a LimitRange with the object it is in.
type limitRangeItem struct {
	obj  *model.Object
	name string
	item corev1.LimitRangeItem
}

// namespaceLimits lists the limits of the LimitRanges of ns of type typ.
func (c *evalContext) namespaceLimits(ns string, typ corev1.LimitType) ([]limitRangeItem, model.Coverage) {
	objs, lrs, cov := model.ListTyped[corev1.LimitRange](c.store, model.LimitRanges, ns)
	var out []limitRangeItem
	for i, lr := range lrs {
		for _, it := range lr.Spec.Limits {
			if it.Type == typ {
				out = append(out, limitRangeItem{obj: objs[i], name: lr.Name, item: it})
			}
		}
	}
	return out, cov
}

// templateContainer returns container index of list ("containers",
// "initContainers") of the controller's pod template, or nil.
func templateContainer(o *model.Object, listName, index string) *corev1.Container {
	tpl := templateOf(o)
	i, err := strconv.Atoi(index)
	if tpl == nil || err != nil {
		return nil
	}
	cs := tpl.Spec.Containers
	if listName == "initContainers" {
		cs = tpl.Spec.InitContainers
	}
	if i < 0 || i >= len(cs) {
		return nil
	}
	return &cs[i]
}

// joinLimitRange runs the limitRange join for one controller's hit (doc and
// reads: joinRegistry). As a signature's decider it reads the message's
// Resource and either the container (List, Index) whose request is above
// its limit, or the LimitRange bound (Bound, Scope, BoundValue) it breaks.
func joinLimitRange(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	o := h.object
	if p != nil || o == nil {
		return res
	}
	ns := o.Namespace
	resName := corev1.ResourceName(h.Vars["Resource"])
	if resName == "" {
		return res
	}
	where := h.objectKind + " " + o.Name
	owner := h.Vars["Owner"]
	if owner == "" {
		owner = h.objectKind + "/" + o.Name
	}
	if bound := h.Vars["Bound"]; bound != "" {
		want, err := resource.ParseQuantity(h.Vars["BoundValue"])
		if err != nil {
			return res
		}
		items, cov := c.namespaceLimits(ns, corev1.LimitType(h.Vars["Scope"]))
		if cov == model.NotGathered {
			res.notGathered(objectsGap(model.LimitRanges, ns), "the LimitRanges of namespace "+ns+", so which one sets the "+bound+" could not be read")
			return res
		}
		for _, it := range items {
			m := it.item.Max
			if bound == "minimum" {
				m = it.item.Min
			}
			if q, ok := m[resName]; ok && q.Cmp(want) == 0 {
				res.Decided = true
				field := map[string]string{"maximum": "max", "minimum": "min"}[bound]
				res.Evidence = append(res.Evidence, objectEvidence(it.obj, fmt.Sprintf("type %s %s %s: %s", it.item.Type, field, resName, q.String())))
				side := "limit"
				if bound == "minimum" {
					side = "request"
				}
				res.Cause = fmt.Sprintf("LimitRange %s of namespace %s sets a %s of %s %s per %s (%s.%s), and the LimitRanger admission refuses every pod of %s whose %s %s is outside it.",
					it.name, ns, bound, q.String(), resName, it.item.Type, field, resName, where, side, pick(h.Vars["Actual"] != "", "("+h.Vars["Actual"]+")", "is not set"))
				res.Fix = fmt.Sprintf("Set the containers' %s %s within the LimitRange's %s %s in %s, or change LimitRange %s (`oc -n %s edit limitrange %s`).", resName, side+"s", field, q.String(), owner, it.name, ns, it.name)
				return res
			}
		}
		return res // the LimitRange changed since, or is not gathered in full
	}
	// A request above the limit the container ends up with: the LimitRange's
	// default limit when the container sets none.
	ctr := templateContainer(o, h.Vars["List"], h.Vars["Index"])
	ctrText := fmt.Sprintf("spec.%s[%s]", h.Vars["List"], h.Vars["Index"])
	if ctr != nil {
		if q, ok := ctr.Resources.Limits[resName]; ok {
			res.RuledOut = true // its own limit is below its request: no default applies
			res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("container %s limits.%s: %s", ctr.Name, resName, q.String())))
			return res
		}
		ctrText = fmt.Sprintf("container %s (%s)", ctr.Name, ctrText)
	} else if templateOf(o) == nil {
		res.notGathered(objectsGap(o.Kind, ns), fmt.Sprintf("the pod template of %s, so whether the container sets its own %s limit could not be read", where, resName))
	}
	request, err := resource.ParseQuantity(h.Vars["Requested"])
	if err != nil && ctr != nil {
		request, err = ctr.Resources.Requests[resName], nil
	}
	items, cov := c.namespaceLimits(ns, corev1.LimitTypeContainer)
	if cov == model.NotGathered || cov == model.Filtered {
		res.notGathered(objectsGap(model.LimitRanges, ns), "the LimitRanges of namespace "+ns+", so whether a default limit applies could not be checked")
		return res
	}
	for _, it := range items {
		def, ok := it.item.Default[resName]
		if !ok || err == nil && def.Cmp(request) >= 0 {
			continue
		}
		res.Decided = true
		res.Evidence = append(res.Evidence, objectEvidence(it.obj, fmt.Sprintf("type Container default %s: %s", resName, def.String())))
		if ctr != nil {
			res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("container %s requests.%s: %s, no limits.%s", ctr.Name, resName, request.String(), resName)))
		}
		res.Cause = fmt.Sprintf("LimitRange %s of namespace %s sets a default %s limit of %s, which the LimitRanger admission gives every container that sets no %s limit; %s of %s requests %s %s and sets no %s limit, so it gets the default %s, below its own request, and validation rejects every pod.",
			it.name, ns, resName, def.String(), resName, ctrText, where, request.String(), resName, resName, def.String())
		res.Fix = fmt.Sprintf("Give %s an explicit %s limit of at least %s in %s (an explicit limit replaces the default), or raise the default %s limit of LimitRange %s to at least %s (`oc -n %s edit limitrange %s`).",
			ctrText, resName, request.String(), owner, resName, it.name, request.String(), ns, it.name)
		return res
	}
	// No default explains it: the LimitRanges were gathered and none sets
	// a default limit below the request.
	res.RuledOut = true
	return res
}
