package rules

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// joinNadIPAM runs the nadIPAM join for one pod and hit (doc and reads:
// joinRegistry).
func joinNadIPAM(c *evalContext, p *model.Pod, h *hit) joinResult {
	name, rangeIP, rangeMask := h.Vars["Network"], h.Vars["RangeIP"], h.Vars["RangeMask"]
	for _, e := range h.Evidence {
		if name != "" {
			break
		}
		// Run for a rule: the network and range from the IPAM error.
		if m := ipamFullRe.FindStringSubmatch(e.Text); m != nil {
			name, rangeIP, rangeMask = m[1], m[2], m[3]
		}
	}
	if name == "" {
		return joinResult{}
	}
	rng, hasRange := ipNetOf(rangeIP, rangeMask)
	o := c.attachmentNamed(p, name)
	if o == nil {
		return lacking(objectsGap(model.NetworkAttachmentDefinitions, ""), fmt.Sprintf("NetworkAttachmentDefinition %s, so its IPAM range and excludes could not be read", name))
	}
	nad := model.Typed[model.NetworkAttachmentDefinition](o)
	if nad == nil {
		return joinResult{Missing: []string{unreadable(o, "its IPAM range could not be read")}}
	}
	ipam, ok := nadIPAMConfig(nad.Spec.Config)
	if !ok || ipam.Range == "" {
		return joinResult{}
	}
	cfgRange, err := parseIPAMRange(ipam.Range)
	if err != nil {
		return joinResult{}
	}
	if !hasRange {
		rng = cfgRange
	}
	var whole []string
	for _, ex := range ipam.Exclude {
		pfx, err := netip.ParsePrefix(strings.TrimSpace(ex))
		if err != nil {
			continue
		}
		if pfx.Bits() <= rng.Bits() && pfx.Contains(rng.Addr()) {
			whole = append(whole, ex)
		}
	}
	ev := objectEvidence(o, fmt.Sprintf("ipam type %s, range %s, exclude %s", orDash(ipam.Type), ipam.Range, orNone(ipam.Exclude)))
	if len(whole) == 0 {
		res := lacking(objectsGap(model.WhereaboutsIPPools, ""), fmt.Sprintf("whereabouts' IPPools of range %s, so the addresses in use there could not be counted", rng))
		res.Evidence = []Evidence{ev}
		return res
	}
	res := joinResult{Decided: true, Evidence: []Evidence{ev}}
	res.Cause = fmt.Sprintf("NetworkAttachmentDefinition %s/%s gives %s the range %s and excludes %s: %s as wide as the range itself, so every address is excluded and none is left to give.",
		o.Namespace, o.Name, orDash(ipam.Type), rng, list(whole, 6), pick(len(whole) == 1, "that exclude is", "each of these is"))
	res.Fix = fmt.Sprintf("Write each exclude as the single address or the sub-range meant (a /32 for one address, not /%d) in %s/%s, or in the setting that generates it.", rng.Bits(), o.Namespace, o.Name)
	return res
}

// ipamFullRe is whereabouts' error for a full range, with the network Multus
// was adding.
var ipamFullRe = mustLitRegexp(`error adding container to network "([^"\\]{1,253})"[^\n]{0,300}?Could not allocate IP in range: [^\n]*?net\.IPNet\{IP:net\.IP\{([0-9a-fx, ]{1,200})\}, Mask:net\.IPMask\{([0-9a-fx, ]{1,200})\}\}`)

// attachmentNamed finds the NetworkAttachmentDefinition a pod's network name
// refers to: the namespace its networks annotation gives the element, else
// the pod's own, else the only namespace that holds one of that name.
func (c *evalContext) attachmentNamed(p *model.Pod, name string) *model.Object {
	ns := p.Object.Namespace
	if n, has := podNetworks(p); has && n.Err == nil {
		if e := n.element(name); e != nil && e.Namespace != "" {
			ns = e.Namespace
		}
	}
	if o, cov := c.store.Get(model.NetworkAttachmentDefinitions, ns, name); cov == model.Found {
		return o
	}
	all, _ := c.store.List(model.NetworkAttachmentDefinitions, "*")
	var found *model.Object
	for _, o := range all {
		if o.Name == name {
			if found != nil {
				return nil // in two namespaces: not ours to choose
			}
			found = o
		}
	}
	return found
}

// ipamConfig is the part of a CNI configuration's ipam section the join reads.
type ipamConfig struct {
	Type    string   `json:"type"`
	Range   string   `json:"range"`
	Exclude []string `json:"exclude"`
}

// nadIPAMConfig reads the ipam section of a CNI configuration, a single
// plugin's or the first of a plugin list that has one.
func nadIPAMConfig(config string) (ipamConfig, bool) {
	var doc struct {
		IPAM    *ipamConfig `json:"ipam"`
		Plugins []struct {
			IPAM *ipamConfig `json:"ipam"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal([]byte(config), &doc); err != nil {
		return ipamConfig{}, false
	}
	if doc.IPAM != nil {
		return *doc.IPAM, true
	}
	for _, p := range doc.Plugins {
		if p.IPAM != nil {
			return *p.IPAM, true
		}
	}
	return ipamConfig{}, false
}

// parseIPAMRange reads a whereabouts range: a CIDR, or "first-last/bits"
// (the prefix is then the CIDR of the part after the dash).
func parseIPAMRange(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "-"); i >= 0 {
		s = s[i+1:]
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return p.Masked(), nil
}

// ipNetOf reads Go's %#v of a net.IPNet's IP and mask bytes, as whereabouts
// prints them ("0xa, 0x48, 0x28, 0x0" and "0xff, 0xff, 0xfe, 0x0"), into a
// prefix.
func ipNetOf(ipText, maskText string) (netip.Prefix, bool) {
	bytesOf := func(s string) []byte {
		var out []byte
		for _, f := range strings.Split(s, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			v, err := strconv.ParseUint(f, 0, 8)
			if err != nil {
				return nil
			}
			out = append(out, byte(v))
		}
		return out
	}
	ip, mask := bytesOf(ipText), bytesOf(maskText)
	if len(ip) != len(mask) || (len(ip) != 4 && len(ip) != 16) {
		return netip.Prefix{}, false
	}
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return netip.Prefix{}, false
	}
	bits := 0
	for _, b := range mask {
		for i := 7; i >= 0; i-- {
			if b&(1<<i) == 0 {
				return netip.PrefixFrom(addr, bits).Masked(), true
			}
			bits++
		}
	}
	return netip.PrefixFrom(addr, bits).Masked(), true
}
