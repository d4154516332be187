package sosreport

// Node objects from the text the kubernetes and openshift plugins of a
// sosreport print: `kubectl get nodes` / `oc get nodes` tables (NAME STATUS
// ROLES AGE VERSION, and with -o wide INTERNAL-IP EXTERNAL-IP OS-IMAGE
// KERNEL-VERSION CONTAINER-RUNTIME) and `kubectl describe node NAME` /
// `oc describe nodes NAME` output. Both are printed by kubectl's printers, so
// one parser serves both plugins. The parsers are pure functions over the
// bytes of one file; JSON and YAML node lists are read by the load as any
// gather's, and win over these (Reader.Nodes).

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Bounds of what one node text file may contribute.
const (
	maxNodeRows        = 20_000 // rows of one get-nodes table: as many as the table reader reads (crictlRows), which says when it stops
	maxNodeDescribe    = 10_000 // describe files kept per sosreport
	maxNodeLabels      = 256    // labels, annotations or taints of one node
	maxNodeValueBytes  = 4 << 10
	maxDescribeLines   = 20_000
	roleLabelPrefix    = "node-role.kubernetes.io/"
	describeTimeLayout = time.RFC1123Z // "Fri, 11 Feb 2022 19:16:49 +0000"
)

// ParseNodeTable reads `kubectl get nodes` or `oc get nodes` output, plain or
// -o wide, into Node objects: the Ready condition from STATUS (Ready → True,
// NotReady → False, Unknown → Unknown; SchedulingDisabled sets
// spec.unschedulable), role labels from ROLES, the kubelet version from
// VERSION, and with -o wide the addresses, OS image, kernel and runtime.
// AGE is taken back from now (the sosreport's date; zero: no creation
// time). Each node's Source is path and the row's line. A file without the
// NAME, STATUS and VERSION headers is an error.
func ParseNodeTable(data []byte, path string, now time.Time) ([]model.Node, error) {
	var out []model.Node
	err := crictlRows(data, []string{"NAME", "STATUS", "VERSION"}, func(line int, c map[string]string) {
		name := validName(c["NAME"])
		if name == "" || len(out) >= maxNodeRows {
			return
		}
		n := model.Node{Source: model.Source{Path: path, Line: line}}
		o := &n.Object
		o.Name = name
		for i, word := range strings.Split(c["STATUS"], ",") {
			switch {
			case i == 0:
				st := map[string]corev1.ConditionStatus{"Ready": corev1.ConditionTrue, "NotReady": corev1.ConditionFalse, "Unknown": corev1.ConditionUnknown}[word]
				if st != "" {
					o.Status.Conditions = append(o.Status.Conditions, corev1.NodeCondition{Type: corev1.NodeReady, Status: st})
				}
			case word == "SchedulingDisabled":
				o.Spec.Unschedulable = true
			}
		}
		if roles := c["ROLES"]; roles != "" && roles != "<none>" {
			for _, r := range strings.Split(roles, ",") {
				if r = strings.TrimSpace(r); r != "" && len(o.Labels) < maxNodeLabels {
					setMap(&o.Labels, roleLabelPrefix+r, "")
				}
			}
		}
		if d, ok := parseKubectlAge(c["AGE"]); ok && !now.IsZero() {
			o.CreationTimestamp = metav1.NewTime(now.Add(-d).UTC())
		}
		info := &o.Status.NodeInfo
		info.KubeletVersion = cell(c["VERSION"])
		info.OSImage = cell(c["OS-IMAGE"])
		info.KernelVersion = cell(c["KERNEL-VERSION"])
		info.ContainerRuntimeVersion = cell(c["CONTAINER-RUNTIME"])
		for _, a := range []struct {
			col string
			typ corev1.NodeAddressType
		}{{"INTERNAL-IP", corev1.NodeInternalIP}, {"EXTERNAL-IP", corev1.NodeExternalIP}} {
			if v := cell(c[a.col]); v != "" {
				o.Status.Addresses = append(o.Status.Addresses, corev1.NodeAddress{Type: a.typ, Address: v})
			}
		}
		out = append(out, n)
	})
	return out, err
}

// cell returns a table cell, "" for kubectl's "<none>" and "<unknown>".
func cell(s string) string {
	if s == "<none>" || s == "<unknown>" || len(s) > maxNodeValueBytes {
		return ""
	}
	return s
}

// validName returns s when it can be a node name (a DNS subdomain: at most
// 253 bytes of lower-case letters, digits, '-' and '.'; upper case is
// accepted), else "".
func validName(s string) string {
	if s == "" || len(s) > 253 {
		return ""
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return ""
		}
	}
	return s
}

