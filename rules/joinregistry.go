package rules

import (
	"sort"
	"strings"
	"sync"

	"github.com/mgtriage/mgtriage/parser/model"
)

// A join follows the edges from a finding's pod to the second objects that
// decide its cause (the nodes and their taints, the claim's other users, the
// ConfigMaps that do exist, ...). Its result says whether the evidence decides
// the cause, states that cause with the deciding object and value, cites
// every object it read, and names what it could not check because the gather
// lacks it. Rules choose joins by name (Rule.Joins) and may require one to
// decide (Rule.Require).
type join struct {
	// name is what a rule's joins: list names it by.
	name string
	doc  string
	// reads are the kinds the join needs decoded by the parser.
	reads []model.Kind
	// fills are the template values the join contributes to; applyJoins
	// sets them from every join of the rule (joinValues).
	fills []string
	// workloads is true when the join also runs on a controller's hit
	// (FailedCreate: no pod exists): run gets a nil pod and h.object is the
	// controller.
	workloads bool
	// nodes is true for a join that also decides a node's signature: run
	// then gets p nil and the node's name in h.Vars["Node"].
	nodes bool
	run   func(c *evalContext, p *model.Pod, h *hit) joinResult
}

// joinResult is what a join concluded for one pod (and container).
type joinResult struct {
	// Decided is true when the joined objects prove one cause.
	Decided bool
	// RuledOut is true when, run as a signature's decider, the joined
	// objects rule the signature's cause out (the container has the
	// capability it names, the binding it says is missing exists).
	RuledOut bool
	// Quote, set by a signature's decider, is the part of the deciding
	// line that says the cause when the line is long (the one line of a
	// termination message that names the failure); the finding quotes it
	// instead of the line shortened around the match.
	Quote string
	// QuoteAt is where Quote stands, when the decider knows a finer line
	// than the deciding line's (the file line of a folded message where the
	// quoted line begins); the finding cites it instead.
	QuoteAt model.Source
	// Cause states it, with the deciding objects and values; Fix is the
	// change that removes it. Both are empty when nothing decides.
	Cause, Fix string
	Evidence   []Evidence
	// Missing names the objects the join needed and the gather lacks;
	// Gaps says, for those not gathered, what collects them.
	Missing []string
	Gaps    []model.Gap
}

