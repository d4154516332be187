package nodelog

import (
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/internal/lit"
)

// Class is what a node-log message is about. Rules match classes; the first
// matching class in classOrder wins, so specific classes come before
// "sync-error".
type Class string

// The message classes.
const (
	ClassImagePull       Class = "image-pull"        // pull failed or backing off; Image, Detail (the registry's answer)
	ClassSandbox         Class = "sandbox"           // pod sandbox / CNI / Multus / OVN-Kubernetes failure; Detail
	ClassProbe           Class = "probe"             // probe failed; Probe, Container, Detail (probe output)
	ClassContainerStart  Class = "container-start"   // create/start of a container failed; Container, Detail
	ClassCrashLoop       Class = "crash-loop"        // back-off restarting a failed container; Container
	ClassOOMKill         Class = "oom-kill"          // kernel OOM kill; Detail (process), PodUID from the cgroup
	ClassEviction        Class = "eviction"          // eviction manager; Detail (signal, threshold)
	ClassVolume          Class = "volume"            // mount/attach/unmount failure; Detail
	ClassPLEG            Class = "pleg"              // PLEG is not healthy
	ClassNodeNotReady    Class = "node-not-ready"    // node status / registration problems
	ClassNetworkNotReady Class = "network-not-ready" // NetworkReady=false, no CNI configuration
	ClassCertificate     Class = "certificate"       // x509 / certificate expiry / TLS verification
	ClassAPI             Class = "api"               // API throttling, lease renewal failures, API unreachable
	ClassSyncError       Class = "sync-error"        // "Error syncing pod" not covered by a class above
	ClassOther           Class = "other"
)

// Classes lists every class, for rule validation.
var Classes = []Class{ClassImagePull, ClassSandbox, ClassProbe, ClassContainerStart, ClassCrashLoop, ClassOOMKill,
	ClassEviction, ClassVolume, ClassPLEG, ClassNodeNotReady, ClassNetworkNotReady, ClassCertificate, ClassAPI,
	ClassSyncError, ClassOther}

// NodeLevel reports whether a class describes the node rather than one pod.
func (c Class) NodeLevel() bool {
	switch c {
	case ClassPLEG, ClassNodeNotReady, ClassNetworkNotReady, ClassCertificate, ClassAPI, ClassOOMKill, ClassEviction:
		return true
	}
	return false
}

type classRule struct {
	class Class
	// any lists substrings of which one must occur in the message or the err field.
	any []string
}

// classOrder is checked in order; the first rule with a matching substring wins.
var classOrder = []classRule{
	{ClassPLEG, []string{"PLEG is not healthy"}},
	{ClassNetworkNotReady, []string{"network is not ready", "runtime network not ready", "NetworkReady=false", "NetworkPluginNotReady", "No CNI configuration file"}},
	{ClassSandbox, []string{"CreatePodSandbox", "reate sandbox", "pod network sandbox", "RunPodSandbox", "CNI network", "cni plugin", "multus", "Multus"}},
	{ClassImagePull, []string{"ErrImagePull", "ImagePullBackOff", "Failed to pull image", "rror pulling image", "Back-off pulling image", "PullImage from image service failed", "InvalidImageName"}},
	{ClassProbe, []string{"Probe failed", "probe failed", "Probe errored"}},
	{ClassCrashLoop, []string{"CrashLoopBackOff", "restarting failed container"}},
	{ClassContainerStart, []string{"CreateContainerError", "CreateContainerConfigError", "RunContainerError", "StartContainer from runtime service failed", "CreateContainer in sandbox", "PostStartHookError", "exec format error"}},
	{ClassOOMKill, []string{"Out of memory", "out of memory", "oom-kill:", "invoked oom-killer", "OOMKilled"}},
	{ClassEviction, []string{"eviction manager", "Eviction manager", "evicted", "Evicted"}},
	{ClassVolume, []string{"MountVolume", "UnmountVolume", "AttachVolume", "Unable to attach or mount volumes", "FailedMount", "Multi-Attach"}},
	{ClassCertificate, []string{"x509:", "certificate has expired", "certificate signed by unknown authority", "tls: failed to verify", "certificate rotation",
		// The kubelet's bootstrap: its client certificate is requested with a CSR.
		"certificate signing request", "requesting a signed certificate", "bootstrap-kubeconfig", "bootstrap kubeconfig",
		// Its client certificate expired (bootstrap.go), its renewal never signed.
		"client certificate is expired", "certificate request was not signed"}},
	{ClassAPI, []string{"Failed to update lease", "failed to update lease", "Unable to update node lease", "client-side throttling", "Throttling request", "Waited for", "the server was unable to return a response", "connect: connection refused"}},
	{ClassNodeNotReady, []string{"Error updating node status", "Unable to register node", "NodeNotReady", "Node became not ready", "not found\" node=", "node \""}},
	{ClassSyncError, []string{"Error syncing pod"}},
}