func setMap(m *map[string]string, k, v string) {
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[k] = v
}

// kubectlAgeRe matches kubectl's HumanDuration: "10s", "6m31s", "3h4m",
// "45d", "2y45d".
var kubectlAgeRe = regexp.MustCompile(`^(?:(\d{1,4})y)?(?:(\d{1,5})d)?(?:(\d{1,5})h)?(?:(\d{1,5})m)?(?:(\d{1,5})s)?$`)

// parseKubectlAge reads the AGE column of a kubectl table (HumanDuration:
// "6m31s", "3h4m", "45d", "2y45d"; a year is 365 days). The result is the
// lower bound of what the text covers; false for "<unknown>" and anything
// else.
func parseKubectlAge(s string) (time.Duration, bool) {
	m := kubectlAgeRe.FindStringSubmatch(s)
	if s == "" || m == nil {
		return 0, false
	}
	// An age of more than 200 years is no node's (and would overflow a
	// Duration): not an age.
	const maxAge = 200 * 365 * 24 * time.Hour
	var d time.Duration
	for i, unit := range []time.Duration{365 * 24 * time.Hour, 24 * time.Hour, time.Hour, time.Minute, time.Second} {
		if m[i+1] == "" {
			continue
		}
		n := 0
		fmt.Sscan(m[i+1], &n)
		if n < 0 || time.Duration(n) > maxAge/unit {
			return 0, false
		}
		d += time.Duration(n) * unit
	}
	if d > maxAge {
		return 0, false
	}
	return d, true
}

// ParseNodeDescribe reads `kubectl describe node NAME` (or `oc describe
// nodes NAME`) output into a Node: name, labels (roles with them),
// annotations, creation time, taints, unschedulable, conditions with their
// heartbeat and transition times, reasons and messages, addresses, capacity
// and allocatable, provider ID, pod CIDRs and the System Info block into
// status.nodeInfo (machine ID, system UUID, boot ID, kernel, OS image,
// operating system, architecture, container runtime, kubelet and kube-proxy
// versions). The Source is path, line of the "Name:" field. Sections it does
// not read (Lease, Non-terminated Pods, Allocated resources, Events) are
// skipped; an error says the file holds no "Name:" field.
func ParseNodeDescribe(data []byte, path string) (model.Node, error) {
	n := model.Node{Source: model.Source{Path: path}}
	o := &n.Object
	var roles []string
	section := ""
	var condCols []string
	rest := nodelog.Text(data)
	for ln := 1; rest != "" && ln <= maxDescribeLines; ln++ {
		var raw string
		raw, rest, _ = strings.Cut(rest, "\n")
		line := strings.TrimRight(raw, "\r ")
		if strings.TrimSpace(line) == "" {
			continue
		}
		value := ""
		if line[0] != ' ' && line[0] != '\t' {
			key, v, ok := strings.Cut(line, ":")
			if !ok {
				section = ""
				continue
			}
			if o.Name != "" && key == "Name" {
				break // a second node in one file: only the first is read
			}
			section, value = key, strings.TrimSpace(v)
			switch key {
			case "Name":
				o.Name = validName(value)
				n.Source.Line = ln
				continue
			case "Roles":
				if value != "<none>" {
					roles = strings.Split(value, ",")
				}
				continue
			case "CreationTimestamp":
				if t, err := time.Parse(describeTimeLayout, value); err == nil {
					o.CreationTimestamp = metav1.NewTime(t.UTC())
				}
				continue
			case "Unschedulable":
				o.Spec.Unschedulable = value == "true"
				continue
			case "ProviderID":
				o.Spec.ProviderID = cell(value)
				continue
			case "PodCIDR":
				o.Spec.PodCIDR = cell(value)
				continue
			case "PodCIDRs":
				for _, c := range strings.Split(value, ",") {
					if c = cell(strings.TrimSpace(c)); c != "" {
						o.Spec.PodCIDRs = append(o.Spec.PodCIDRs, c)
					}
				}
				continue
			}
			if value == "" {
				continue
			}
		} else {
			value = strings.TrimSpace(line)
		}
		describeValue(o, section, value, &condCols)
	}
	if o.Name == "" {
		return n, fmt.Errorf("no node name (a \"Name:\" field) in describe output")
	}
	for _, r := range roles {
		if r = strings.TrimSpace(r); r != "" && len(o.Labels) < maxNodeLabels {
			if _, ok := o.Labels[roleLabelPrefix+r]; !ok {
				setMap(&o.Labels, roleLabelPrefix+r, "")
			}
		}
	}
	return n, nil
}