// joinRegistry lists every join a rule may name, in the order the rule
// reference prints them. It is the one place a join is registered: its code
// lives in join_<name>.go.
func joinRegistry() []join {
	return []join{
		{
			name:  "nodeEligibility",
			doc:   "pod → every gathered Node: nodeSelector and required node affinity, untolerated NoSchedule/NoExecute taints, cordoned nodes. Decides when every node the pod selects is ruled out by a taint or by being cordoned, or when no gathered node matches its selector.",
			reads: nil,
			fills: joinValues(),
			run:   joinNodeEligibility,
		},
		{
			name:  "podCapacity",
			doc:   "pod → the nodes it may use → pods on each node against allocatable pods → the node's MachineConfigPool → KubeletConfigs setting podsPerCore or maxPods. Decides when those nodes are full at a pod limit below the default and names the KubeletConfig that sets it.",
			reads: []model.Kind{model.MachineConfigPools, model.KubeletConfigs},
			fills: joinValues(),
			run:   joinPodCapacity,
		},
		{
			name:  "configReference",
			doc:   "missing ConfigMap/Secret or key named in the container's waiting message or a FailedMount event → the namespace's ConfigMaps/Secrets (key names only). Decides when the name is a key of an existing object, is close to an existing name, or is proven absent from a gathered list.",
			reads: nil,
			fills: joinValues(),
			run:   joinConfigReference,
		},
		{
			name:  "claimUsers",
			doc:   "pod → its PersistentVolumeClaims (access modes) → the other pods using each claim and their nodes. Decides when another running pod on another node uses a claim of the pod.",
			reads: []model.Kind{model.PersistentVolumeClaims},
			fills: joinValues(),
			run:   joinClaimUsers,
		},
		{
			name:  "csiNodePlugin",
			doc:   "CSI driver \"not found in the list of registered CSI drivers\" on the pod's node → CSINodes (where the driver is registered) → the driver's node-plugin DaemonSet → its tolerations and node selector against the node. Decides when the DaemonSet cannot run on the node.",
			reads: []model.Kind{model.CSINodes, model.DaemonSets},
			fills: joinValues(),
			run:   joinCSINodePlugin,
		},
		{
			name:  "nodeOOM",
			doc:   "container killed with exit 137 without OOMKilled → SystemOOM events of its node and kubelet \"sys oom\" lines at the time of the kill → memory limits of the node's pods against its allocatable memory. Decides when a node-level OOM coincides with the kill.",
			reads: nil,
			fills: joinValues(),
			run:   joinNodeOOM,
		},
		{
			name:  "dnsEgress",
			doc:   "DNS lookups timing out in the container log → the DNS Service by its cluster IP → the port its pods really listen on (targetPort through Endpoints or the DNS pods) → the NetworkPolicies selecting the pod. Decides when Egress policies select the pod and none allows that port to the DNS pods.",
			reads: []model.Kind{model.Services, model.Endpoints, model.NetworkPolicies},
			fills: joinValues(),
			run:   joinDNSEgress,
		},
		{
			name:  "serviceEndpoints",
			doc:   "a connection refused (or no route / timeout) in the container log → the Service it dialled, by cluster IP or DNS name → its Endpoints and the pods its selector matches. Decides when the Service has no ready endpoint, naming the selector and the pods it selects.",
			reads: []model.Kind{model.Services, model.Endpoints},
			fills: joinValues(),
			run:   joinServiceEndpoints,
		},
		{
			name:  "nodeDown",
			doc:   "pod → its node: the Node's Ready condition, the node-level kubelet journal lines of that host (certificate, API, registration), and the node's CertificateSigningRequests still Pending. Decides when the node is NotReady or its kubelet cannot reach the API, which alone keeps a deleted pod Terminating. A journal counts for its host even when no Node object was gathered.",
			reads: []model.Kind{{Group: "certificates.k8s.io", Resource: "certificatesigningrequests"}},
			fills: joinValues(),
			run:   joinNodeDown,
		},
		{
			name:  "cniAgent",
			doc:   "sandbox failure on a node → the network plugin's node agents on that node (ovnkube-node, sdn, multus, ...) → a container of theirs that restarted, or is not ready, within 10 minutes before the failures. Decides when an agent was down when the sandboxes failed.",
			reads: nil,
			fills: joinValues(),
			run:   joinCNIAgent,
		},
		{
			name:  "multusEmptyElement",
			doc:   "Multus' lookup of a NetworkAttachmentDefinition named \"\" → the pod's k8s.v1.cni.cncf.io/networks annotation (text or JSON form) → its elements and the definitions the named ones resolve to. Decides when an element is empty (a trailing, leading or doubled comma; a JSON element without a name); rules out when every element names a network.",
			reads: nil,
			fills: joinValues(),
			run:   joinMultusEmptyElement,
		},
		{
			name:  "nadElsewhere",
			doc:   "\"cannot find a network-attachment-definition (NAME) in namespace (NS)\" → NetworkAttachmentDefinitions of that name in every other gathered namespace → the element of the pod's networks annotation that names it. Decides when another namespace holds it, naming that namespace; rules out when none does.",
			reads: nil,
			fills: joinValues(),
			run:   joinNadElsewhere,
		},
		{
			name:  "nadMissing",
			doc:   "\"cannot find a network-attachment-definition (NAME) in namespace (NS)\" → the gathered NetworkAttachmentDefinitions of NS and of every other namespace. Decides when NS's list was gathered and no namespace holds NAME; rules out when one does.",
			reads: nil,
			fills: joinValues(),
			run:   joinNadMissing,
		},
		{
			name:  "imageRepoNeighbour",
			doc:   "a repository the registry refused or does not know → the images every container of the gather did pull (an imageID) → a repository or account of a near spelling. Decides when one is pulled (the reference is misspelt); silent when the same repository was pulled (then credentials, not the name, differ) or none is near.",
			reads: nil,
			fills: joinValues(),
			run:   joinImageRepoNeighbour,
		},
		{
			name:  "containerCommand",
			doc:   "a program the runtime could not exec (\"exec: PROGRAM: executable file not found\", \"stat PROGRAM: no such file or directory\") → the container's command, args, image and workingDir. Decides whether the pod's command, its first argument or the image's own entrypoint names the program, and says when it is a shell the image lacks or a relative path.",
			reads: nil,
			fills: joinValues(),
			run:   joinContainerCommand,
		},
		{
			name:  "scriptToolMissing",
			doc:   "a shell script's \"PROGRAM: not found\" in the container log → the container's last termination → the volume mounted at the script's path. Decides when the run ended with exit 127 (naming the ConfigMap, Secret or host path the script comes from, when one is mounted there); rules out when it ended with another code (the shell went on).",
			reads: nil,
			fills: joinValues(),
			run:   joinScriptToolMissing,
		},
		{
			name:  "nadIPAM",
			doc:   "whereabouts' \"Could not allocate IP in range\" for a network → its NetworkAttachmentDefinition (the namespace the pod's networks annotation gives, else the pod's, else the only one of that name) → the ipam range and excludes of its CNI configuration. Decides when excludes as wide as the range leave no address.",
			reads: []model.Kind{model.NetworkAttachmentDefinitions},
			fills: joinValues(),
			run:   joinNadIPAM,
		},
		{
			name:  "nadPlugin",
			doc:   "a CNI plugin the node lacks (\"failed to find plugin\"), in the delegate of an additional network → that network's NetworkAttachmentDefinition → the plugin types of its CNI configuration (and their IPAM). Decides when the definition names the plugin, citing it as the object to change.",
			reads: []model.Kind{model.NetworkAttachmentDefinitions},
			fills: joinValues(),
			run:   joinNadPlugin,
		},
		{
			name:  "nodeRequests",
			doc:   "\"Insufficient cpu/memory\" → the nodes the pod may use (selector and taints) → the requests of the pods bound to each against its allocatable. Decides when the gathered pods' requests leave no such node room for the pod's request, naming the largest room left.",
			reads: nil,
			fills: joinValues(),
			run:   joinNodeRequests,
		},
		{
			name:  "iptablesPrivilege",
			doc:   "iptables refused (\"Permission denied (you must be root)\", \"unable to initialize table\") in a container → its effective privilege: the user (its runAsUser, else the pod's), privileged, and NET_ADMIN/NET_RAW as the runtime builds them (the runtime's defaults, minus drop ALL, plus add, minus every capability dropped by name). Decides when the container runs as non-root or lacks NET_ADMIN or NET_RAW; rules the signature out when it runs as UID 0 with both.",
			reads: nil,
			fills: joinValues(),
			run:   joinIPTablesPrivilege,
		},
		{
			name:  "iptablesModule",
			doc:   "iptables cannot initialize a table (\"unable to initialize table\", \"Table does not exist\") → the container's effective privilege (as iptablesPrivilege). Decides that the node's kernel lacks the table's modules when the container runs as UID 0 with NET_ADMIN and NET_RAW, or iptables says the table does not exist; rules the signature out when the privilege is missing.",
			reads: nil,
			fills: joinValues(),
			run:   joinIPTablesModule,
		},
		{
			name:  "rbacGrant",
			doc:   "a request refused to a service account (\"User system:serviceaccount:NS:SA cannot VERB resource R in API group G in the namespace Z\") → the RoleBindings of Z and the ClusterRoleBindings, their subjects (kind, name and namespace) and their Roles/ClusterRoles' rules. Decides when no binding grants the request (naming the bindings that name the account, or an account of its name in another namespace, and why they do not apply), or when the account holds the permission in its own namespace and the request went to another; rules the signature out when a binding grants it.",
			reads: []model.Kind{model.RoleBindings, model.ClusterRoleBindings, model.Roles, model.ClusterRoles},
			fills: joinValues(),
			run:   joinRBACGrant,
		},
		{
			name:  "imagePuller",
			doc:   "an image of the integrated registry refused with \"unauthorized: authentication required\" → the RoleBindings of the image's project (and the ClusterRoleBindings) granting get on imagestreams/layers (system:image-puller) to the pod's service account, its group system:serviceaccounts:<namespace>, or every authenticated user (system:unauthenticated does not count). Decides when none does; rules the signature out when one does.",
			reads: []model.Kind{model.RoleBindings, model.ClusterRoleBindings, model.Roles, model.ClusterRoles},
			fills: joinValues(),
			run:   joinImagePuller,
		},
		{
			name:  "kubeletCSR",
			doc:   "the kubelet's client certificate expired or unsigned (journal) → the node's CertificateSigningRequests for signer kube-apiserver-client-kubelet, requested by the node or its bootstrap identity (the request's subject) → on plain Kubernetes the ClusterRoleBinding of ...:selfnodeclient to system:nodes. Decides when requests of the node are Pending; rules the signature out when they were approved and none waits. Runs for node findings too.",
			reads: []model.Kind{model.CertificateSigningRequests, model.ClusterRoleBindings},
			fills: joinValues(),
			nodes: true,
			run:   joinKubeletCSR,
		},
		{
			name:  "sccUser",
			doc:   "pod → the SecurityContextConstraints that admitted it (openshift.io/scc) → the UID it runs as (runAsUser set by the SCC) → the namespace's UID range (openshift.io/sa.scc.uid-range). Decides when a restricted SCC runs the container as an arbitrary UID of the namespace's range, not as the image's user. As a signature's decider (the denied path in Path), rules the arbitrary UID out when the pod runs as root or as the image's user (anyuid and the like), when the path lies under a read-only mount, or when no SCC admitted the pod on a gather that is not OpenShift.",
			reads: []model.Kind{model.Namespaces},
			fills: joinValues(),
			run:   joinSCCUser,
		},
		{
			name:  "readOnlyPath",
			doc:   "a path a write was refused with \"read-only file system\" (Path) → the container's volumeMounts (the deepest mountPath above it; readOnly: true, or a ConfigMap, Secret, projected or downwardAPI volume, always read-only) → its securityContext.readOnlyRootFilesystem. Decides when the pod's spec makes the path read-only; rules that out when the path lies on a writable mount or a writable root filesystem (the storage itself is read-only).",
			reads: nil,
			fills: joinValues(),
			run:   joinReadOnlyPath,
		},
		{
			name:  "nonRootUser",
			doc:   "container → its securityContext and the pod's: runAsNonRoot and runAsUser. Decides that the kubelet had to check the image's USER (runAsNonRoot: true, no runAsUser), citing the field; rules the image's user out when a runAsUser is set.",
			reads: nil,
			fills: joinValues(),
			run:   joinNonRootUser,
		},
		{
			name:  "pidsLimit",
			doc:   "container → its last termination (OOMKilled rules a pids limit out) → its node → the node's MachineConfigPools → KubeletConfigs setting podPidsLimit, ContainerRuntimeConfigs setting pidsLimit, and the MachineConfigs rendered into the pool whose CRI-O files set pids_limit. Decides with the lowest limit that applies and the object that sets it.",
			reads: []model.Kind{model.MachineConfigPools, model.KubeletConfigs, model.ContainerRuntimeConfigs, model.MachineConfigs},
			fills: joinValues(),
			run:   joinPidsLimit,
		},
		{
			name:  "terminationMessage",
			doc:   "container → its termination message, whole, from its status → the first line that names a failure (not a stack frame, not an info line unless it reports a panic, at least three words) → its terminationMessagePolicy. Decides, quoting that line and saying whether the program wrote the message or it is its log's last lines (FallbackToLogsOnError); rules the message out when no line names a failure.",
			reads: nil,
			fills: joinValues(),
			run:   joinTerminationMessage,
		},
		{
			name:  "readiness5xx",
			doc:   "running container that is not ready → its readiness probe failures (Unhealthy events, kubelet \"Probe failed\" lines) → the HTTP status they got → the Service the log names (Host) and its Endpoints. Decides when the probe gets an HTTP 5xx (the app answers and reports itself not ready), adding whether the backend Service has ready endpoints; rules out a container that is not running-and-unready or whose probe fails otherwise (refused, timeout, 4xx).",
			reads: []model.Kind{model.Services, model.Endpoints},
			fills: joinValues(),
			run:   joinReadiness5xx,
		},
		{
			name:  "probePort",
			doc:   "a probe refused on a port, or a probe port name the kubelet cannot resolve (strconv.Atoi) → the container's liveness/readiness/startup probe port (number or name) → the ports the container declares (containerPort and name). Decides when the probe's port is not declared or its name names no port of the container; rules the wrong port out when the probe resolves to a declared port.",
			reads: nil,
			fills: joinValues(),
			run:   joinProbePort,
		},
		{
			name:  "nodeNameBypass",
			doc:   "pod refused by the kubelet at admission (OutOfcpu, OutOfmemory, ...) → the pod's Scheduled event → its controller's pod template (nodeName) → the Node's allocatable. Decides when spec.nodeName was set by the template or by a pod without a controller and no scheduler bound it, so nothing checked the node's room; rules the bypass out when a scheduler's Scheduled event exists or the template sets no nodeName.",
			reads: []model.Kind{model.ReplicaSets, model.StatefulSets, model.Jobs, model.DaemonSets},
			fills: joinValues(),
			run:   joinNodeNameBypass,
		},
		{
			name:  "podFinalizers",
			doc:   "deleted pod → metadata.finalizers and deletionTimestamp → its containers' state and deletionGracePeriodSeconds (the kubelet's confirmation) → the node's Ready condition → for a Job's pod, whether the Job still exists. Decides when finalizers remain after the containers exited or the kubelet confirmed the deletion, naming each finalizer and the controller that must remove it.",
			reads: []model.Kind{model.Jobs},
			fills: joinValues(),
			run:   joinPodFinalizers,
		},
		{
			name:      "limitRange",
			doc:       "controller whose pods the API server refuses (FailedCreate: a request above the container's limit, or a LimitRange maximum/minimum) → the namespace's LimitRanges (default limits, max, min) → the container of the controller's pod template (its own limits and requests). Decides when a LimitRange's default limit, given to a container without a limit, is below its request, or names the LimitRange whose bound the pod breaks; rules the default out when the container sets its own limit or no default is below the request.",
			reads:     []model.Kind{model.LimitRanges, model.ReplicaSets, model.StatefulSets, model.Jobs, model.DaemonSets},
			fills:     joinValues(),
			workloads: true,
			run:       joinLimitRange,
		},
		{
			name:  "claimClass",
			doc:   "pod → its unbound PersistentVolumeClaims → their storageClassName and warning events (ProvisioningFailed, FailedBinding) → the StorageClasses (provisioner, the is-default-class annotation). Decides when a claim's provisioner fails (quoting it), when a claim sets no class and no StorageClass is default, or when it names a class that does not exist.",
			reads: []model.Kind{model.PersistentVolumeClaims, model.StorageClasses},
			fills: joinValues(),
			run:   joinClaimClass,
		},
	}
}

