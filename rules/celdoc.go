package rules

import (
	"bytes"
	"fmt"
	"strings"
)

// whereReference explains where: and let: for the rule reference, with the
// CEL environment's own functions and its limits.
func whereReference(b *bytes.Buffer) {
	var own []string
	for _, f := range celFunctions() {
		for _, name := range []string{"lookup", "lookupAll", "found", "absent"} {
			if strings.HasPrefix(f, name+": ") {
				own = append(own, "`"+f+"`")
			}
		}
	}
	text := strings.ReplaceAll(whereText, "§", "`")
	fmt.Fprintf(b, text, strings.Join(own, ", "), CELCostLimit, MaxLookupItems, MaxObjectJSON>>10, maxReadEvidence)
}

// whereText is the section "Conditions with where:" (§ stands for a
// backquote); its verbs are the environment's own functions, the cost
// limit, MaxLookupItems, MaxObjectJSON in KiB and maxReadEvidence.
const whereText = `### Conditions with §where:§

A rule may carry §where:§, an expression in [CEL](https://cel.dev) (the language of Kubernetes admission policies) that
must give §true§ for the rule to fire on a subject the matcher selected; it runs after the rule's joins and before its
§cause§. §let:§ names further expressions, computed where §where:§ holds, whose values the hint and remediation read
as §{{.name}}§ (a let name starts with a lower-case letter, so it never takes the name of a value the engine fills; a
list is written with its items joined by §, §). A rule without §where:§ costs nothing more. Write multi-line expressions
as a literal block (§where: |§), so that errors point at the file's own lines.

§§§yaml
  - id: cnv-handler-down-under-vms
    match:
      matcher: containerWaiting
      params: {reasons: [CrashLoopBackOff]}
    where: |
      subject.namespace == "openshift-cnv" && "kubevirt.io" in subject.labels &&
        subject.labels["kubevirt.io"] == "virt-handler" &&
        lookupAll("virtualmachineinstances.kubevirt.io", "*", "").items.exists(v,
          has(v.status.nodeName) && v.status.nodeName == subject.node && v.status.phase == "Running")
    let:
      vms: >-
        lookupAll("virtualmachineinstances.kubevirt.io", "*", "").items.filter(v,
        has(v.status.nodeName) && v.status.nodeName == subject.node).map(v, v.metadata.namespace + "/" + v.metadata.name)
    hint: "virt-handler {{.Pod}} on {{.Node}} crash-loops while virtual machines run there: {{.vms}}."
§§§

(the whole rule, with a gather it fires on and one it stays quiet on, is in §fixtures/celrule/§.)

An expression reads three variables:

- §subject§: the subject's fields. A pod: §kind§ ("Pod"), §namespace§, §name§, §node§, §phase§, the kubectl columns
  §ready§ ("1/2"), §status§ (STATUS), §restarts§ (a number), §age§, §labels§, §owner§, §containers§ (each with §name§, §kind§
  (init, sidecar, app), §image§, §state§, §reason§, §message§, §exitCode§, §ready§, §restartCount§, §lastReason§,
  §lastExitCode§; null where the status has none), §container§ (the hit's container) and §object§ (the pod as JSON). A
  node: §kind§, §name§, §labels§, §conditions§ (§type§, §status§, §reason§, §message§), §object§. A controller or a cluster
  object: §kind§, §namespace§, §name§, §object§. A ClusterOperator: §kind§, §name§, §available§, §degraded§, §progressing§,
  §message§.
- §vars§: the template values as strings, the ones the hint reads (§vars.Reason§, §vars.ExitCode§, §vars.Decided§); a
  value the hit does not fill is §""§.
- §joins§: per join the rule names, §decided§, §cause§, §fix§ and §missing§ (what the gather lacks to decide).

and the object store through generic lookups only (no product has a function of its own):

- §lookup(kind, namespace, name)§ gives §{coverage, object}§; §lookupAll(kind, namespace, selector)§ gives
  §{coverage, items, truncated}§, the objects of a namespace (§"*"§: every namespace; §""§ for a cluster-scoped kind) whose
  labels match a Kubernetes label selector (§""§: all), at most %[3]d.
- §coverage§ is §"found"§, §"absent"§ (the list that would hold it was gathered, and does not), §"not gathered"§ or
  §"filtered"§ (the source lists only some objects). §found(r)§ and §absent(r)§ test it: §absent§ is true only when the
  list was gathered, so an expression never concludes that an object is missing from a kind the gather does not hold.
- An object is its JSON form when the run decodes its kind, else its metadata (§metadata.name§, §namespace§, §uid§,
  §labels§; a ConfigMap's or Secret's key names as §keys§, never their values). Typed objects larger than %[4]d KiB as
  JSON are given by their metadata.
- **The kind is a string literal**, §"resource.group"§ as the gather's folders name it (§"pods"§,
  §"cephclusters.ceph.rook.io"§): the table declares the kinds its expressions read, and the parser decodes them, custom
  resources included (without §metadata.managedFields§ and annotations). A kind given any other way is a load error.

The environment's own functions: %[1]s; the rest is CEL's standard library. The whole list, with every overload, is
pinned in §rules/testdata/cel/functions.golden§.

§rules validate§ type-checks every expression when the table loads and reports a problem at §file:line:column§ (the
expression's line in the rule file, CEL's column within it: CEL places a call at its parenthesis and a field at its
dot); §where:§ must give true or false. At run time an expression stops at a cost of %[2]d (CEL's units, about one per
value visited) or on an error (a key a map lacks: guard with §has(x.f)§ or §"k" in m§); the rule then does not fire on
that subject (a §let:§ that stops leaves its value empty), the analysis goes on, and the report's gather problems
name the rule, the expression's line and the first subject.
§rules explain§ shows a subject a §where:§ decided as step §where§.

What the condition read is cited with the finding, beside the matcher's evidence: every object §lookup§ found, and
each object §lookupAll§ listed that a §let:§ value names (by §namespace/name§ or as a whole name) — a search lists
objects that prove nothing, the ones the hint speaks of prove the cause; at most %[5]d, each at its first line.

`