var (
	pullImageRe   = regexp.MustCompile(`(?i)(?:pull(?:ing)? image|image) \\?"([^"\\\s]+)\\?"`)
	probeOutputRe = regexp.MustCompile(`(?i)(readiness|liveness|startup) probe (?:failed|errored)`)
	killedProcRe  = regexp.MustCompile(`Killed process (\d+) \(([^)]*)\)`)
	oomTaskRe     = regexp.MustCompile(`task=([^,\s]+),pid=(\d+)`)
	forContainer  = regexp.MustCompile(`for \\?"([a-z0-9][a-z0-9-]*)\\?" with`)
)

// Classify sets Class and the class's fields (Pod, PodUID, Container, Image,
// Probe, Detail) of e from its message and fields.
func Classify(e *Entry) {
	findPod(e)
	errText := Get(e.Fields, "err")
	e.Class = classOf(e.Message, errText)
	if e.Unit == UnitKernel && e.Class != ClassOOMKill {
		e.Class = ClassOther
	}
	e.Detail = errText
	switch e.Class {
	case ClassImagePull:
		e.Image = Get(e.Fields, "image")
		if e.Image == "" {
			if m := pullImageRe.FindStringSubmatch(e.Message + " " + errText); m != nil {
				e.Image = m[1]
			}
		}
	case ClassProbe:
		e.Probe = Get(e.Fields, "probeType")
		if e.Probe == "" {
			if m := probeOutputRe.FindStringSubmatch(e.Message); m != nil {
				e.Probe = strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:])
			}
		}
		if out := Get(e.Fields, "output"); out != "" {
			e.Detail = out
		}
	case ClassOOMKill:
		if m := killedProcRe.FindStringSubmatch(e.Message); m != nil {
			e.Detail = "killed process " + m[1] + " (" + m[2] + ")"
		} else if m := oomTaskRe.FindStringSubmatch(e.Message); m != nil {
			e.Detail = "killed process " + m[2] + " (" + m[1] + ")"
		}
		if e.PodUID == "" {
			e.PodUID = cgroupPodUID(e.Message)
		}
	}
	if e.Container == "" && errText != "" {
		if m := forContainer.FindStringSubmatch(errText); m != nil {
			e.Container = m[1]
		}
	}
	if e.Detail == "" && e.Class != ClassOther && e.Class != ClassOOMKill {
		e.Detail = e.Message
	}
}

// classIndex finds the first rule of classOrder with a substring in a text,
// in one pass over it.
var classIndex = func() *lit.Index {
	groups := make([][]string, len(classOrder))
	for i, r := range classOrder {
		groups[i] = r.any
	}
	return lit.New(groups)
}()

// classOf is the class of the first rule of classOrder with a substring in
// msg or in errText, else ClassOther. The error text is searched only for
// rules before the message's.
func classOf(msg, errText string) Class {
	i := classIndex.First(msg)
	if errText != "" {
		limit := len(classOrder)
		if i >= 0 {
			limit = i
		}
		if j := classIndex.FirstBelow(errText, limit); j >= 0 {
			i = j
		}
	}
	if i < 0 {
		return ClassOther
	}
	return classOrder[i].class
}