// joinsOnce is joinRegistry made once: a table load looks up every rule's
// and signature's joins.
var joinsOnce = sync.OnceValue(joinRegistry)

// lookupJoin returns the join named name.
func lookupJoin(name string) (join, bool) {
	for _, j := range joinsOnce() {
		if j.name == name {
			return j, true
		}
	}
	return join{}, false
}

// JoinNames lists the joins a rule may name, sorted.
func JoinNames() []string {
	var out []string
	for _, j := range joinRegistry() {
		out = append(out, j.name)
	}
	sort.Strings(out)
	return out
}

// JoinDoc describes a join for the rule reference.
func JoinDoc(name string) string {
	j, _ := lookupJoin(name)
	return j.doc
}

// decodeKinds lists the kinds the enabled rules' matchers and joins and the
// enabled signatures' deciders read,
// for Needs.Decode: the parser decodes these and indexes every other
// object by its metadata alone.
func (t *Table) decodeKinds() []model.Kind {
	seen := map[model.Kind]bool{}
	out := []model.Kind{}
	for _, r := range t.Rules {
		if r.Disabled {
			continue
		}
		if m, ok := r.matcher.(interface{ reads() []model.Kind }); ok {
			for _, k := range m.reads() {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
		for _, j := range r.joins {
			for _, k := range j.reads {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
		// The kinds a where: or let: expression looks up by name; the
		// values of ConfigMaps and Secrets are never read.
		for _, k := range r.celKinds {
			if !seen[k] && k != model.ConfigMaps && k != model.Secrets {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	// A signature's decider reads its kinds as a rule's join does.
	for _, s := range t.Signatures {
		if s.Disabled || s.decider == nil {
			continue
		}
		for _, k := range s.decider.reads {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// applyJoins runs the rule's joins for a hit on pod p, or on the controller
// h.object when p is nil (joins marked workloads only), adds their evidence
// and values, and reports false when the rule requires a join that does not
// decide.
func (c *evalContext) applyJoins(r *Rule, p *model.Pod, h *hit) bool {
	if len(r.Joins) == 0 || p == nil && h.object == nil {
		return true
	}
	var decided, unchecked []string
	var fixes []string
	for _, j := range r.joins {
		if p == nil && !j.workloads {
			if j.name == r.Require {
				if c.trace.on(r) {
					c.trace.joinFailed(j.name, joinResult{}, "the join does not run on a controller")
				}
				return false
			}
			continue
		}
		res := c.runJoin(j, p, h)
		if j.name == r.Require && !res.Decided {
			if c.trace.on(r) {
				c.trace.joinFailed(j.name, res, "")
			}
			return false
		}
		if res.Decided && res.Cause != "" {
			if h.joined == nil {
				h.joined = map[string]joinResult{}
			}
			h.joined[j.name] = res
			decided = append(decided, res.Cause)
			if res.Fix != "" {
				fixes = append(fixes, res.Fix)
			}
		}
		unchecked = append(unchecked, res.Missing...)
		h.Evidence = append(h.Evidence, res.Evidence...)
		h.Missing = append(h.Missing, res.Missing...)
		h.Gaps = append(h.Gaps, res.Gaps...)
	}
	h.Vars["Decided"] = strings.Join(decided, " ")
	h.Vars["Fix"] = strings.Join(fixes, " ")
	if len(unchecked) > 0 {
		h.Vars["Unchecked"] = cap(strings.Join(unchecked, "; ")) + "."
	}
	return true
}

func (c *evalContext) runJoin(j join, p *model.Pod, h *hit) joinResult {
	var key string
	if p != nil {
		key = j.name + "\x00" + p.ID() + "\x00" + h.Container
	} else {
		key = j.name + "\x00" + h.object.Kind.String() + "/" + h.object.Namespace + "/" + h.object.Name
	}
	if res, ok := c.joinCache[key]; ok {
		return res
	}
	res := j.run(c, p, h)
	c.joinCache[key] = res
	return res
}