// describeValue reads one value line of a section of describe output (the
// value on the key's own line, or an indented line after it).
func describeValue(o *corev1.Node, section, value string, condCols *[]string) {
	if value == "<none>" || len(value) > maxNodeValueBytes {
		return
	}
	switch section {
	case "Labels":
		if k, v, ok := strings.Cut(value, "="); ok && len(o.Labels) < maxNodeLabels {
			setMap(&o.Labels, k, v)
		}
	case "Annotations":
		if k, v, ok := strings.Cut(value, ": "); ok && !strings.Contains(k, " ") && len(o.Annotations) < maxNodeLabels {
			setMap(&o.Annotations, k, v)
		}
	case "Taints":
		if t, ok := parseTaint(value); ok && len(o.Spec.Taints) < maxNodeLabels {
			o.Spec.Taints = append(o.Spec.Taints, t)
		}
	case "Conditions":
		cells := splitWide(value, 6)
		if len(cells) > 0 && cells[0] == "Type" {
			*condCols = cells
			return
		}
		if len(cells) == 0 || strings.HasPrefix(cells[0], "----") || len(o.Status.Conditions) >= 64 {
			return
		}
		cols := *condCols
		if cols == nil {
			cols = []string{"Type", "Status", "LastHeartbeatTime", "LastTransitionTime", "Reason", "Message"}
		}
		var c corev1.NodeCondition
		for i, v := range cells {
			if i >= len(cols) {
				break
			}
			switch cols[i] {
			case "Type":
				c.Type = corev1.NodeConditionType(v)
			case "Status":
				c.Status = corev1.ConditionStatus(v)
			case "LastHeartbeatTime":
				c.LastHeartbeatTime = describeTime(v)
			case "LastTransitionTime":
				c.LastTransitionTime = describeTime(v)
			case "Reason":
				c.Reason = v
			case "Message":
				c.Message = v
			}
		}
		if c.Type != "" && c.Status != "" {
			o.Status.Conditions = append(o.Status.Conditions, c)
		}
	case "Addresses":
		if k, v, ok := strings.Cut(value, ":"); ok && len(o.Status.Addresses) < 64 {
			if v = strings.TrimSpace(v); v != "" {
				o.Status.Addresses = append(o.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeAddressType(k), Address: v})
			}
		}
	case "Capacity", "Allocatable":
		k, v, ok := strings.Cut(value, ":")
		q, err := resource.ParseQuantity(strings.TrimSpace(v))
		if !ok || err != nil {
			return
		}
		list := &o.Status.Capacity
		if section == "Allocatable" {
			list = &o.Status.Allocatable
		}
		if *list == nil {
			*list = corev1.ResourceList{}
		}
		if len(*list) < 64 {
			(*list)[corev1.ResourceName(k)] = q
		}
	case "System Info":
		k, v, ok := strings.Cut(value, ":")
		if !ok {
			return
		}
		v = strings.TrimSpace(v)
		info := &o.Status.NodeInfo
		if f := map[string]*string{
			"Machine ID": &info.MachineID, "System UUID": &info.SystemUUID, "Boot ID": &info.BootID,
			"Kernel Version": &info.KernelVersion, "OS Image": &info.OSImage, "Operating System": &info.OperatingSystem,
			"Architecture": &info.Architecture, "Container Runtime Version": &info.ContainerRuntimeVersion,
			"Kubelet Version": &info.KubeletVersion,
		}[k]; f != nil {
			*f = v
		}
	}
}

// describeTime reads a time of describe output (RFC 1123 with a numeric
// zone); zero when it is not one.
func describeTime(s string) metav1.Time {
	t, err := time.Parse(describeTimeLayout, s)
	if err != nil {
		return metav1.Time{}
	}
	return metav1.NewTime(t.UTC())
}

// parseTaint reads "key=value:Effect" or "key:Effect".
func parseTaint(s string) (corev1.Taint, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 1 {
		return corev1.Taint{}, false
	}
	effect := corev1.TaintEffect(s[i+1:])
	switch effect {
	case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
	default:
		return corev1.Taint{}, false
	}
	k, v, _ := strings.Cut(s[:i], "=")
	return corev1.Taint{Key: k, Value: v, Effect: effect}, true
}

// splitWide splits a line of a describe table into at most n cells at runs
// of two or more spaces (cells such as times and messages hold single
// spaces); the last cell keeps the rest of the line.
func splitWide(s string, n int) []string {
	var out []string
	s = strings.TrimSpace(s)
	for s != "" {
		if len(out) == n-1 {
			out = append(out, s)
			break
		}
		i := strings.Index(s, "  ")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		s = strings.TrimLeft(s[i:], " ")
	}
	return out
}
